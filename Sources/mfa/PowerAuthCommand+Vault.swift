// The `mfa powerauth` verbs behind the secure vault and the other factors (docs/design.md §3;
// docs/protocols/sdk-surfaces.md §1.5, §1.7, §1.10): `fetch-encryption-key`, `sign-with-device-key`,
// `offline-signature`, `biometry add|remove` and `recovery show|confirm`, each one PowerAuthClient
// verb of the same name. A vault verb proves possession + password online (docs/protocols/powerauth.md §12: the
// server refuses possession alone), so a wrong password is the server's refusal and costs a failed
// attempt. Key material, the recovery code and its PUK reach the output only under `--reveal`;
// without it a verb prints what it did. Every input is checked before the password is read or
// anything is sent.

import CryptoPrimitives
import FoundationEssentials
import MFACommandLine
import PowerAuth
import PowerAuthSDK

extension PowerAuthCommand {
    /// Possession + password, the factors of every vault verb (docs/protocols/sdk-surfaces.md §1.10).
    static func vaultAuthentication(_ options: Options, possession: SymmetricKey) throws -> Authentication {
        Authentication(possessionUnlockKey: possession, password: try SecretInput.required(options, "--password", prompt: "Password: "))
    }

    /// `fetchEncryptionKey` (docs/protocols/powerauth.md §12): KDF(KEY_ENCRYPTION_VAULT, index) after an online
    /// vault unlock. Giving the key to the caller is the verb's purpose, so `--reveal` prints it
    /// (Base64); without it only the index and the key's length are printed.
    static func fetchEncryptionKey(_ options: Options) async throws {
        let text = try options.require("--index")
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let index = UInt64(text) else {
            throw UsageError(description: "--index is an integer from 0 to \(UInt64.max)")
        }
        let reveal = options.flags.contains("--reveal")
        let (client, possession, _) = try client(options)
        let key = try await client.fetchEncryptionKey(authentication: try vaultAuthentication(options, possession: possession), index: index)
        var object: [String: Any] = ["index": index, "bytes": key.byteCount, "revealed": reveal]
        guard reveal else {
            return output(options, object, text: "encryption key \(index) fetched (\(key.byteCount) bytes; --reveal prints it)")
        }
        let encoded = key.withUnsafeBytes { Base64.encode($0) }
        object["key"] = encoded
        output(options, object, text: "encryption key \(index): \(encoded)")
    }

    /// `signDataWithDevicePrivateKey` (docs/protocols/powerauth.md §8, §12): ECDSA-P256-SHA256 with the device
    /// private key after an online vault unlock; the DER signature is printed in Base64.
    static func signWithDeviceKey(_ options: Options) async throws {
        let data = try dataOption(options)
        let (client, possession, _) = try client(options)
        let signature = try await client.signDataWithDevicePrivateKey(authentication: try vaultAuthentication(options, possession: possession), data: data)
        let encoded = Base64.encode(signature)
        output(options, ["signature": encoded, "algorithm": "ECDSA-P256-SHA256", "format": "DER"], text: encoded)
    }

    /// `offlineSignature` (docs/protocols/powerauth.md §7.6): the digit groups the user types into another
    /// channel, for data and a nonce that came out of band. Nothing is sent, so a wrong password
    /// is only found out by the server that checks the code; a counter step is spent.
    static func offlineSignature(_ options: Options) async throws {
        let data = try dataOption(options), nonce = try options.require("--nonce")
        // docs/protocols/powerauth.md §7.6: the nonce the server put in the operation data, Base64 of 16 bytes.
        let decoded: [UInt8]
        do { decoded = try Base64.decode(nonce) } catch { throw UsageError(description: "--nonce is Base64 of 16 bytes") }
        guard decoded.count == 16 else { throw UsageError(description: "--nonce is Base64 of 16 bytes") }
        let uriID = options.values["--uri-id"] ?? "/operation/authorize/offline"
        let (client, possession, _) = try client(options)
        let authentication = try authentication(options, possession: possession, defaultFactors: .possessionKnowledge)
        let code = try await client.offlineSignature(uriID: uriID, body: data, nonce: nonce, factors: authentication.factors,
                                                     authentication: authentication)
        output(options, ["signature": code, "factors": authentication.factors.rawValue, "uriId": uriID], text: code)
    }

    /// `biometry add` (`addBiometryFactor`, docs/protocols/sdk-surfaces.md §1.7): a vault unlock with the
    /// password, then the biometry key locked under the key the user keeps outside the store;
    /// `biometry remove` (`removeBiometryFactor`): forgotten on this device only.
    static func biometry(_ options: Options) async throws {
        guard let action = options.positional.first, ["add", "remove"].contains(action) else { throw UsageError(description: "biometry add|remove") }
        if action == "remove" {
            let (client, _, _) = try client(options)
            try await client.removeBiometryFactor()
            return output(options, ["biometry": false], text: "biometry factor removed from this device")
        }
        let key = try biometryKey(options)
        let (client, possession, _) = try client(options)
        try await client.addBiometryFactor(authentication: try vaultAuthentication(options, possession: possession), biometryUnlockKey: key)
        output(options, ["biometry": true], text: "biometry factor added: the key you gave now unlocks it")
    }

    /// `recovery show` (`activationRecoveryData`, docs/protocols/sdk-surfaces.md §1.10): the recovery code and
    /// PUK received at activation, opened after a vault unlock and printed only under
    /// `--reveal`; `recovery confirm` (`confirmRecoveryCode`, docs/protocols/powerauth.md §13): confirms a
    /// postcard's code (already confirmed is a result, not an error).
    static func recovery(_ options: Options) async throws {
        guard let action = options.positional.first, ["show", "confirm"].contains(action) else { throw UsageError(description: "recovery show|confirm") }
        if action == "confirm" {
            let text = try SecretInput.requiredText(options, "--code", prompt: "Recovery code: ", what: "the recovery code")
            // docs/protocols/powerauth.md §3.3: the activation-code format, optionally prefixed `R:`; checked before anything is sent.
            let code: String
            do { code = try PowerAuth.recoveryCode(parsing: text) } catch { throw UsageError(description: "the recovery code is not valid") }
            let (client, possession, _) = try client(options)
            let already = try await client.confirmRecoveryCode(code, authentication: try vaultAuthentication(options, possession: possession))
            return output(options, ["confirmed": true, "alreadyConfirmed": already],
                          text: already ? "the recovery code was already confirmed" : "recovery code confirmed")
        }
        let reveal = options.flags.contains("--reveal")
        let (client, possession, _) = try client(options)
        let none: [String: Any] = ["recoveryData": false, "revealed": false]
        guard try await client.hasValidActivation() else { throw PowerAuthSDKError(.missingActivation, "no activation is stored") }
        guard try await client.hasActivationRecoveryData() else { return output(options, none, text: "no recovery data came with this activation") }
        guard let data = try await client.activationRecoveryData(authentication: try vaultAuthentication(options, possession: possession)) else {
            return output(options, none, text: "no recovery data came with this activation")
        }
        var object: [String: Any] = ["recoveryData": true, "revealed": reveal]
        guard reveal else { return output(options, object, text: "recovery data unlocked (--reveal prints the recovery code and PUK)") }
        let puk = String(decoding: data.puk.unsafeExposedBytes, as: UTF8.self)  // printed because the user asked
        object["recoveryCode"] = data.recoveryCode
        object["puk"] = puk
        output(options, object, text: "recovery code \(data.recoveryCode)\nPUK \(puk)")
    }

    // MARK: Inputs

    /// `--data TEXT` (its UTF-8 bytes) or `--data-file F` (its bytes): exactly one.
    static func dataOption(_ options: Options) throws -> [UInt8] {
        switch (options.values["--data"], options.values["--data-file"]) {
        case (let text?, nil): return Array(text.utf8)
        case (nil, let file?): return try readFile(file)
        case (nil, nil): throw UsageError(description: "--data or --data-file is required")
        default: throw UsageError(description: "--data and --data-file are two ways to give the data: give one")
        }
    }

    /// The biometry unlock key (docs/protocols/sdk-surfaces.md §1.7 on Linux: a key kept outside the store, on
    /// a hardware token or sealed by a TPM): 32 hex digits from `--biometry-key-file F` or
    /// standard input, never an argument. Hex, because a secret file loses a trailing line end.
    static func biometryKey(_ options: Options) throws -> SymmetricKey {
        let wrong = UsageError(description: "the biometry key is 32 hex digits (16 bytes), e.g. from `openssl rand -hex 16`")
        guard let hex = try SecretInput.read(options, "--biometry-key", prompt: "Biometry key (32 hex digits): ", required: true),
              hex.count == 32 else { throw wrong }
        let key = try hex.withUnsafeBytes { digits throws(UsageError) -> SecretBytes in
            try SecretBytes(count: 16) { out throws(UsageError) in
                for index in 0..<16 {
                    guard let high = nibble(digits[2 * index]), let low = nibble(digits[2 * index + 1]) else { throw wrong }
                    out[index] = high << 4 | low
                }
            }
        }
        return SymmetricKey(secret: key)
    }

    /// The value of one hex digit, nil for any other byte.
    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
