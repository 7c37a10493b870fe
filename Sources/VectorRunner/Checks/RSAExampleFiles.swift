// The RSA Laboratories PKCS #1 examples and pyca's OAEP SHA-2 files (labelled hex): each key,
// then its encryptions (replayed through the public API with the recorded seed or padding,
// and decrypted) or signatures (made and verified).

import CryptoCore
import CryptoPrimitives
import VectorFormats

enum RSAExampleFiles {
    static func check(_ file: LabelledHexFile, _ log: inout CaseLog) {
        var section = ""
        var key: [String: [UInt8]] = [:]
        var message: [UInt8]?
        var seed: [UInt8]?
        var hashes = (label: HashChoice.sha1, mgf1: HashChoice.sha1)
        var signatureFile = false
        for (entry, line) in file.entries {
            switch entry {
            case .heading(let text):
                if text.hasPrefix("Public key") { section = "public" }
                if text.hasPrefix("Private key") { section = "private" }
                if text.contains("Signature Example") || text.contains("signing of") { signatureFile = true }
                if let algorithm = value(of: "alg", in: text), let mgf = value(of: "mgf1", in: text),
                   let hash = HashChoice(name: algorithm), let mgfHash = HashChoice(name: mgf) {
                    hashes = (hash, mgfHash)
                }
            case .value(let label, let bytes):
                switch (section, label) {
                case ("public", "Modulus"):
                    key = ["n": bytes]
                case ("public", "Exponent"), ("public", "Public exponent"), ("private", "Public exponent"):
                    key["e"] = bytes
                case ("private", "Exponent"), ("private", "Private exponent"):
                    key["d"] = bytes
                case ("private", "Prime 1"): key["p"] = bytes
                case ("private", "Prime 2"): key["q"] = bytes
                case ("private", "Prime exponent 1"): key["dP"] = bytes
                case ("private", "Prime exponent 2"): key["dQ"] = bytes
                case ("private", "Coefficient"): key["qInv"] = bytes
                case (_, let name) where name.hasPrefix("Message"):
                    message = bytes
                    seed = nil
                case (_, let name) where name.lowercased() == "seed":
                    seed = bytes
                case (_, "Encryption"), (_, "Ciphertext, the RSA encryption of EM"):
                    check(encryption: bytes, message: message, seed: seed, key: key, hashes: hashes, "line \(line)", &log)
                    message = nil
                case (_, "Signature") where signatureFile:
                    check(signature: bytes, message: message, key: key, "line \(line)", &log)
                    message = nil
                default:
                    continue
                }
            }
        }
    }

    /// `key=value` in a heading such as "OAEP Example 1 alg=sha1 mgf1=sha256".
    private static func value(of name: String, in heading: String) -> String? {
        heading.split(separator: " ").first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
    }

    private static func privateKey(_ key: [String: [UInt8]]) -> RSA.Encryption.PrivateKey? {
        guard let n = key["n"], let e = key["e"], let d = key["d"], let p = key["p"], let q = key["q"],
              let dP = key["dP"], let dQ = key["dQ"], let qInv = key["qInv"] else { return nil }
        return try? RSA.Encryption.PrivateKey(modulus: n, publicExponent: e, privateExponent: SecretBytes(d), prime1: SecretBytes(p),
                                              prime2: SecretBytes(q), exponent1: SecretBytes(dP), exponent2: SecretBytes(dQ),
                                              coefficient: SecretBytes(qInv))
    }

    /// Decrypts, and with a recorded seed or padding also re-encrypts to the same ciphertext.
    private static func check(encryption ciphertext: [UInt8], message: [UInt8]?, seed: [UInt8]?, key: [String: [UInt8]],
                              hashes: (label: HashChoice, mgf1: HashChoice), _ id: String, _ log: inout CaseLog) {
        guard let message, let privateKey = privateKey(key) else {
            log.fail(id, "", expected: "a key and a message", got: "missing or refused")
            return
        }
        // RSA Laboratories' v1.5 files give 'Seed' as the padding string; OAEP files as the OAEP seed.
        let isPKCS1 = seed.map { $0.count != hashes.label.algorithm.byteCount } ?? false
        let padding: RSA.Encryption.Padding = isPKCS1 ? .insecurePKCS1v1_5 : .oaep(hash: hashes.label.algorithm, mgf1Hash: hashes.mgf1.algorithm)
        let decrypted = try? privateKey.decrypt(ciphertext, padding: padding)
        guard decrypted == message else {
            log.fail(id, "decrypt", expected: hex(message), got: hex(decrypted ?? []))
            return
        }
        guard let seed else { return log.pass() }
        var replay = ReplayRandomSource(bytes: seed)
        let reencrypted = try? privateKey.publicKey.encrypt(message, padding: padding, using: &replay)
        log.expect(reencrypted, equals: ciphertext, id, "encrypt with the recorded seed")
    }

    /// PKCS #1 v1.5 with SHA-1 DigestInfo: the signature must verify and be reproduced.
    private static func check(signature: [UInt8], message: [UInt8]?, key: [String: [UInt8]], _ id: String, _ log: inout CaseLog) {
        guard let message, let privateKey = privateKey(key).map(RSA.Signing.PrivateKey.init(sameKeyAs:)) else {
            log.fail(id, "", expected: "a key and a message", got: "missing or refused")
            return
        }
        let digest = HashChoice.sha1.hash(message)
        let verifies = RSACheck.verify(privateKey.publicKey, signature, digest: digest, hash: .sha1, padding: .pkcs1v1_5)
        let made = RSACheck.signPKCS1Raw(privateKey, digest: digest, hash: .sha1)
        log.expect(verifies && made == signature, id, "SHA-1", expected: "verifies and is reproduced", got: "verifies \(verifies)")
    }
}
