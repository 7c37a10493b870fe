// The operations the secret-tracking run covers (AES, CBC/CTR, AES-GCM and ChaCha20-Poly1305
// with their GHASH, Poly1305 and tag checks, X25519 and P-384 ECDH, HMAC verify, P-256
// sign / ECDH / scalar multiplication, RSA decryption and signing, the Salt Edge bundle, BN254CX
// multiplications and the M-Pin client passes, PowerAuth key unlock and signatures, PUK and MAC
// comparisons, Base64 and hex decoding and encoding of secrets, a secret query value's
// percent-encoding). Each marks its secrets, runs, and publishes
// its results.
import CryptoPrimitives
import MPin
import PowerAuth
import ProtocolSupport
import SaltEdge

struct Check: Sendable {
    let name: String
    let run: @Sendable () throws -> Void
}

extension Check {
    static let all: [Check] = symmetric + aead + curves + tlsCurves + rsa + protocols + [canary]

    static let symmetric: [Check] = [
        Check(name: "aes-block") {
            for size in [16, 32] {
                let key = SymmetricKey(data: Secret.bytes((0..<size).map { UInt8($0 &* 7) }))
                let block = Secret.bytes([UInt8](repeating: 0xA5, count: 16))
                Secret.publish(try AES.encryptBlock(block, using: key))
                Secret.publish(try AES.decryptBlock(block, using: key))
            }
        },
        Check(name: "aes-cbc-ctr") {
            let key = SymmetricKey(data: Secret.bytes([UInt8](repeating: 0x11, count: 16)))
            let iv = [UInt8](repeating: 0x24, count: 16)
            let plaintext = Secret.bytes(Array("attack at dawn, attack at dusk!".utf8))
            let ciphertext = try AES.UnauthenticatedCBC.encrypt(plaintext, using: key, iv: iv)
            Secret.publish(ciphertext)
            // Decryption of a public ciphertext under a secret key: the padding check runs on
            // secret plaintext; only valid/invalid is published (the one error).
            let decrypted = Result { try AES.UnauthenticatedCBC.decrypt(ciphertext, using: key, iv: iv) }
            if case .success(let bytes) = decrypted { Secret.publish(bytes) }
            Secret.publish(try AES.UnauthenticatedCTR.encrypt(plaintext, using: key, counterBlock: iv))
            // 8 KiB: the cached first round (a table made from the key, read at the public
            // counter's last byte) and, where a chunk straddles a last-byte carry, the plain path.
            let long = Secret.bytes([UInt8](repeating: 0x5A, count: 8192))
            Secret.publish(try AES.UnauthenticatedCTR.encrypt(long, using: key, counterBlock: [UInt8](repeating: 0x24, count: 15) + [0xF3]))
        },
        Check(name: "hmac-verify") {
            let key = SymmetricKey(data: Secret.bytes([UInt8](repeating: 0x0B, count: 32)))
            let message = Array("what do ya want for nothing?".utf8)
            let tag = [UInt8](repeating: 0x42, count: 32)
            Secret.publish(HMAC<SHA256>.isValidAuthenticationCode(tag, authenticating: message, using: key))
            Secret.publish(ConstantTimeComparison.isEqual(Secret.bytes(tag), Secret.bytes(tag.reversed())))
        },
        Check(name: "decode-secrets") {
            let hex = String(decoding: Array("00ff10ab".utf8), as: UTF8.self)
            let base64 = String(decoding: Array("AAECAwQFBgc=".utf8), as: UTF8.self)
            // The strings' bytes are marked after the String exists (the standard library's
            // UTF-8 validation is not ours to check): their storage is what the decoders read.
            var secretHex = hex, secretBase64 = base64
            secretHex.withUTF8 { ct_secret($0) }
            secretBase64.withUTF8 { ct_secret($0) }
            Secret.publish(try Hex.decode(secretHex))
            Secret.publish(try Base64.decode(secretBase64))
        },
        Check(name: "encode-secrets") {
            // A credential on its way to the wire: the Base64url of a MAC (CM's bearer token) and
            // a query value written whole as %XX triples (M-Pin's regOTT).
            let mac = Secret.bytes((0..<32).map { UInt8(truncatingIfNeeded: $0 &* 37) })
            Secret.publish(Base64.encode(secret: SecretBytes(mac), alphabet: .urlSafe, padded: false))
            var query: [UInt8] = []
            query.reserveCapacity(3 * mac.count)
            mac.withUnsafeBytes { URLText.appendPercentEncodedSecret($0, to: &query) }
            Secret.publish(query)
        },
    ]

    static let curves: [Check] = [
        Check(name: "p256-sign-ecdh") {
            let d = Secret.bytes((1...32).map { UInt8($0) })
            let signing = try P256.Signing.PrivateKey(rawRepresentation: d)
            var random = SecretRandomSource()
            Secret.publish(try signing.signature(for: Array("message".utf8), randomness: &random).rawRepresentation)
            Secret.publish(try signing.signature(for: Array("message".utf8)).rawRepresentation)
            let agreement = try P256.KeyAgreement.PrivateKey(rawRepresentation: d)
            let peer = try P256.KeyAgreement.PrivateKey(rawRepresentation: (2...33).map { UInt8($0) }).publicKey
            Secret.publish(try agreement.sharedSecretFromKeyAgreement(with: peer).secret)
            // The ECIES sender's one call: a fresh ephemeral scalar (secret random bytes), its
            // fixed-base and variable-base multiplications sharing one inversion.
            let ephemeral = try P256.KeyAgreement.ephemeralAgreement(with: peer, using: &random)
            Secret.publish(ephemeral.publicKey.rawRepresentation)
            Secret.publish(ephemeral.sharedSecret.secret)
        },
        Check(name: "bn254-multiply") {
            let k = try BN254CX.Scalar(rawRepresentation: Secret.bytes((1...32).map { UInt8($0) }))
            Secret.publish(BN254CX.G1.generator.multiplied(by: k).uncompressedRepresentation)
            Secret.publish(BN254CX.G2.generator.multiplied(by: k).rawRepresentation)
            Secret.publish(BN254CX.pairing(.generator, .generator).power(k).rawRepresentation)
        },
    ]

    static let rsa: [Check] = [
        Check(name: "rsa-decrypt-sign") {
            let der = Secret.privateKeyDER(Secret.rsaDER, publicIntegers: 2)
            let encryption = try RSA.Encryption.PrivateKey(derRepresentation: der)
            var random = SeededRandomSource(seed: 3)
            for padding in [RSA.Encryption.Padding.oaepSHA256, .insecurePKCS1v1_5] {
                let ciphertext = try encryption.publicKey.encrypt(Array("sixteen byte key".utf8), padding: padding, using: &random)
                Secret.publish(try encryption.decrypt(ciphertext, padding: padding))
            }
            let ciphertext = try encryption.publicKey.encrypt(Array("sixteen byte key".utf8), padding: .insecurePKCS1v1_5, using: &random)
            Secret.publish(try encryption.decryptWithImplicitRejection(ciphertext, messageByteCount: 16))
            let signing = try RSA.Signing.PrivateKey(derRepresentation: der)
            Secret.publish(try signing.signature(for: Array("message".utf8), padding: .pkcs1v1_5).rawRepresentation)
        },
    ]

    static let protocols: [Check] = [
        Check(name: "saltedge-bundle") {
            let key = try RSA.Encryption.PrivateKey(derRepresentation: Secret.privateKeyDER(Secret.rsaDER, publicIntegers: 2))
            var random = SeededRandomSource(seed: 4)
            let bundle = try SaltEdge.EncryptedBundle.encrypt(Array("{\"id\":\"1\",\"title\":\"pay\"}".utf8), to: key.publicKey, using: &random)
            Secret.publish(try bundle.decrypt(with: key))
        },
        Check(name: "mpin-client") {
            var seeded = SeededRandomSource(seed: 5)
            let identity = MPin.Identity(Array("alice@example.com".utf8))
            let master = try MPin.MasterSecretShare.random(using: &seeded)
            let clientSecret = MPin.Issuer.combine([MPin.Issuer.clientSecretShare(master, for: identity)])
            let pin = MPin.PIN(Secret.value(UInt32(1234)))
            let token = MPin.Client.extractPIN(pin, identity: identity, clientSecret: clientSecret)
            var random = SecretRandomSource()
            let first = try MPin.Client.firstPass(identity: identity, pin: pin, token: token, using: &random)
            Secret.publish(first.u.uncompressedRepresentation)
            let y = MPin.challenge(time: 0, transcript: first.u.uncompressedRepresentation)
            Secret.publish(MPin.Client.secondPass(first, challenge: y).uncompressedRepresentation)
            let signature = try MPin.DVS.signature(for: MPin.DVS.documentHash(of: "contract"), time: 1_700_000_000, identity: identity,
                                                   pin: pin, token: token, using: &random)
            Secret.publish(signature.u.uncompressedRepresentation + signature.v.uncompressedRepresentation)
        },
        Check(name: "powerauth-keys-signature") {
            let unlockKey = SymmetricKey(data: Secret.bytes([UInt8](repeating: 0x33, count: 16)))
            let signatureKey = SymmetricKey(data: Secret.bytes([UInt8](repeating: 0x44, count: 16)))
            let locked = try PowerAuth.KeyLocking.lock(signatureKey, with: unlockKey)
            Secret.publish(locked)
            let unlocked = try PowerAuth.KeyLocking.unlock(locked, with: unlockKey)
            let password = SecretBytes(Secret.bytes(Array("1234".utf8)))
            let knowledge = try PowerAuth.KeyLocking.passwordUnlockKey(password: password, salt: [UInt8](repeating: 1, count: 16), iterations: 1000)
            let counter = try PowerAuth.CounterData(rawRepresentation: Secret.bytes([UInt8](repeating: 0x55, count: 16)))
            let keys = PowerAuth.SignatureKeys(possession: unlocked, knowledge: knowledge)
            for format in [PowerAuth.SignatureFormat.base64, .decimal(digits: 8)] {
                let signature = try PowerAuth.Signature.compute(data: Array("POST&/pa/signature/validate&nonce&body".utf8), counter: counter,
                                                                factors: .possessionKnowledge, keys: keys, format: format)
                var text = signature
                text.withUTF8 { Secret.publish(Array($0)) }
            }
            Secret.publish(PowerAuth.isValidPUK(SecretBytes(Secret.bytes(Array("0123456789".utf8)))))
        },
    ]
}

/// Marks a String's UTF-8 storage secret.
func ct_secret(_ buffer: UnsafeBufferPointer<UInt8>) {
    Secret.markSecret(UnsafeRawBufferPointer(buffer))
}
