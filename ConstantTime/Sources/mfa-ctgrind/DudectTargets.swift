// The operations dudect times, the same list the memcheck run covers (Checks.swift). Class 0 is
// one fixed secret; class 1 a fresh random secret per sample; everything public stays fixed.
import CryptoPrimitives
import MPin
import PowerAuth
import SaltEdge

extension TimingTarget {
    /// The secret bytes for each sample: `fixed` for class 0, random bytes (passed through
    /// `shape`) for class 1. Both classes are allocated and filled by the same code in the same
    /// interleaved order, so only the contents differ — not the allocation path or addresses
    /// (an earlier version built the classes differently and measured that instead: |t| up to
    /// 125 on AES-CBC that came and went with ASLR).
    static func secrets(_ classes: [Bool], fixed: [UInt8], random: inout SeededRandomSource,
                        shape: (UInt8) -> UInt8 = { $0 }) throws -> [[UInt8]] {
        try classes.map { isRandom in
            var bytes = [UInt8](repeating: 0, count: fixed.count)
            try random.fill(&bytes)
            for index in bytes.indices { bytes[index] = isRandom ? shape(bytes[index]) : fixed[index] }
            return bytes
        }
    }

    static let all: [TimingTarget] = [
        TimingTarget(name: "aes-block", samples: 200_000) { classes, random in
            let keys = try secrets(classes, fixed: [UInt8](repeating: 0x2B, count: 16), random: &random).map { SymmetricKey(data: $0) }
            let block = [UInt8](repeating: 0xA5, count: 16)
            return { fold(try AES.encryptBlock(block, using: keys[$0])) }
        },
        TimingTarget(name: "aes-cbc-ctr", samples: 100_000) { classes, random in
            let keys = try secrets(classes, fixed: [UInt8](repeating: 0x11, count: 32), random: &random).map { SymmetricKey(data: $0) }
            let plaintexts = try secrets(classes, fixed: [UInt8](repeating: 0, count: 48), random: &random)
            let iv = [UInt8](repeating: 0x24, count: 16)
            return { index in
                fold(try AES.UnauthenticatedCBC.encrypt(plaintexts[index], using: keys[index], iv: iv))
                    &+ fold(try AES.UnauthenticatedCTR.encrypt(plaintexts[index], using: keys[index], counterBlock: iv))
            }
        },
        TimingTarget(name: "hmac-verify", samples: 100_000) { classes, random in
            let key = SymmetricKey(data: [UInt8](repeating: 0x0B, count: 32))
            let message = Array("what do ya want for nothing?".utf8)
            let valid = Array(HMAC<SHA256>.authenticationCode(for: message, using: key))
            let tags = try secrets(classes, fixed: valid, random: &random)  // a right tag against wrong ones
            return { HMAC<SHA256>.isValidAuthenticationCode(tags[$0], authenticating: message, using: key) ? 1 : 0 }
        },
        TimingTarget(name: "secret-compare", samples: 200_000) { classes, random in
            let reference = SecretBytes([UInt8](repeating: 0x5C, count: 32))
            let others = try secrets(classes, fixed: [UInt8](repeating: 0x5C, count: 32), random: &random).map { SecretBytes($0) }  // equal against unequal
            return { others[$0] == reference ? 1 : 0 }
        },
        TimingTarget(name: "decode-hex-base64", samples: 100_000) { classes, random in
            let fixed = [UInt8](repeating: 0x00, count: 32)
            let texts = try secrets(classes, fixed: fixed, random: &random).map { (Hex.encode($0), Base64.encode($0)) }
            return { fold(try Hex.decode(texts[$0].0)) &+ fold(try Base64.decode(texts[$0].1)) }
        },
        TimingTarget(name: "p256-sign", samples: 4_000) { classes, random in
            let keys = try secrets(classes, fixed: (1...32).map { UInt8($0) }, random: &random).map { try P256.Signing.PrivateKey(rawRepresentation: $0) }
            let message = Array("message".utf8)
            return { fold(try keys[$0].signature(for: message).rawRepresentation) }
        },
        TimingTarget(name: "p256-ecdh", samples: 4_000) { classes, random in
            let keys = try secrets(classes, fixed: (1...32).map { UInt8($0) }, random: &random).map { try P256.KeyAgreement.PrivateKey(rawRepresentation: $0) }
            let peer = try P256.KeyAgreement.PrivateKey(rawRepresentation: (2...33).map { UInt8($0) }).publicKey
            return { index in try keys[index].sharedSecretFromKeyAgreement(with: peer).secret.withUnsafeBytes { fold($0) } }
        },
        TimingTarget(name: "bn254-g1-multiply", samples: 2_000) { classes, random in
            let scalars = try secrets(classes, fixed: (1...32).map { UInt8($0) }, random: &random).map { BN254CX.Scalar(reducing: $0) }
            return { fold(BN254CX.G1.generator.multiplied(by: scalars[$0]).uncompressedRepresentation) }
        },
        TimingTarget(name: "rsa-decrypt-implicit", samples: 1_500) { classes, random in
            // A valid ciphertext against random ones (almost all badly padded): implicit rejection
            // must take the same time either way (the Bleichenbacher / Marvin test).
            let key = try RSA.Encryption.PrivateKey(derRepresentation: Secret.rsaDER)
            var seeded = SeededRandomSource(seed: 9)
            let valid = try key.publicKey.encrypt(Array("sixteen byte key".utf8), padding: .insecurePKCS1v1_5, using: &seeded)
            let ciphertexts = try secrets(classes, fixed: valid, random: &random).map { [0x00] + $0.dropFirst() }
            return { index in try key.decryptWithImplicitRejection(ciphertexts[index], messageByteCount: 16).withUnsafeBytes { fold($0) } }
        },
        TimingTarget(name: "saltedge-bundle", samples: 1_000) { classes, random in
            let key = try RSA.Encryption.PrivateKey(derRepresentation: Secret.rsaDER)
            let plaintext = Array("{\"id\":\"1\",\"title\":\"pay\"}".utf8)
            // Both classes encrypt anew; class 0 from the same seed each time, so its key, IV and
            // ciphertext are one fixed value.
            let bundles = try classes.map { isRandom in
                var fixed = SeededRandomSource(seed: 4)
                return isRandom ? try SaltEdge.EncryptedBundle.encrypt(plaintext, to: key.publicKey, using: &random)
                                : try SaltEdge.EncryptedBundle.encrypt(plaintext, to: key.publicKey, using: &fixed)
            }
            return { fold(try bundles[$0].decrypt(with: key)) }
        },
        TimingTarget(name: "mpin-first-pass", samples: 1_000) { classes, random in
            let identity = MPin.Identity(Array("alice@example.com".utf8))
            let master = try MPin.MasterSecretShare.random(using: &random)
            let clientSecret = MPin.Issuer.combine([MPin.Issuer.clientSecretShare(master, for: identity)])
            let pins = try secrets(classes, fixed: [0x04, 0xD2], random: &random).map { UInt32($0[0]) << 8 | UInt32($0[1]) }.map { $0 % 10_000 }  // 1234
            // The token is extracted with the fixed PIN; a random PIN is a wrong PIN attempt.
            let token = MPin.Client.extractPIN(MPin.PIN(1234), identity: identity, clientSecret: clientSecret)
            var seeded = SeededRandomSource(seed: 6)
            return { index in
                let first = try MPin.Client.firstPass(identity: identity, pin: MPin.PIN(pins[index]), token: token, using: &seeded)
                return fold(first.u.uncompressedRepresentation)
            }
        },
        TimingTarget(name: "powerauth-signature", samples: 20_000) { classes, random in
            let fixed = [UInt8](repeating: 0x44, count: 16)
            let possession = try secrets(classes, fixed: fixed, random: &random)
            let knowledge = try secrets(classes, fixed: fixed, random: &random)
            let counter = try PowerAuth.CounterData(rawRepresentation: [UInt8](repeating: 0x55, count: 16))
            let data = Array("POST&/pa/signature/validate&nonce&body".utf8)
            return { index in
                let keys = PowerAuth.SignatureKeys(possession: SymmetricKey(data: possession[index]), knowledge: SymmetricKey(data: knowledge[index]))
                var text = try PowerAuth.Signature.compute(data: data, counter: counter, factors: .possessionKnowledge, keys: keys, format: .base64)
                return text.withUTF8 { fold($0) }
            }
        },
        TimingTarget(name: "canary-early-exit", samples: 20_000) { classes, random in
            // The deliberate leak: Array's == stops at the first differing byte. It must read
            // as a leak, or the measurement cannot see one.
            let reference = [UInt8](repeating: 0x5C, count: 4096)
            let others = try secrets(classes, fixed: reference, random: &random)
            return { others[$0] == reference ? 1 : 0 }
        },
        TimingTarget(name: "puk-check", samples: 200_000) { classes, random in
            let puks = try secrets(classes, fixed: Array("0123456789".utf8), random: &random) { 0x2C &+ $0 % 16 }.map { SecretBytes($0) }  // digits and not
            return { PowerAuth.isValidPUK(puks[$0]) ? 1 : 0 }
        },
    ]
}
