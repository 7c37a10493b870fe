// Our recorded RSA vectors (Vectors/rsa): OpenSSL key encodings to decode and re-encode byte
// for byte; OAEP and PKCS #1 v1.5 ciphertexts to decrypt (and OAEP ones to re-encrypt from
// the recorded seed); PKCS #1 v1.5 signatures to reproduce and verify; PSS signatures to
// verify under the exact and "any" salt lengths and to reproduce from the recorded salt.

import CryptoCore
import CryptoPrimitives
import VectorFormats

enum OwnRSA {
    typealias Outcome = OwnSymmetric.Outcome

    /// The checker for an RSA algorithm of our schema, or nil.
    static func checker(for algorithm: String) -> ((OwnVectorFile.Case) throws(VectorFormatError) -> Outcome)? {
        switch algorithm {
        case "RSA-KEYS": keys
        case "RSAES-OAEP": oaep
        case "RSAES-PKCS1-V1_5": pkcs1Encryption
        case "RSASSA-PKCS1-V1_5": pkcs1Signature
        case "RSASSA-PSS": pss
        default: nil
        }
    }

    private static func hash(_ c: OwnVectorFile.Case, _ name: String) throws(VectorFormatError) -> HashChoice {
        guard let choice = c.inputs[name]?.string.flatMap(HashChoice.init(name:)) else { throw .missingField(name) }
        return choice
    }

    /// PKCS #8 and PKCS #1 decode to one key that re-encodes to both; its public encodings match.
    private static func keys(_ c: OwnVectorFile.Case) throws(VectorFormatError) -> Outcome {
        let pkcs8 = try c.input("pkcs8"), pkcs1 = try c.input("pkcs1")
        guard let key = try? RSA.Signing.PrivateKey(derRepresentation: pkcs8),
              let other = try? RSA.Signing.PrivateKey(derRepresentation: pkcs1) else { return .compare(nil, pkcs8) }
        let got = key.derRepresentation.unsafeExposedBytes + other.pkcs1DERRepresentation.unsafeExposedBytes
            + key.publicKey.derRepresentation + key.publicKey.pkcs1DERRepresentation
        return .compare(got, try pkcs8 + pkcs1 + c.output("spki") + c.output("pkcs1Public"))
    }

    private static func oaep(_ c: OwnVectorFile.Case) throws(VectorFormatError) -> Outcome {
        // Every field is read before the operations, so only the engine's refusal becomes nil.
        let keyField = try c.input("privateKey")
        let padding = RSA.Encryption.Padding.oaep(hash: try hash(c, "hash").algorithm, mgf1Hash: try hash(c, "mgf1Hash").algorithm)
        let label = try c.input("label"), ciphertext = try c.input("ct")
        let key = try? RSA.Encryption.PrivateKey(derRepresentation: keyField)
        let plaintext = try? key?.decrypt(ciphertext, padding: padding, label: label)
        guard c.isValid else { return .rejected(plaintext == nil) }
        let message = try c.output("msg")
        var replay = ReplayRandomSource(bytes: try c.input("seed"))
        let reencrypted = try? key?.publicKey.encrypt(message, padding: padding, label: label, using: &replay)
        return .compare(plaintext.flatMap { _ in reencrypted == ciphertext ? plaintext : nil }, message)
    }

    private static func pkcs1Encryption(_ c: OwnVectorFile.Case) throws(VectorFormatError) -> Outcome {
        let keyField = try c.input("privateKey"), ciphertext = try c.input("ct")
        let expected = c.isValid ? try c.output("msg") : []
        let key = try? RSA.Encryption.PrivateKey(derRepresentation: keyField)
        let plaintext = try? key?.decrypt(ciphertext, padding: .insecurePKCS1v1_5)
        return c.isValid ? .compare(plaintext, expected) : .rejected(plaintext == nil)
    }

    /// Valid cases: verify, and reproduce with the private key (SHA-1 verify only: we refuse
    /// to make SHA-1 signatures). Invalid cases: verification fails.
    private static func pkcs1Signature(_ c: OwnVectorFile.Case) throws(VectorFormatError) -> Outcome {
        let hash = try hash(c, "hash")
        let publicKeyField = try c.input("publicKey"), message = try c.input("msg"), signature = try c.input("sig")
        let publicKey = try? RSA.Signing.PublicKey(derRepresentation: publicKeyField)
        let valid = publicKey.map { RSACheck.verify($0, signature, digest: hash.hash(message), hash: hash, padding: .pkcs1v1_5) } ?? false
        guard c.isValid else { return .rejected(!valid) }
        guard valid else { return .compare(nil, signature) }
        if hash == .sha1 { return .compare(signature, signature) }
        let privateKeyField = try c.input("privateKey")
        let key = try? RSA.Signing.PrivateKey(derRepresentation: privateKeyField)
        return .compare(key.flatMap { RSACheck.signPKCS1($0, message: message, hash: hash) }, signature)
    }

    private static func pss(_ c: OwnVectorFile.Case) throws(VectorFormatError) -> Outcome {
        let publicKeyField = try c.input("publicKey"), message = try c.input("msg"), signature = try c.input("sig")
        let publicKey = try? RSA.Signing.PublicKey(derRepresentation: publicKeyField)
        let exact: RSA.Signing.Padding = try c.integer("saltLength") == 0 ? .pssZeroSalt : .pss
        let digest = SHA256.hash(data: message)
        let sig = RSA.Signing.RSASignature(rawRepresentation: signature)
        let validExact = publicKey?.isValidSignature(sig, for: digest, padding: exact) ?? false
        guard c.isValid else { return .rejected(!validExact) }
        let validAny = publicKey?.isValidSignature(sig, for: digest, padding: .pssAnySaltLength) ?? false
        let privateKeyField = try c.input("privateKey"), salt = try c.input("salt")
        guard validExact, validAny, let key = try? RSA.Signing.PrivateKey(derRepresentation: privateKeyField) else {
            return .compare(nil, signature)
        }
        var replay = ReplayRandomSource(bytes: salt)
        return .compare(try? key.signature(for: digest, padding: exact, using: &replay).rawRepresentation, signature)
    }
}
