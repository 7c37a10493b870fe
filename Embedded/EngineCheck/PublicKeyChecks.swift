// The P-256, RSA, BN254CX pairing and M-Pin cases of the table. Each returns whether the
// operation succeeded and gave the recorded output (or the signature verified); the caller
// compares that with the case's expectation. M-Pin replays Milagro's two files from the
// master-secret shares (mpin/README.md in ../shared/vectors).

import CryptoPrimitives
import MPin

/// The RSA key the following cases use (a `key` line).
struct TableKeys {
    /// From the last `key rsa-private` line of the suite (PKCS #8 DER).
    var rsaPrivate: RSA.Encryption.PrivateKey?
    /// From the last `key rsa-public` line of the suite (SubjectPublicKeyInfo DER).
    var rsaPublic: RSA.Signing.PublicKey?

    /// Reads `key KIND HEX`. The suites' keys are all well-formed, so a key the engine refuses
    /// stops the run: the invalid cases under it must not pass for want of a key.
    mutating func set(_ tokens: [[UInt8]]) throws(TableError) {
        let line = try TableCase([[0x6b, 0x65, 0x79], [0x6b, 0x65, 0x79], [0x76]] + tokens.dropFirst())
        let der = try line.bytes(1)
        switch try line.word(0) {
        case "rsa-private":
            do throws(CryptoError) { rsaPrivate = try RSA.Encryption.PrivateKey(derRepresentation: der) } catch {
                throw TableError(message: "an RSA private key of the table is refused")
            }
        case "rsa-public":
            do throws(CryptoError) { rsaPublic = try RSA.Signing.PublicKey(derRepresentation: der) } catch {
                throw TableError(message: "an RSA public key of the table is refused")
            }
        default:
            throw TableError(message: "a key line names an unknown kind")
        }
    }
}

/// The P-256 and RSA operations.
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

/// The BN254CX pairing and M-Pin operations.
enum PairingChecks {
    /// `pairing ID EXPECT A B P Q GT P-COMPRESSED`: P = a·G1, Q = b·G2, e(Q, P) = GT, and the
    /// compressed P decodes to P.
    static func pairing(_ line: TableCase) throws(TableError) -> Bool {
        let a = try scalar(line, 0), b = try scalar(line, 1)
        let pBytes = try line.bytes(2), qBytes = try line.bytes(3), gt = try line.bytes(4), compressed = try line.bytes(5)
        guard let p = try? BN254CX.G1(encoded: pBytes), let q = try? BN254CX.G2(encoded: qBytes),
              let fromCompressed = try? BN254CX.G1(encoded: compressed) else { return false }
        return BN254CX.G1.generator.multiplied(by: a) == p && BN254CX.G2.generator.multiplied(by: b) == q
            && fromCompressed == p && BN254CX.pairing(q, p).rawRepresentation == gt
    }

    /// `mpin ID EXPECT ONE-PASS MPIN-ID HASH MS1 MS2 SS1 SS2 SERVER-SECRET CS1 CS2 CLIENT-SECRET
    /// DATE TP1 TP2 TIME-PERMIT PIN1 PIN2 TOKEN X U UT SEC Y V SERVER-OUTPUT TIME`: every value of
    /// one Milagro case (V is "-" in the one-pass file, whose SEC holds V; TIME is its TimeValue).
    static func mpin(_ line: TableCase) throws(TableError) -> Bool {
        let flag = try line.number(0)
        guard flag == 0 || flag == 1 else { throw TableError(message: "case \(line.id): ONE-PASS is neither 0 nor 1") }
        let onePass = flag == 1
        let identity = MPin.Identity(try line.bytes(1))
        guard identity.hash == (try line.bytes(2)) else { return false }
        let shares = [MPin.MasterSecretShare(try scalar(line, 3)), MPin.MasterSecretShare(try scalar(line, 4))]
        let serverShares = shares.map(MPin.Issuer.serverSecret)
        let serverSecret = MPin.Issuer.combine(serverShares)
        guard serverShares[0].rawRepresentation.unsafeExposedBytes == (try line.bytes(5)),
              serverShares[1].rawRepresentation.unsafeExposedBytes == (try line.bytes(6)),
              serverSecret.rawRepresentation.unsafeExposedBytes == (try line.bytes(7)) else { return false }
        let clientShares = shares.map { MPin.Issuer.clientSecretShare($0, for: identity) }
        let clientSecret = MPin.Issuer.combine(clientShares)
        guard try same(clientShares[0], line, 8), try same(clientShares[1], line, 9), try same(clientSecret, line, 10) else { return false }
        let day = try line.number(11), pin1 = try line.number(15), pin2 = try line.number(16)
        guard day >= 0, Int64(day) <= Int64(UInt32.max), pin1 >= 0, pin1 <= 999_999, pin2 >= 0, pin2 <= 999_999 else {
            throw TableError(message: "case \(line.id): DATE or a PIN out of range")
        }
        let permits = shares.map { MPin.Issuer.timePermit($0, for: identity, day: UInt32(day)) }
        let permit = MPin.Issuer.combine(permits)
        guard try same(permits[0], line, 12), try same(permits[1], line, 13), try same(permit, line, 14) else { return false }
        let token = MPin.Client.extractPIN(MPin.PIN(UInt32(pin1)), identity: identity, clientSecret: clientSecret)
        guard try same(token, line, 17) else { return false }

        let x = try scalar(line, 18)
        let dated = MPin.Client.DatedPermit(permit, day: UInt32(day))
        let first: MPin.Client.FirstPass, v: BN254CX.G1, y: BN254CX.Scalar
        if onePass {
            let time = try line.number(25)
            guard time >= 0, Int64(time) <= Int64(Int32.max) else { throw TableError(message: "case \(line.id): TimeValue out of range") }
            let pass = MPin.Client.onePass(identity: identity, pin: MPin.PIN(UInt32(pin2)), token: token, permit: dated, time: Int32(time), x: x)
            (first, v, y) = (pass.first, pass.v, pass.challenge)
            guard y == (try scalar(line, 22)), v.uncompressedRepresentation == (try line.bytes(21)) else { return false }
        } else {
            first = MPin.Client.firstPass(identity: identity, pin: MPin.PIN(UInt32(pin2)), token: token, permit: dated, x: x)
            guard try same(first.authenticationSecret, line, 21) else { return false }
            y = try scalar(line, 22)
            v = MPin.Client.secondPass(first, challenge: y)
            guard v.uncompressedRepresentation == (try line.bytes(23)) else { return false }
        }
        guard first.u.uncompressedRepresentation == (try line.bytes(19)), first.ut?.uncompressedRepresentation == (try line.bytes(20)) else {
            return false
        }
        let result = MPin.Server.verify(identity: identity, day: UInt32(day), challenge: y, client: .init(u: first.u, ut: first.ut, v: v),
                                        serverSecret: serverSecret)
        return (result == .accepted ? 0 : MPin.badPINCode) == (try line.number(24))
    }

    /// A scalar given as up to 32 bytes of hex (Milagro drops leading zeros).
    private static func scalar(_ line: TableCase, _ index: Int) throws(TableError) -> BN254CX.Scalar {
        let raw = try line.bytes(index)
        guard raw.count <= 32, let value = try? BN254CX.Scalar(rawRepresentation: [UInt8](repeating: 0, count: 32 - raw.count) + raw) else {
            throw TableError(message: "case \(line.id): field \(index) is not a scalar")
        }
        return value
    }

    private static func same(_ value: some MPinSecretPoint, _ line: TableCase, _ index: Int) throws(TableError) -> Bool {
        value.rawRepresentation.unsafeExposedBytes == (try line.bytes(index))
    }
}
