// Local changes to a persisted activation (powerauth.md §4.2, §12, §13): password change with a
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
        guard let salt = try? random.bytes(count: 16) else { throw ProtocolError(.cryptoFailure, "random source failed") }
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
        guard let signature = try? key.signature(for: data) else { throw ProtocolError(.cryptoFailure, "signing failed") }
        return signature.derRepresentation
    }

    /// The recovery code and PUK sealed at activation (§12, reason `RECOVERY_CODE`).
    public func recoveryData(vaultKey: SymmetricKey) throws(ProtocolError) -> PowerAuth.RecoveryData? {
        guard let sealedRecoveryData else { return nil }
        guard let plain = try? AES.UnauthenticatedCBC.decrypt(sealedRecoveryData, using: vaultKey, iv: [UInt8](repeating: 0, count: 16)) else {
            throw .decryptionFailure()
        }
        struct Wire: Decodable { let recoveryCode: String; let puk: String }
        let wire = try JSONResponse.decode(Wire.self, from: plain, what: "recovery data")
        return PowerAuth.RecoveryData(recoveryCode: wire.recoveryCode, puk: SecretBytes(wire.puk.utf8))
    }

    /// Adds the biometry factor (§13): unseals the device private key, recomputes the master
    /// secret with the stored server key, checks the derived vault key equals `vaultKey`, and
    /// locks the biometry key under `biometryUnlockKey` (random 16 bytes the caller keeps in
    /// protected storage), and under the external encryption key when this activation uses one.
    /// Throws ``ProtocolError/Code/invalidArgument`` when the keys disagree.
    public func addingBiometry(vaultKey: SymmetricKey, biometryUnlockKey: SymmetricKey,
                               externalEncryptionKey: SymmetricKey? = nil) throws(ProtocolError) -> PowerAuth.ActivationData {
        let external = try externalLayerKey(externalEncryptionKey)
        let device = try devicePrivateKey(vaultKey: vaultKey)
        guard let agreement = try? P256.KeyAgreement.PrivateKey(rawRepresentation: device.rawRepresentation.unsafeExposedBytes),
              let server = try? P256.KeyAgreement.PublicKey(sec1Representation: serverPublicKey),
              let master = try? PowerAuth.KeyDerivation.masterSecret(devicePrivateKey: agreement, serverPublicKey: server) else {
            throw ProtocolError(.invalidArgument, "stored keys do not combine")
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
