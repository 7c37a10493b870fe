// The verbs behind a second factor (docs/protocols/powerauth.md §12, §13; docs/protocols/sdk-surfaces.md §1.6–§1.10):
// password validation and change, the biometry-like external factor, the secure vault
// (encryption keys, device-key signatures, recovery data), recovery-code confirmation and the
// signed removal. Each online step is a standard signed call on the serial queue.

public import CryptoPrimitives
public import PowerAuth
import ProtocolSupport

extension PowerAuthClient {
    // MARK: Password (`validatePasswordCorrect`, `changePassword`, `unsafeChangePassword`)

    /// The shortest password, in bytes, the SDK can lock the knowledge key with (docs/protocols/powerauth.md §4.2).
    public static let minimumPasswordLength = PowerAuth.KeyLocking.minimumPasswordLength

    /// Throws `PowerAuthSDKError.Code.invalidPassword` for a new password the SDK cannot use
    /// (shorter than ``minimumPasswordLength`` bytes). Every verb that takes a new password calls
    /// it before its first request; call it before ``createActivation(_:device:)``, which does not
    /// take the password, so that the one-time activation code is not spent on a password that
    /// ``persistActivation(authentication:)`` would refuse.
    ///
    /// - Parameter password: The new password.
    /// - Throws: `PowerAuthSDKError` with code `invalidPassword` when `password` is shorter than
    ///   `minimumPasswordLength` bytes.
    public static func requireUsablePassword(_ password: SecretBytes) throws(PowerAuthSDKError) {
        guard password.count >= minimumPasswordLength else {
            throw PowerAuthSDKError(.invalidPassword, "a password needs at least \(minimumPasswordLength) bytes")
        }
    }

    /// Proves `password` online (`validatePasswordCorrect`, §13): a possession_knowledge
    /// signature over `{"requestObject":{"reason":"VALIDATE_PASSWORD"}}` to
    /// `/pa/v3/signature/validate`. A wrong password is `PowerAuthSDKError.Code.authenticationFailed`
    /// and costs a failed attempt on the server.
    ///
    /// - Parameters:
    ///   - password: The password to prove.
    ///   - possessionUnlockKey: The device's possession unlock key, which opens the activation's transport
    ///     key.
    /// - Throws: `PowerAuthSDKError` with code `authenticationFailed` when the server refuses the password,
    ///   `missingActivation` when no activation is stored, `counterDeadlock` when its counter cannot be
    ///   reconciled with the server's, `invalidAuthentication` when the factor keys do not unlock, `signing`
    ///   when the signature cannot be computed, `transport` when no answer arrives, `server` when the server
    ///   answers with another error, `invalidResponse` when the answer is not valid, `store` when the secure
    ///   store cannot be read or written.
    public func validatePassword(_ password: SecretBytes, possessionUnlockKey: SymmetricKey) async throws(PowerAuthSDKError) {
        _ = try await standardSignedCall(path: "pa/v3/signature/validate", uriID: "/pa/signature/validate",
                                         body: Array(#"{"requestObject":{"reason":"VALIDATE_PASSWORD"}}"#.utf8), factors: .possessionKnowledge,
                                         authentication: Authentication(possessionUnlockKey: possessionUnlockKey, password: password))
    }

    /// Changes the password safely (`changePassword`, §13): validates `oldPassword` online
    /// first, then re-locks the knowledge key under `newPassword` with a fresh salt. A new
    /// password the SDK cannot use is `PowerAuthSDKError.Code.invalidPassword` before the
    /// online check, so no counter step is spent on it.
    ///
    /// - Parameters:
    ///   - oldPassword: The current password, proved online first.
    ///   - newPassword: The new password.
    ///   - possessionUnlockKey: The device's possession unlock key, which opens the activation's transport
    ///     key.
    /// - Throws: `PowerAuthSDKError` with code `invalidPassword` when `newPassword` is too short;
    ///   `validatePassword(_:possessionUnlockKey:)`'s errors for `oldPassword` (`authenticationFailed` when
    ///   it is wrong); `invalidAuthentication` when the knowledge key cannot be re-locked, `store` when the
    ///   secure store cannot be read or written.
    public func changePassword(from oldPassword: SecretBytes, to newPassword: SecretBytes,
                               possessionUnlockKey: SymmetricKey) async throws(PowerAuthSDKError) {
        try Self.requireUsablePassword(newPassword)
        try await validatePassword(oldPassword, possessionUnlockKey: possessionUnlockKey)
        try unsafeChangePassword(from: oldPassword, to: newPassword)
    }

    /// Re-locks the knowledge key without any check (`unsafeChangePassword`). A wrong old
    /// password silently and irreversibly breaks the knowledge factor: call it only after
    /// ``validatePassword(_:possessionUnlockKey:)`` succeeded.
    ///
    /// - Parameters:
    ///   - oldPassword: The current password; a wrong one is not detected.
    ///   - newPassword: The new password.
    /// - Throws: `PowerAuthSDKError` with code `invalidPassword` when `newPassword` is too short,
    ///   `missingActivation` when no activation is stored, `invalidAuthentication` when the knowledge key
    ///   cannot be re-locked, `store` when the secure store cannot be read or written.
    public func unsafeChangePassword(from oldPassword: SecretBytes, to newPassword: SecretBytes) throws(PowerAuthSDKError) {
        try Self.requireUsablePassword(newPassword)
        try activations.update { activation throws(PowerAuthSDKError) in
            var random = randomSource
            do throws(ProtocolError) { return try activation.changingPassword(from: oldPassword, to: newPassword, using: &random) } catch {
                throw PowerAuthSDKError(.invalidAuthentication, "the knowledge key cannot be re-locked", protocolError: error)
            }
        }
    }

    // MARK: Biometry-like external factor (`addBiometryFactor`, `removeBiometryFactor`)

    /// Adds the third factor (`addBiometryFactor`, §13): a vault unlock with `authentication`
    /// (possession + password), then the biometry key locked under `biometryUnlockKey` — 16
    /// random bytes the caller keeps where the factor lives (a TPM-sealed secret, a hardware
    /// token). Sign with it by passing the same key in ``Authentication/biometryUnlockKey``.
    ///
    /// - Parameters:
    ///   - authentication: Possession and password, for the vault unlock.
    ///   - biometryUnlockKey: 16 random bytes the caller keeps where the factor lives.
    /// - Throws: `PowerAuthSDKError` with code `invalidAuthentication` when `authentication` has the
    ///   possession factor only or cannot unlock the factor keys, `missingActivation` when no activation is
    ///   stored, `counterDeadlock` when its counter cannot be reconciled with the server's, `encryption` when
    ///   the vault unlock cannot be built or a 3.3 temporary key does not verify, `transport` when no answer
    ///   arrives, `authenticationFailed` when the server refuses the signature, `server` when it answers with
    ///   another error, `invalidResponse` when the answer is not valid or does not open, `store` when the
    ///   secure store cannot be read or written, `invalidResponse` also when the vault key does not belong to
    ///   this activation.
    public func addBiometryFactor(authentication: Authentication, biometryUnlockKey: SymmetricKey) async throws(PowerAuthSDKError) {
        let vaultKey = try await unlockVault(.addBiometry, authentication: authentication)
        try activations.update { activation throws(PowerAuthSDKError) in
            do throws(ProtocolError) { return try activation.addingBiometry(vaultKey: vaultKey, biometryUnlockKey: biometryUnlockKey) } catch {
                throw PowerAuthSDKError(.invalidResponse, "the vault key does not belong to this activation", protocolError: error)
            }
        }
    }

    /// Drops the biometry factor (`removeBiometryFactor`, local only).
    ///
    /// - Throws: `PowerAuthSDKError` with code `missingActivation` when no activation is stored, `store` when
    ///   the secure store cannot be read or written.
    public func removeBiometryFactor() throws(PowerAuthSDKError) {
        try activations.update { $0.removingBiometry }
    }

    // MARK: Secure vault (`fetchEncryptionKey`, `signDataWithDevicePrivateKey`, `activationRecoveryData`)

    /// KDF(KEY_ENCRYPTION_VAULT, `index`) after an online vault unlock (`fetchEncryptionKey`,
    /// §12): the same index gives the same 16-byte key; use one index per purpose.
    ///
    /// - Parameters:
    ///   - authentication: At least two factors, for the vault unlock.
    ///   - index: The key's index; use one per purpose.
    /// - Throws: `PowerAuthSDKError` with code `invalidAuthentication` when `authentication` has the
    ///   possession factor only or cannot unlock the factor keys, `missingActivation` when no activation is
    ///   stored, `counterDeadlock` when its counter cannot be reconciled with the server's, `encryption` when
    ///   the vault unlock cannot be built or a 3.3 temporary key does not verify, `transport` when no answer
    ///   arrives, `authenticationFailed` when the server refuses the signature, `server` when it answers with
    ///   another error, `invalidResponse` when the answer is not valid or does not open, `store` when the
    ///   secure store cannot be read or written.
    public func fetchEncryptionKey(authentication: Authentication, index: UInt64) async throws(PowerAuthSDKError) -> SymmetricKey {
        PowerAuth.Vault.encryptionKey(vaultKey: try await unlockVault(.fetchEncryptionKey, authentication: authentication), index: index)
    }

    /// ECDSA-P256-SHA256 over `data` with the device private key, DER
    /// (`signDataWithDevicePrivateKey`, §8, §12), after an online vault unlock.
    ///
    /// - Parameters:
    ///   - authentication: At least two factors, for the vault unlock.
    ///   - data: The data to sign.
    /// - Throws: `PowerAuthSDKError` with code `invalidAuthentication` when `authentication` has the
    ///   possession factor only or cannot unlock the factor keys, `missingActivation` when no activation is
    ///   stored, `counterDeadlock` when its counter cannot be reconciled with the server's, `encryption` when
    ///   the vault unlock cannot be built or a 3.3 temporary key does not verify, `transport` when no answer
    ///   arrives, `authenticationFailed` when the server refuses the signature, `server` when it answers with
    ///   another error, `invalidResponse` when the answer is not valid or does not open, `store` when the
    ///   secure store cannot be read or written, `signing` when the device key cannot sign.
    public func signDataWithDevicePrivateKey(authentication: Authentication, data: [UInt8]) async throws(PowerAuthSDKError) -> [UInt8] {
        let vaultKey = try await unlockVault(.signWithDevicePrivateKey, authentication: authentication)
        let activation = try storedActivation()
        do throws(ProtocolError) { return try activation.deviceSignature(for: data, vaultKey: vaultKey) } catch {
            throw PowerAuthSDKError(.signing, "the device key cannot sign", protocolError: error)
        }
    }

    /// The recovery code and PUK received at activation (`activationRecoveryData`, §12), after
    /// an online vault unlock; nil when none came.
    ///
    /// - Parameter authentication: At least two factors, for the vault unlock.
    /// - Throws: `PowerAuthSDKError` with code `invalidAuthentication` when `authentication` has the
    ///   possession factor only or cannot unlock the factor keys, `missingActivation` when no activation is
    ///   stored, `counterDeadlock` when its counter cannot be reconciled with the server's, `encryption` when
    ///   the vault unlock cannot be built or a 3.3 temporary key does not verify, `transport` when no answer
    ///   arrives, `authenticationFailed` when the server refuses the signature, `server` when it answers with
    ///   another error, `invalidResponse` when the answer is not valid or does not open, `store` when the
    ///   secure store cannot be read or written (`store` also when the stored recovery data does not open).
    public func activationRecoveryData(authentication: Authentication) async throws(PowerAuthSDKError) -> PowerAuth.RecoveryData? {
        guard try storedActivation().sealedRecoveryData != nil else { return nil }
        let vaultKey = try await unlockVault(.recoveryCode, authentication: authentication)
        do { return try storedActivation().recoveryData(vaultKey: vaultKey) } catch let error as PowerAuthSDKError {
            throw error
        } catch {
            throw PowerAuthSDKError(.store, "the stored recovery data does not open")
        }
    }

    /// Confirms a recovery postcard (`confirmRecoveryCode`, §13; possession + password).
    /// Returns `alreadyConfirmed` — true is not an error.
    ///
    /// - Parameters:
    ///   - code: The recovery code from the postcard.
    ///   - authentication: Possession and password.
    /// - Throws: `PowerAuthSDKError` with code `missingActivation` when no activation is stored,
    ///   `counterDeadlock` when its counter cannot be reconciled with the server's, `invalidAuthentication`
    ///   when `authentication` cannot unlock the factor keys, `encryption` when the request cannot be built
    ///   or a 3.3 temporary key does not verify, `transport` when no answer arrives, `authenticationFailed`
    ///   when the server refuses the signature, `server` when it answers with another error,
    ///   `invalidResponse` when the answer is not valid or does not decrypt, `store` when the secure store
    ///   cannot be read or written.
    public func confirmRecoveryCode(_ code: String, authentication: Authentication) async throws(PowerAuthSDKError) -> Bool {
        let plaintext = try await standardEncryptedCall(factors: .possessionKnowledge, authentication: authentication) { inputs, random throws(ProtocolError) in
            try PowerAuth.confirmRecoveryCodeRequest(code, activation: inputs.activation, keys: inputs.keys, transportKey: inputs.transportKey,
                                                     configuration: inputs.configuration, encryptionKey: inputs.encryptionKey,
                                                     version: inputs.version, timestamp: inputs.timestamp, using: &random)
        }
        do { return try PowerAuth.alreadyConfirmed(from: plaintext) } catch {
            throw PowerAuthSDKError(.invalidResponse, "the recovery confirmation answer is not valid", protocolError: error)
        }
    }

    // MARK: Removal (`removeActivation`)

    /// Removes the activation on the server with a signed request (`removeActivation`, §13;
    /// 2FA with the given authentication), then every local trace of it.
    ///
    /// - Parameter authentication: The factors that sign the removal.
    /// - Throws: `PowerAuthSDKError` with code `missingActivation` when no activation is stored,
    ///   `counterDeadlock` when its counter cannot be reconciled with the server's, `invalidAuthentication`
    ///   when `authentication` cannot unlock the factor keys, `signing` when the signature cannot be
    ///   computed, `transport` when no answer arrives, `authenticationFailed` when the server refuses the
    ///   signature, `server` when it answers with another error, `invalidResponse` when the answer is not
    ///   valid, `store` when the secure store cannot be read or written.
    public func removeActivation(authentication: Authentication) async throws(PowerAuthSDKError) {
        _ = try await standardSignedCall(path: "pa/v3/activation/remove", uriID: "/pa/activation/remove", body: Array("{}".utf8),
                                         factors: authentication.factors, authentication: authentication)
        try removeActivationLocally()
    }

    /// KEY_ENCRYPTION_VAULT from an online unlock (§12) signed with `authentication`'s factors
    /// (at least two: the server refuses possession alone).
    func unlockVault(_ reason: PowerAuth.VaultUnlockReason, authentication: Authentication) async throws(PowerAuthSDKError) -> SymmetricKey {
        let factors = authentication.factors
        guard factors != .possession else { throw PowerAuthSDKError(.invalidAuthentication, "the vault needs a password or a biometry key") }
        let plaintext = try await standardEncryptedCall(factors: factors, authentication: authentication) { inputs, random throws(ProtocolError) in
            try PowerAuth.vaultUnlockRequest(reason: reason, activation: inputs.activation, factors: factors, keys: inputs.keys,
                                             transportKey: inputs.transportKey, configuration: inputs.configuration,
                                             encryptionKey: inputs.encryptionKey, version: inputs.version, timestamp: inputs.timestamp,
                                             using: &random)
        }
        let transportKey = try Self.transportKey(of: try storedActivation(), authentication.possessionUnlockKey)
        do { return try PowerAuth.vaultKey(from: plaintext, transportKey: transportKey) } catch {
            throw PowerAuthSDKError(.invalidResponse, "the vault answer does not open", protocolError: error)
        }
    }
}
