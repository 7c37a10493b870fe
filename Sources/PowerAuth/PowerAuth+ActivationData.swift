// The result of an activation and what the client persists (docs/protocols/powerauth.md §5.4): our own
// versioned JSON format, holding only what §5.4 lists, with the factor keys locked (§4.2) and
// the device private key and recovery data sealed under the vault key. Keep it in protected
// storage all the same: CTR_DATA sits in it as the SDK keeps it.

public import CryptoPrimitives
public import ProtocolSupport

extension PowerAuth {
    /// Recovery code and PUK delivered with an activation (§3.3). The PUK is a secret.
    public struct RecoveryData: Sendable, Equatable {
        /// The recovery code, without `R:`.
        public let recoveryCode: String
        /// The 10-digit PUK.
        public let puk: SecretBytes

        /// The sealed form, `{"recoveryCode":"…","puk":"DDDDDDDDDD"}`, written byte by byte so
        /// that the PUK never passes through a `String` (which cannot be wiped).
        static func sealedPlaintext(_ recovery: RecoveryData) -> [UInt8] {
            var plain = Array(#"{"recoveryCode":"#.utf8) + JSONText.string(recovery.recoveryCode).bytes + Array(pukPrefix.utf8)
            recovery.puk.withUnsafeBytes { plain += $0 }
            plain += Array(pukSuffix.utf8)
            return plain
        }

        /// Reads ``sealedPlaintext(_:)``: the code from the JSON, the PUK from its fixed place at
        /// the end (ten digits between the markers). Throws ``ProtocolError/Code/malformedInput``.
        static func unsealed(_ plain: [UInt8]) throws(ProtocolError) -> RecoveryData {
            struct Wire: Decodable { let recoveryCode: String }
            let wire = try JSONResponse.decode(Wire.self, from: plain, what: "recovery data")
            let prefix = Array(pukPrefix.utf8), suffix = Array(pukSuffix.utf8)
            let pukStart = plain.count - suffix.count - 10
            guard pukStart >= prefix.count, plain[(pukStart - prefix.count)..<pukStart].elementsEqual(prefix),
                  plain[(pukStart + 10)...].elementsEqual(suffix) else { throw ProtocolError(.malformedInput, "recovery data") }
            let puk = SecretBytes(plain[pukStart..<(pukStart + 10)])
            guard PowerAuth.isValidPUK(puk) else { throw ProtocolError(.malformedInput, "recovery data") }
            return RecoveryData(recoveryCode: wire.recoveryCode, puk: puk)
        }

        private static let pukPrefix = #","puk":""#
        private static let pukSuffix = #""}"#
    }

    /// A successfully processed activation response, before it is persisted (§5.1 step 8).
    public struct ActivationResult: Sendable {
        /// The activation id.
        public let activationID: String
        /// KEY_SERVER_PUBLIC exactly as received.
        public let serverPublicKey: [UInt8]
        let devicePrivateKey: P256.KeyAgreement.PrivateKey
        /// The initial CTR_DATA.
        public let counter: CounterData
        /// Recovery data, when the server issued it.
        public let recovery: RecoveryData?
        let keys: ActivationKeys
        /// The 8-digit fingerprint to show for MITM checking (§5.3).
        public let fingerprint: String

        /// Derives, locks and seals everything for storage (§5.1 step 10): a fresh 16-byte PBKDF2
        /// salt for the knowledge key, possession and transport keys under `possessionUnlockKey`,
        /// the biometry key under `biometryUnlockKey` when given, both of those once more under
        /// `externalEncryptionKey` when given (§4.2), the device private key and the recovery data
        /// under the vault key (AES-CBC-PKCS7, zero IV).
        public func persist(password: SecretBytes, possessionUnlockKey: SymmetricKey, biometryUnlockKey: SymmetricKey? = nil,
                            externalEncryptionKey: SymmetricKey? = nil, version: ProtocolVersion = .v3_3,
                            using random: inout some RandomSource) throws(ProtocolError) -> ActivationData {
            let salt = try ProtocolError.converting("salt") { () throws(CryptoError) in try random.bytes(count: 16) }
            let knowledgeUnlock = try KeyLocking.passwordUnlockKey(password: password, salt: salt)
            let zero = [UInt8](repeating: 0, count: 16)
            // The whole 32-byte scalar is sealed (the mobile SDK stores the minimal big-endian
            // form; trimming its leading zeros would branch on the secret). Reading accepts both.
            let sealedKey = try ProtocolError.converting("sealing the device key") { () throws(CryptoError) in
                try devicePrivateKey.rawRepresentation.withUnsafeBytes { scalar throws(CryptoError) in
                    try AES.UnauthenticatedCBC.encrypt(scalar, using: keys.vault, iv: zero)
                }
            }
            let sealedRecovery = try recovery.map { (recovery: RecoveryData) throws(ProtocolError) in
                var plain = RecoveryData.sealedPlaintext(recovery)
                defer { SecretBytes.wipe(&plain) }
                return try ProtocolError.converting("sealing the recovery data") { () throws(CryptoError) in
                    try AES.UnauthenticatedCBC.encrypt(plain, using: keys.vault, iv: zero)
                }
            }
            let plain = ActivationData(
                activationID: activationID, protocolVersion: version, serverPublicKey: serverPublicKey,
                devicePublicKey: devicePrivateKey.publicKey.compressedRepresentation, counter: counter, counterByte: 0,
                passwordSalt: salt, passwordIterations: KeyLocking.passwordIterations,
                lockedPossessionKey: try KeyLocking.lock(keys.possession, with: possessionUnlockKey),
                lockedKnowledgeKey: try KeyLocking.lock(keys.knowledge, with: knowledgeUnlock),
                lockedBiometryKey: try biometryUnlockKey.map { (key: SymmetricKey) throws(ProtocolError) in try KeyLocking.lock(keys.biometry, with: key) },
                lockedTransportKey: try KeyLocking.lock(keys.transport, with: possessionUnlockKey),
                sealedDevicePrivateKey: sealedKey, sealedRecoveryData: sealedRecovery)
            guard let externalEncryptionKey else { return plain }
            return try plain.addingExternalEncryptionKey(externalEncryptionKey)
        }
    }

    /// The persisted activation (docs/protocols/powerauth.md §5.4); portable as our JSON format version 1
    /// (the SDK's store keeps it as a sealed record instead, secrets apart from the JSON):
    /// `{"format":1,"activationId","protocolVersion","serverPublicKey","devicePublicKey",
    /// "ctrData","ctrByte","salt","iterations","possessionKey","knowledgeKey"[,"biometryKey"],
    /// "transportKey","devicePrivateKey"[,"recoveryData"][,"externalEncryptionKey":true]}`, bytes
    /// as standard Base64; the last member appears only when an EEK layer is present.
    /// Not stored, by design: the master secret, the vault key, the password.
    public struct ActivationData: Sendable {
        /// The activation id the server assigned.
        public let activationID: String
        /// The protocol version this activation signs and encrypts with.
        public let protocolVersion: ProtocolVersion
        /// KEY_SERVER_PUBLIC exactly as received.
        public let serverPublicKey: [UInt8]
        /// KEY_DEVICE_PUBLIC, compressed SEC 1.
        public let devicePublicKey: [UInt8]
        /// CTR_DATA after the last signature.
        public internal(set) var counter: CounterData
        /// The counter byte (mod 256) after the last signature.
        public internal(set) var counterByte: UInt8
        /// The 16-byte PBKDF2 salt of the knowledge key, new on every password change.
        public internal(set) var passwordSalt: [UInt8]
        /// The PBKDF2 iteration count (10 000).
        public let passwordIterations: Int
        /// The possession key under the possession unlock key.
        public let lockedPossessionKey: [UInt8]
        /// Under the password key, then under the external encryption key when one is used.
        public internal(set) var lockedKnowledgeKey: [UInt8]
        /// Under the biometry unlock key, then under the external encryption key when one is used.
        public internal(set) var lockedBiometryKey: [UInt8]?
        /// KEY_TRANSPORT under the possession unlock key.
        public let lockedTransportKey: [UInt8]
        /// The device private key, AES-CBC-PKCS7 under the vault key.
        public let sealedDevicePrivateKey: [UInt8]
        /// The recovery code and PUK, AES-CBC-PKCS7 under the vault key, when issued.
        public let sealedRecoveryData: [UInt8]?
        /// Whether the knowledge and biometry keys carry the external-encryption-key layer (§4.2).
        public internal(set) var usesExternalEncryptionKey = false

        /// The same data with the counter advanced one step (§7.1); persist it before the
        /// signed request leaves.
        public var advanced: ActivationData { withCounter(counter.next, byte: counterByte &+ 1) }

        /// The same data with another counter (status synchronisation, §6.4).
        public func withCounter(_ counter: CounterData, byte: UInt8) -> ActivationData {
            var copy = self
            copy.counter = counter
            copy.counterByte = byte
            return copy
        }
    }
}
