// The hash, MAC, key-derivation and AES cases of the table. Each returns whether the operation
// succeeded and gave the recorded output; the caller compares that with the case's expectation.

import CryptoPrimitives

/// The hash, MAC, key-derivation and AES operations.
enum SymmetricChecks {
    /// `digest ID EXPECT HASH MESSAGE DIGEST` (CAVP SHAVS short and long messages, ACVP SHA2).
    static func digest(_ line: TableCase) throws(TableError) -> Bool {
        let message = try line.bytes(1), expected = try line.bytes(2)
        switch try line.word(0) {
        case "sha256": return SHA256.hash(data: message).bytes == expected
        case "sha384": return SHA384.hash(data: message).bytes == expected
        case "sha512": return SHA512.hash(data: message).bytes == expected
        default: throw TableError(message: "case \(line.id): unknown hash")
        }
    }

    /// `sha256-monte ID EXPECT SEED DIGEST`: one checkpoint of SHAVS's Monte Carlo test (1000
    /// hashes of the three previous digests, from the seed).
    static func sha256Monte(_ line: TableCase) throws(TableError) -> Bool {
        let seed = try line.bytes(0)
        var (a, b, c) = (seed, seed, seed)
        for _ in 0..<1000 {
            let next = SHA256.hash(data: a + b + c).bytes
            (a, b, c) = (b, c, next)
        }
        return c == (try line.bytes(1))
    }

    /// `hmac ID EXPECT HASH KEY MESSAGE TAG`; a tag shorter than the hash is a truncated one.
    static func hmac(_ line: TableCase) throws(TableError) -> Bool {
        let key = SymmetricKey(data: try line.bytes(1)), message = try line.bytes(2), tag = try line.bytes(3)
        let full: [UInt8]
        switch try line.word(0) {
        case "sha256": full = HMAC<SHA256>.authenticationCode(for: message, using: key).bytes
        case "sha384": full = HMAC<SHA384>.authenticationCode(for: message, using: key).bytes
        case "sha512": full = HMAC<SHA512>.authenticationCode(for: message, using: key).bytes
        default: throw TableError(message: "case \(line.id): unknown hash")
        }
        return !tag.isEmpty && tag.count <= full.count && Array(full.prefix(tag.count)) == tag
    }

    /// `pbkdf2 ID EXPECT HASH PASSWORD SALT ITERATIONS KEY` (ACVP PBKDF; its file holds SHA2-224).
    static func pbkdf2(_ line: TableCase) throws(TableError) -> Bool {
        let password = try line.bytes(1), salt = try line.bytes(2), rounds = try line.number(3), expected = try line.bytes(4)
        guard rounds >= 1, rounds <= 10_000_000 else { throw TableError(message: "case \(line.id): iteration count out of range") }
        let key: SymmetricKey?
        switch try line.word(0) {
        case "sha224": key = try? PBKDF2<SHA224>.deriveKey(from: password, salt: salt, rounds: rounds, outputByteCount: expected.count)
        case "sha256": key = try? PBKDF2<SHA256>.deriveKey(from: password, salt: salt, rounds: rounds, outputByteCount: expected.count)
        case "sha512": key = try? PBKDF2<SHA512>.deriveKey(from: password, salt: salt, rounds: rounds, outputByteCount: expected.count)
        default: throw TableError(message: "case \(line.id): unknown hash")
        }
        return key.map(bytes(of:)) == expected
    }

    /// `x963 ID EXPECT HASH Z SHARED-INFO KEY` (CAVP ANS X9.63 KDF).
    static func x963(_ line: TableCase) throws(TableError) -> Bool {
        guard try line.word(0) == "sha256" else { throw TableError(message: "case \(line.id): unknown hash") }
        let z = try line.bytes(1), info = try line.bytes(2), expected = try line.bytes(3)
        do throws(CryptoError) {
            return bytes(of: try X963KDF<SHA256>.deriveKey(sharedSecret: z, sharedInfo: info, outputByteCount: expected.count)) == expected
        } catch {
            return false
        }
    }

    /// `aes-cbc ID EXPECT enc|dec KEY IV INPUT OUTPUT`: CBC without padding (CAVP AESAVS).
    static func aesCBC(_ line: TableCase) throws(TableError) -> Bool {
        let encrypt = try line.word(0) == "enc"
        let key = SymmetricKey(data: try line.bytes(1)), iv = try line.bytes(2), input = try line.bytes(3), output = try line.bytes(4)
        do throws(CryptoError) {
            let result = encrypt
                ? try AES.UnauthenticatedCBC.encrypt(input, using: key, iv: iv, padding: .none)
                : try AES.UnauthenticatedCBC.decrypt(input, using: key, iv: iv, padding: .none)
            return result == output
        } catch {
            return false
        }
    }

    /// `aes-cbc-pkcs7 ID EXPECT KEY IV MESSAGE CIPHERTEXT` (Wycheproof): the ciphertext decrypts
    /// to the message and, when it does, the message encrypts back to it.
    static func aesCBCPKCS7(_ line: TableCase) throws(TableError) -> Bool {
        let key = SymmetricKey(data: try line.bytes(0)), iv = try line.bytes(1), message = try line.bytes(2), ciphertext = try line.bytes(3)
        do throws(CryptoError) {
            guard try AES.UnauthenticatedCBC.decrypt(ciphertext, using: key, iv: iv) == message else { return false }
            return try AES.UnauthenticatedCBC.encrypt(message, using: key, iv: iv) == ciphertext
        } catch {
            return false
        }
    }

    /// `aes-ctr ID EXPECT KEY COUNTER-BLOCK INPUT OUTPUT` (SP 800-38A F.5, RFC 3686).
    static func aesCTR(_ line: TableCase) throws(TableError) -> Bool {
        let key = SymmetricKey(data: try line.bytes(0)), counter = try line.bytes(1), input = try line.bytes(2), output = try line.bytes(3)
        do throws(CryptoError) {
            return try AES.UnauthenticatedCTR.encrypt(input, using: key, counterBlock: counter) == output
        } catch {
            return false
        }
    }

    /// The key's bytes (test keys only: they are not secrets here).
    static func bytes(of key: SymmetricKey) -> [UInt8] {
        key.withUnsafeBytes { Array($0) }
    }
}
