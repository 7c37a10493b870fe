// Our recorded P-256 vectors (Vectors/p256): OpenSSL signatures to verify, RFC 6979 signatures
// to reproduce, OpenSSL key encodings to decode and re-encode, and key agreements.

import CryptoPrimitives
import VectorFormats

enum OwnP256 {
    typealias Outcome = OwnSymmetric.Outcome

    /// The checker for a P-256 algorithm of our schema, or nil.
    static func checker(for algorithm: String) -> ((OwnVectorFile.Case) throws(VectorFormatError) -> Outcome)? {
        switch algorithm {
        case "ECDSA-P256-SHA256-VERIFY": verify
        case "ECDSA-P256-SHA256-RFC6979": deterministic
        case "P256-KEYS": keys
        case "ECDH-P256": agreement
        default: nil
        }
    }

    private static func verify(_ c: OwnVectorFile.Case) throws(VectorFormatError) -> Outcome {
        let keyField = try c.input("publicKey"), signatureField = try c.input("sig"), message = try c.input("msg")
        let key = try? P256.Signing.PublicKey(x963Representation: keyField)
        let signature = try? P256.Signing.ECDSASignature(derRepresentation: signatureField)
        let valid = signature.map { key?.isValidSignature($0, for: message) ?? false } ?? false
        return c.isValid ? .compare(valid ? [] : nil, []) : .rejected(!valid)
    }

    private static func deterministic(_ c: OwnVectorFile.Case) throws(VectorFormatError) -> Outcome {
        let keyField = try c.input("privateKey"), message = try c.input("msg")
        let key = try? P256.Signing.PrivateKey(rawRepresentation: keyField)
        return .compare(key?.deterministicSignature(for: message).derRepresentation, try c.output("sig"))
    }

    /// PKCS #8 and SEC 1 both decode to the scalar; every public encoding matches OpenSSL's.
    private static func keys(_ c: OwnVectorFile.Case) throws(VectorFormatError) -> Outcome {
        let raw = try c.input("privateKey"), pkcs8 = try c.input("pkcs8"), sec1 = try c.input("sec1")
        let fromPKCS8 = try? P256.Signing.PrivateKey(derRepresentation: pkcs8)
        let fromSEC1 = try? P256.Signing.PrivateKey(derRepresentation: sec1)
        guard let key = fromPKCS8, key.rawRepresentation.unsafeExposedBytes == raw,
              fromSEC1?.rawRepresentation.unsafeExposedBytes == raw,
              key.derRepresentation.unsafeExposedBytes == pkcs8 else { return .compare(nil, raw) }
        let publicKey = key.publicKey
        let got = publicKey.x963Representation + publicKey.compressedRepresentation + publicKey.derRepresentation
        return .compare(got, try c.output("publicKey") + c.output("compressedPublicKey") + c.output("spki"))
    }

    private static func agreement(_ c: OwnVectorFile.Case) throws(VectorFormatError) -> Outcome {
        let oursField = try c.input("privateKey"), peerField = try c.input("publicKey")
        let ours = try? P256.KeyAgreement.PrivateKey(rawRepresentation: oursField)
        let peer = try? P256.KeyAgreement.PublicKey(sec1Representation: peerField)
        let shared = peer.flatMap { peer in try? ours?.sharedSecretFromKeyAgreement(with: peer) }
        return c.isValid ? .compare(shared?.secret.unsafeExposedBytes, try c.output("shared")) : .rejected(shared == nil)
    }
}
