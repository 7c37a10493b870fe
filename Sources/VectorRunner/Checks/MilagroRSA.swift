// Milagro's RSA-2048 file: prime pairs (probable primes; a key built on them signs and
// verifies) and self-signed X.509 certificates whose sha256WithRSAEncryption signatures must
// verify under their own keys.

import CryptoCore
import CryptoPrimitives
import FoundationEssentials
import VectorFormats

enum MilagroRSA {
    static func isMilagroRSA(_ file: CAVPFile) -> Bool {
        file.blocks.contains { $0.has("CERT") }
    }

    static func check(_ file: CAVPFile, _ log: inout CaseLog) {
        var p: [UInt8]?
        for block in file.blocks {
            let id = "line \(block.line)"
            do throws(VectorFormatError) {
                if block.has("p") { p = try block.integerBytes("p") }
                if block.has("q"), let prime = p {
                    log.expect(checkPrimes(prime, try block.integerBytes("q")), id, "p, q", expected: "probable primes making a working key", got: "no")
                    p = nil
                }
                if let certificate = block["CERT"] {
                    log.expect(verifySelfSigned(certificate), id, "certificate", expected: "signature verifies", got: "does not")
                }
            } catch {
                log.fail(id, "", expected: "well-formed record", got: error.description)
            }
        }
    }

    /// The primes pass Miller–Rabin, and the key (n = p·q, e = 65537) signs and verifies.
    private static func checkPrimes(_ p: [UInt8], _ q: [UInt8]) -> Bool {
        var random = SeededRandomSource(seed: 2048)
        guard let key = try? RSA.Signing.PrivateKey(primes: SecretBytes(p), SecretBytes(q), using: &random) else { return false }
        let message = Array("Milagro".utf8)
        guard let signature = try? key.signature(for: SHA256.hash(data: message), padding: .pss, using: &random) else { return false }
        return key.publicKey.isValidSignature(signature, for: message, padding: .pss)
    }

    /// Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, signatureValue BIT STRING }.
    private static func verifySelfSigned(_ base64: String) -> Bool {
        guard let der = Data(base64Encoded: base64).map(Array.init) else { return false }
        var reader = DER.Reader(der)
        guard var certificate = try? reader.readSequence(),
              let tbs = try? certificate.readElement(), let algorithm = try? certificate.readSequence(),
              let signature = try? certificate.readBitString() else { return false }
        var algorithmReader = algorithm
        let sha256WithRSA = DER.ObjectIdentifier([1, 2, 840, 113549, 1, 1, 11])
        guard (try? algorithmReader.readObjectIdentifier()) == sha256WithRSA else { return false }
        // TBSCertificate: [0] version, serial, signature, issuer, validity, subject, SPKI, …
        var fields = DER.Reader(tbs)
        guard var body = try? fields.readSequence() else { return false }
        if body.nextTag == DER.Tag.context(0, constructed: true) { _ = try? body.readElement() }
        for _ in 0..<5 { _ = try? body.readElement() }
        guard let spki = try? body.readElement(), let key = try? RSA.Signing.PublicKey(derRepresentation: spki) else { return false }
        return key.isValidSignature(.init(rawRepresentation: signature), for: tbs, padding: .pkcs1v1_5)
    }
}
