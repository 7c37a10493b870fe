// PEM key fixtures (the Salt Edge clients' test keys): every key loads, and re-encodes to the
// same text byte for byte in the same format (PKCS #1, PKCS #8 or SubjectPublicKeyInfo).

import CryptoPrimitives

enum PEMFixtures {
    /// Returns false when the text is not a key we recognise.
    static func check(_ text: String, _ log: inout CaseLog) -> Bool {
        let label = text.split(separator: "\n").first.map(String.init) ?? ""
        let reencoded: String?
        switch label {
        case "-----BEGIN RSA PRIVATE KEY-----":
            reencoded = (try? RSA.Signing.PrivateKey(pemRepresentation: text))
                .map { String(decoding: $0.pkcs1PEMRepresentation.unsafeExposedBytes, as: UTF8.self) }
        case "-----BEGIN PRIVATE KEY-----":
            reencoded = (try? RSA.Signing.PrivateKey(pemRepresentation: text))
                .map { String(decoding: $0.pemRepresentation.unsafeExposedBytes, as: UTF8.self) }
                ?? (try? P256.Signing.PrivateKey(pemRepresentation: text)).map { String(decoding: $0.pemRepresentation.unsafeExposedBytes, as: UTF8.self) }
        case "-----BEGIN PUBLIC KEY-----":
            reencoded = (try? RSA.Signing.PublicKey(pemRepresentation: text))?.pemRepresentation
                ?? (try? P256.Signing.PublicKey(pemRepresentation: text))?.pemRepresentation
        case "-----BEGIN RSA PUBLIC KEY-----":
            reencoded = (try? RSA.Signing.PublicKey(pemRepresentation: text))?.pkcs1PEMRepresentation
        default:
            return false
        }
        log.expect(reencoded == text, label, "round trip", expected: "the same text", got: reencoded == nil ? "not loaded" : "different text")
        return true
    }
}
