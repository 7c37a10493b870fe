// Local protection of the factor keys (docs/protocols/powerauth.md §4.2), the vault (§12) and the signature
// header (§7.5). A wrong password silently unlocks a wrong key: no local password verifier,
// on purpose, so the password cannot be brute-forced offline.

public import CryptoPrimitives
public import ProtocolSupport

extension PowerAuth {
    /// Locking and unlocking of stored keys (docs/protocols/powerauth.md §4.2): AES-128-CBC, no padding, zero
    /// IV, one block, under an unlock key.
    public enum KeyLocking {
        /// The PBKDF2 iteration count the SDK uses for the knowledge key.
        public static let passwordIterations = 10_000
        /// The most PBKDF2 rounds a stored record may ask for: a tampered store must not make the
        /// device spend hours unlocking (100 times the standard count, ~1.5 s on this machine).
        public static let maximumPasswordIterations = 1_000_000
        /// The shortest password, in bytes, that may protect the knowledge key (docs/protocols/powerauth.md
        /// §4.2): shorter ones are refused when the key is locked or unlocked.
        public static let minimumPasswordLength = 4

        /// The knowledge key's unlock key: PBKDF2-HMAC-SHA1(password, salt16, iterations, 16 B).
        /// Throws `ProtocolError.Code.invalidArgument` for a salt that is not 16 bytes or a
        /// password shorter than 4 bytes (the core's minimum).
        public static func passwordUnlockKey(password: SecretBytes, salt: [UInt8], iterations: Int = passwordIterations) throws(ProtocolError) -> SymmetricKey {
            guard salt.count == 16, password.count >= minimumPasswordLength, iterations >= 1 else {
                throw ProtocolError(.invalidArgument, "PBKDF2 needs a 16-byte salt and a password of at least 4 bytes")
            }
            do {
                return try PBKDF2<Insecure.SHA1>.deriveKey(from: password, salt: salt, rounds: iterations, outputByteCount: 16)
            } catch {
                throw ProtocolError(.cryptoFailure, "PBKDF2 failed")
            }
        }

        /// `key` encrypted under `unlockKey` (16 bytes out). An all-zero unlock key is refused.
        public static func lock(_ key: SymmetricKey, with unlockKey: SymmetricKey) throws(ProtocolError) -> [UInt8] {
            guard key.byteCount == 16, unlockKey.byteCount == 16, !isAllZeroVartime(unlockKey) else {
                throw ProtocolError(.invalidArgument, "keys are 16 bytes and the unlock key is not all zero")
            }
            return try ProtocolError.converting("locking a key") { () throws(CryptoError) in
                try key.withUnsafeBytes { raw throws(CryptoError) in
                    try AES.UnauthenticatedCBC.encrypt(raw, using: unlockKey, iv: [UInt8](repeating: 0, count: 16), padding: .none)
                }
            }
        }

        /// Whether every byte of `key` is zero, read to the end with no branch on a byte.
        /// Vartime in its one output: the caller branches on the verdict (an all-zero unlock key
        /// is refused), which reveals only that bit.
        private static func isAllZeroVartime(_ key: SymmetricKey) -> Bool {
            key.withUnsafeBytes { bytes in bytes.reduce(UInt8(0)) { $0 | $1 } } == 0
        }

        /// The key inside `locked`. Any 16 bytes unlock to some key: a wrong unlock key is only
        /// detected by the server rejecting the signature (§4.2).
        public static func unlock(_ locked: [UInt8], with unlockKey: SymmetricKey) throws(ProtocolError) -> SymmetricKey {
            guard locked.count == 16, unlockKey.byteCount == 16 else { throw ProtocolError(.invalidArgument, "a locked key is one 16-byte block") }
            var raw = try ProtocolError.converting("unlocking a key") { () throws(CryptoError) in
                try AES.UnauthenticatedCBC.decrypt(locked, using: unlockKey, iv: [UInt8](repeating: 0, count: 16), padding: .none)
            }
            defer { SecretBytes.wipe(&raw) }
            return SymmetricKey(data: raw)
        }
    }

    /// The secure vault (docs/protocols/powerauth.md §12).
    public enum Vault {
        /// KEY_ENCRYPTION_VAULT = AES-CBC-PKCS7-Decrypt(KEY_TRANSPORT, zero IV, encrypted key),
        /// which must be 16 bytes; any failure is the one decryption error.
        public static func vaultKey(encryptedVaultEncryptionKey: [UInt8], transportKey: SymmetricKey) throws(ProtocolError) -> SymmetricKey {
            var raw = try ProtocolError.converting("vault key") { () throws(CryptoError) in
                try AES.UnauthenticatedCBC.decrypt(encryptedVaultEncryptionKey, using: transportKey, iv: [UInt8](repeating: 0, count: 16))
            }
            guard raw.count == 16 else {
                SecretBytes.wipe(&raw)
                throw .decryptionFailure()
            }
            defer { SecretBytes.wipe(&raw) }
            return SymmetricKey(data: raw)
        }

        /// fetchEncryptionKey(index) = KDF(KEY_ENCRYPTION_VAULT, index) (§12).
        public static func encryptionKey(vaultKey: SymmetricKey, index: UInt64) -> SymmetricKey {
            KeyDerivation.derive(vaultKey, index: index)
        }

        /// The device private key from `cDevicePrivateKey` (AES-CBC-PKCS7, zero IV, under the
        /// vault key; §5.4, §12). Any failure is the one decryption error.
        public static func devicePrivateKey(_ encrypted: [UInt8], vaultKey: SymmetricKey) throws(ProtocolError) -> P256.Signing.PrivateKey {
            var raw = try ProtocolError.converting("device private key") { () throws(CryptoError) in
                try AES.UnauthenticatedCBC.decrypt(encrypted, using: vaultKey, iv: [UInt8](repeating: 0, count: 16))
            }
            defer { SecretBytes.wipe(&raw) }
            // The SDK stores the minimal big-endian scalar (Java BigInteger, 1…33 bytes); we store
            // all 32. Any unreadable scalar is the one decryption error, like a bad pad.
            do {
                return try P256.Signing.PrivateKey(rawRepresentation: raw)
            } catch {
                throw .decryptionFailure()
            }
        }
    }
}
