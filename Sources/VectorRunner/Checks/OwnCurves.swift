// Our recorded vectors (Vectors/x25519, Vectors/p384) for X25519 and P-384.

import CryptoPrimitives
import VectorFormats

enum OwnCurves {
    /// The checker for `X25519`, `ECDH-P384` or `ECDSA-P384-VERIFY`, or nil for another algorithm.
    static func checker(for algorithm: String) -> ((OwnVectorFile.Case) throws(VectorFormatError) -> OwnSymmetric.Outcome)? {
        switch algorithm {
        case "X25519": x25519
        case "ECDH-P384": ecdhP384
        case "ECDSA-P384-VERIFY": ecdsaP384
        default: nil
        }
    }

    /// A valid case: our public key for `private` and the secret with `peer` equal OpenSSL's.
    /// An invalid one (a small-order peer) must be refused.
    private static func x25519(_ c: OwnVectorFile.Case) throws(VectorFormatError) -> OwnSymmetric.Outcome {
        let privateBytes = try c.input("private"), peerBytes = try c.input("peer")
        var publicKey: [UInt8]?, shared: [UInt8]?
        do throws(CryptoError) {
            let key = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: privateBytes)
            publicKey = key.publicKey.rawRepresentation
            shared = try key.sharedSecretFromKeyAgreement(with: Curve25519.KeyAgreement.PublicKey(rawRepresentation: peerBytes))
                .secret.unsafeExposedBytes
        } catch {
            shared = nil
        }
        guard c.isValid else { return .rejected(shared == nil) }
        let expectedPublic = try c.output("public"), expectedShared = try c.output("shared")
        return .compare(publicKey == expectedPublic ? shared : nil, expectedShared)
    }

    /// As for X25519, with a SEC 1 peer (uncompressed or compressed); invalid peers are refused.
    private static func ecdhP384(_ c: OwnVectorFile.Case) throws(VectorFormatError) -> OwnSymmetric.Outcome {
        let privateBytes = try c.input("private"), peerBytes = try c.input("peer")
        var publicKey: [UInt8]?, shared: [UInt8]?
        do throws(CryptoError) {
            let key = try P384.KeyAgreement.PrivateKey(rawRepresentation: privateBytes)
            publicKey = key.publicKey.x963Representation
            let peer = peerBytes.count == 49 ? try P384.KeyAgreement.PublicKey(compressedRepresentation: peerBytes)
                                             : try P384.KeyAgreement.PublicKey(x963Representation: peerBytes)
            shared = try key.sharedSecretFromKeyAgreement(with: peer).secret.unsafeExposedBytes
        } catch {
            shared = nil
        }
        guard c.isValid else { return .rejected(shared == nil) }
        let expectedPublic = try c.output("public"), expectedShared = try c.output("shared")
        return .compare(publicKey == expectedPublic ? shared : nil, expectedShared)
    }

    /// A DER signature over `msg` with `hash` must verify exactly when the case is valid.
    private static func ecdsaP384(_ c: OwnVectorFile.Case) throws(VectorFormatError) -> OwnSymmetric.Outcome {
        let hashName = try c.string("hash")
        guard let hash = HashChoice(name: hashName) else { throw .malformed("hash \(hashName)") }
        let message = try c.input("msg"), signature = try c.input("sig"), publicBytes = try c.input("public")
        let verifies = CurveChoice.p384.verificationKey(x963: publicBytes)
            .map { CurveChoice.p384.isValid(signature, p1363: false, message: message, hash: hash, key: $0) } ?? false
        return c.isValid ? .compare(verifies ? [1] : [0], [1]) : .rejected(!verifies)
    }
}
