// The P-256 and RSA cases of the table. Each returns whether the operation succeeded and gave
// the recorded output (or the signature verified); the caller compares that with the case's
// expectation.

import CryptoPrimitives

/// The RSA key the following cases use (a `key` line).
struct TableKeys {
    var rsaPrivate: RSA.Encryption.PrivateKey?
    var rsaPublic: RSA.Signing.PublicKey?

    /// Reads `key KIND HEX`; a key the engine refuses leaves nil, and the cases that need it fail.
    mutating func set(_ tokens: [[UInt8]]) throws(TableError) {
        let line = try TableCase([[0x6b, 0x65, 0x79], [0x6b, 0x65, 0x79], [0x76]] + tokens.dropFirst())
        let der = try line.bytes(1)
        switch try line.word(0) {
        case "rsa-private":
            rsaPrivate = try? RSA.Encryption.PrivateKey(derRepresentation: der)
        case "rsa-public":
            rsaPublic = try? RSA.Signing.PublicKey(derRepresentation: der)
        default:
            throw TableError(message: "a key line names an unknown kind")
        }
    }
}

enum PublicKeyChecks {
    /// `ecdsa-p256 ID EXPECT der|raw PUBLIC MESSAGE SIGNATURE`: SHA-256, an uncompressed key.
    static func ecdsaP256(_ line: TableCase) throws(TableError) -> Bool {
        let der = try line.word(0) == "der"
        let key = try line.bytes(1), message = try line.bytes(2), signature = try line.bytes(3)
        do throws(CryptoError) {
            let publicKey = try P256.Signing.PublicKey(x963Representation: key)
            let decoded = der ? try P256.Signing.ECDSASignature(derRepresentation: signature)
                              : try P256.Signing.ECDSASignature(rawRepresentation: signature)
            return publicKey.isValidSignature(decoded, for: message)
        } catch {
            return false
        }
    }

    /// `ecdh-p256 ID EXPECT PRIVATE PUBLIC SHARED`: a SEC 1 public point.
    static func ecdhP256(_ line: TableCase) throws(TableError) -> Bool {
        let privateKey = try line.bytes(0), publicKey = try line.bytes(1), shared = try line.bytes(2)
        do throws(CryptoError) {
            let peer = try P256.KeyAgreement.PublicKey(sec1Representation: publicKey)
            let secret = try P256.KeyAgreement.PrivateKey(rawRepresentation: privateKey).sharedSecretFromKeyAgreement(with: peer)
            return secret.secret.unsafeExposedBytes == shared
        } catch {
            return false
        }
    }

    /// `rsa-oaep ID EXPECT HASH MGF1-HASH LABEL CIPHERTEXT MESSAGE` under the current private key.
    static func rsaOAEP(_ line: TableCase, _ keys: TableKeys) throws(TableError) -> Bool {
        let hash = try algorithm(line, 0), mgfHash = try algorithm(line, 1)
        let label = try line.bytes(2), ciphertext = try line.bytes(3), message = try line.bytes(4)
        guard let key = keys.rsaPrivate else { return false }
        do throws(CryptoError) {
            return try key.decrypt(ciphertext, padding: .oaep(hash: hash, mgf1Hash: mgfHash), label: label) == message
        } catch {
            return false
        }
    }

    /// `rsa-pkcs1-decrypt ID EXPECT CIPHERTEXT MESSAGE` under the current private key.
    static func rsaPKCS1Decrypt(_ line: TableCase, _ keys: TableKeys) throws(TableError) -> Bool {
        let ciphertext = try line.bytes(0), message = try line.bytes(1)
        guard let key = keys.rsaPrivate else { return false }
        do throws(CryptoError) {
            return try key.decrypt(ciphertext, padding: .insecurePKCS1v1_5) == message
        } catch {
            return false
        }
    }

    /// `rsa-pkcs1-verify ID EXPECT HASH MESSAGE SIGNATURE` under the current public key.
    static func rsaPKCS1Verify(_ line: TableCase, _ keys: TableKeys) throws(TableError) -> Bool {
        guard let key = keys.rsaPublic else { return false }
        return try verify(key, line, padding: .pkcs1v1_5, hashIndex: 0, messageIndex: 1)
    }

    /// `rsa-pss-verify ID EXPECT HASH SALT-LENGTH MESSAGE SIGNATURE` under the current public key;
    /// MGF1 uses the message hash.
    static func rsaPSSVerify(_ line: TableCase, _ keys: TableKeys) throws(TableError) -> Bool {
        guard let key = keys.rsaPublic else { return false }
        let saltLength = try line.number(1)
        let padding: RSA.Signing.Padding = saltLength == 0 ? .pssZeroSalt
            : saltLength == (try algorithm(line, 0)).byteCount ? .pss : .pssAnySaltLength
        return try verify(key, line, padding: padding, hashIndex: 0, messageIndex: 2)
    }

    /// `rsa-pkcs1-sign ID EXPECT HASH MESSAGE SIGNATURE` under the current private key; the
    /// blinding draws from the system source (getrandom on Linux).
    static func rsaPKCS1Sign(_ line: TableCase, _ keys: TableKeys) throws(TableError) -> Bool {
        let message = try line.bytes(1), expected = try line.bytes(2)
        guard let key = keys.rsaPrivate.map(RSA.Signing.PrivateKey.init(sameKeyAs:)) else { return false }
        let hash = try line.word(0)
        var random = SystemRandomSource()
        let signature: RSA.Signing.RSASignature?
        switch hash {
        case "sha256": signature = try? key.signature(for: SHA256.hash(data: message), padding: .pkcs1v1_5, using: &random)
        case "sha384": signature = try? key.signature(for: SHA384.hash(data: message), padding: .pkcs1v1_5, using: &random)
        case "sha512": signature = try? key.signature(for: SHA512.hash(data: message), padding: .pkcs1v1_5, using: &random)
        default: throw TableError(message: "case \(line.id): unknown hash")
        }
        return signature?.rawRepresentation == expected
    }

    private static func verify(_ key: RSA.Signing.PublicKey, _ line: TableCase, padding: RSA.Signing.Padding,
                               hashIndex: Int, messageIndex: Int) throws(TableError) -> Bool {
        let message = try line.bytes(messageIndex), signature = RSA.Signing.RSASignature(rawRepresentation: try line.bytes(messageIndex + 1))
        switch try line.word(hashIndex) {
        case "sha1": return key.isValidSignature(signature, for: Insecure.SHA1.hash(data: message), padding: padding)
        case "sha224": return key.isValidSignature(signature, for: SHA224.hash(data: message), padding: padding)
        case "sha256": return key.isValidSignature(signature, for: SHA256.hash(data: message), padding: padding)
        case "sha384": return key.isValidSignature(signature, for: SHA384.hash(data: message), padding: padding)
        case "sha512": return key.isValidSignature(signature, for: SHA512.hash(data: message), padding: padding)
        default: throw TableError(message: "case \(line.id): unknown hash")
        }
    }

    private static func algorithm(_ line: TableCase, _ index: Int) throws(TableError) -> HashAlgorithm {
        switch try line.word(index) {
        case "sha1": .insecureSHA1
        case "sha224": .sha224
        case "sha256": .sha256
        case "sha384": .sha384
        case "sha512": .sha512
        default: throw TableError(message: "case \(line.id): unknown hash")
        }
    }
}
