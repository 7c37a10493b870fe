// Local changes to a persisted activation (docs/protocols/powerauth.md §4.2, §12, §13): password change with a
// fresh salt, adding and removing the biometry factor, and what the unlocked vault gives —
// the device private key (for device signatures) and the recovery data.

public import CryptoPrimitives
public import ProtocolSupport

extension PowerAuth.ActivationData {
    /// Re-locks the knowledge key under `newPassword` with a fresh salt (§13). The SDK first
    /// proves the old password online (`/pa/v3/signature/validate`, reason `VALIDATE_PASSWORD`);
    /// without that, a wrong old password silently corrupts the knowledge key — do it first.
    /// The external encryption key, if this activation uses one, is needed and kept.
    public func changingPassword(from oldPassword: SecretBytes, to newPassword: SecretBytes, externalEncryptionKey: SymmetricKey? = nil,
                                 using random: inout some RandomSource) throws(ProtocolError) -> PowerAuth.ActivationData {
        let external = try externalLayerKey(externalEncryptionKey)
        let oldUnlock = try PowerAuth.KeyLocking.passwordUnlockKey(password: oldPassword, salt: passwordSalt, iterations: passwordIterations)
        let knowledge = try PowerAuth.KeyLocking.unlock(try lockedKnowledgeKey(externalKey: external), with: oldUnlock)
        let salt = try ProtocolError.converting("salt") { () throws(CryptoError) in try random.bytes(count: 16) }
        let newUnlock = try PowerAuth.KeyLocking.passwordUnlockKey(password: newPassword, salt: salt, iterations: passwordIterations)
        var copy = self
        copy.passwordSalt = salt
        copy.lockedKnowledgeKey = try PowerAuth.KeyLocking.addExternalLayer(try PowerAuth.KeyLocking.lock(knowledge, with: newUnlock), externalKey: external)
        return copy
    }

    /// The device private key, unsealed with the vault key from a vault unlock (§12).
    public func devicePrivateKey(vaultKey: SymmetricKey) throws(ProtocolError) -> P256.Signing.PrivateKey {
        try PowerAuth.Vault.devicePrivateKey(sealedDevicePrivateKey, vaultKey: vaultKey)
    }

    /// ECDSA-P256-SHA256 over `data` with the device private key, DER (§8,
    /// `signWithDevicePrivateKey`); the vault must have been unlocked with reason
    /// `SIGN_WITH_DEVICE_PRIVATE_KEY`.
    public func deviceSignature(for data: [UInt8], vaultKey: SymmetricKey) throws(ProtocolError) -> [UInt8] {
        let key = try devicePrivateKey(vaultKey: vaultKey)
        return try ProtocolError.converting("device signature") { () throws(CryptoError) in try key.signature(for: data) }.derRepresentation
    }

    /// The recovery code and PUK sealed at activation (§12, reason `RECOVERY_CODE`).
    public func recoveryData(vaultKey: SymmetricKey) throws(ProtocolError) -> PowerAuth.RecoveryData? {
        guard let sealedRecoveryData else { return nil }
        var plain = try ProtocolError.converting("recovery data") { () throws(CryptoError) in
            try AES.UnauthenticatedCBC.decrypt(sealedRecoveryData, using: vaultKey, iv: [UInt8](repeating: 0, count: 16))
        }
        defer { SecretBytes.wipe(&plain) }
        return try PowerAuth.RecoveryData.unsealed(plain)
    }

    /// Adds the biometry factor (§13): unseals the device private key, recomputes the master
    /// secret with the stored server key, checks the derived vault key equals `vaultKey`, and
    /// locks the biometry key under `biometryUnlockKey` (random 16 bytes the caller keeps in
    /// protected storage), and under the external encryption key when this activation uses one.
    /// Throws `ProtocolError.Code.invalidArgument` when the keys disagree.
    public func addingBiometry(vaultKey: SymmetricKey, biometryUnlockKey: SymmetricKey,
                               externalEncryptionKey: SymmetricKey? = nil) throws(ProtocolError) -> PowerAuth.ActivationData {
        let external = try externalLayerKey(externalEncryptionKey)
        let device = try devicePrivateKey(vaultKey: vaultKey)
        let master = try ProtocolError.converting("stored keys do not combine") { () throws(CryptoError) in
            let server = try P256.KeyAgreement.PublicKey(sec1Representation: serverPublicKey)
            return try PowerAuth.KeyDerivation.masterSecret(devicePrivateKey: P256.KeyAgreement.PrivateKey(sameKeyAs: device), serverPublicKey: server)
        }
        let keys = PowerAuth.ActivationKeys(masterSecret: master)
        guard keys.vault == vaultKey else { throw ProtocolError(.invalidArgument, "the vault key does not belong to this activation") }
        var copy = self
        copy.lockedBiometryKey = try PowerAuth.KeyLocking.addExternalLayer(try PowerAuth.KeyLocking.lock(keys.biometry, with: biometryUnlockKey),
                                                                           externalKey: external)
        return copy
    }

    /// Drops the biometry factor (§13, local only).
    public var removingBiometry: PowerAuth.ActivationData {
        var copy = self
        copy.lockedBiometryKey = nil
        return copy
    }
}
