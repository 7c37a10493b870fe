// Key derivation (docs/protocols/powerauth.md §1, §4.1): the AES KDF for numbered keys, KDF_INTERNAL (HMAC
// folded to 16 bytes), the master secret fold16(ECDH) and the five keys derived from it.

public import CryptoPrimitives

extension PowerAuth {
    /// PowerAuth's two key-derivation functions.
    public enum KeyDerivation {
        /// KDF (docs/protocols/powerauth.md §1): AES-128-ECB of `0x00×8 ‖ BE64(index)` under `key`. The index sits
        /// in the last 8 bytes (the vectors prove it; one doc page says otherwise).
        ///
        /// Every PowerAuth key is 16 bytes; `key` of another length is a programming error and
        /// traps (it never derives an empty or default key).
        public static func derive(_ key: SymmetricKey, index: UInt64) -> SymmetricKey {
            precondition(key.byteCount == 16, "PowerAuth KDF needs a 16-byte key, got \(key.byteCount)")
            var block = [UInt8](repeating: 0, count: 16)
            for i in 0..<8 { block[15 - i] = UInt8(truncatingIfNeeded: index >> (8 * UInt64(i))) }
            var out: [UInt8]
            do {
                out = try AES.encryptBlock(block, using: key)
            } catch {
                preconditionFailure("internal error: AES refused a 16-byte key and block: \(error)")
            }
            defer { SecretBytes.wipe(&out) }
            return SymmetricKey(data: out)
        }

        /// KDF_INTERNAL (docs/protocols/powerauth.md §1): fold16(HMAC-SHA256(key, index)); `key` is the HMAC key.
        public static func deriveInternal(_ key: SymmetricKey, index: some Sequence<UInt8>) -> SymmetricKey {
            var mac = HMAC<SHA256>.authenticationCode(for: index, using: key).bytes
            defer { SecretBytes.wipe(&mac) }
            var folded = PowerAuth.fold16(mac)
            defer { SecretBytes.wipe(&folded) }
            return SymmetricKey(data: folded)
        }

        /// KEY_MASTER_SECRET = fold16(ECDH(device private, server public)) (docs/protocols/powerauth.md §4.1).
        public static func masterSecret(devicePrivateKey: P256.KeyAgreement.PrivateKey,
                                        serverPublicKey: P256.KeyAgreement.PublicKey) throws(CryptoError) -> SymmetricKey {
            let shared = try devicePrivateKey.sharedSecretFromKeyAgreement(with: serverPublicKey)
            // fold16 straight from the wiped storage into the wiped storage of the key.
            return SymmetricKey(secret: shared.secret.withUnsafeBytes { x in
                SecretBytes(count: 16) { out in
                    for i in 0..<16 { out[i] = x[i] ^ x[i + 16] }
                }
            })
        }
    }

    /// The keys derived from the master secret (docs/protocols/powerauth.md §4.1).
    public struct ActivationKeys: Sendable {
        /// KEY_SIGNATURE_POSSESSION = KDF(master, 1).
        public let possession: SymmetricKey
        /// KEY_SIGNATURE_KNOWLEDGE = KDF(master, 2).
        public let knowledge: SymmetricKey
        /// KEY_SIGNATURE_BIOMETRY = KDF(master, 3).
        public let biometry: SymmetricKey
        /// KEY_TRANSPORT = KDF(master, 1000).
        public let transport: SymmetricKey
        /// KEY_ENCRYPTION_VAULT = KDF(master, 2000); never stored by the client.
        public let vault: SymmetricKey

        /// Derives all five from `masterSecret`.
        public init(masterSecret: SymmetricKey) {
            possession = KeyDerivation.derive(masterSecret, index: 1)
            knowledge = KeyDerivation.derive(masterSecret, index: 2)
            biometry = KeyDerivation.derive(masterSecret, index: 3)
            transport = KeyDerivation.derive(masterSecret, index: 1000)
            vault = KeyDerivation.derive(masterSecret, index: 2000)
        }
    }
}
