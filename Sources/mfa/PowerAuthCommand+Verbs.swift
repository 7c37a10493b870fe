// The verbs of `mfa powerauth` (see PowerAuthCommand.swift for the shared options): each one
// call of PowerAuthClient or NetworkingService, its result printed as text or `--json`.

import MFACommandLine
import CryptoPrimitives
import FoundationEssentials
import PowerAuth
import PowerAuthNetworking
import PowerAuthSDK
import ProtocolSupport
import SecureStore

extension PowerAuthCommand {
    /// Stores the SDK configuration and, on first use, the instance's possession key: derived in
    /// the token when the store is keyed in one (PossessionKeySource: a copied store cannot
    /// sign), else 16 random bytes in the secure store.
    static func configure(_ options: Options) throws {
        let baseURL = try options.require("--base-url")
        // It holds the application secret: read like every secret, never from an argument.
        let configurationString = try SecretInput.requiredText(options, "--config-string", prompt: "Configuration string: ", what: "the configuration string")
        let version = options.values["--protocol"] ?? "3.3"
        guard let parsed = PowerAuth.ProtocolVersion(rawValue: version), parsed >= .v3_0 else { throw UsageError(description: "--protocol is 3.0–3.3") }
        _ = try PowerAuthClient.Configuration(instanceID: instance(options), configurationString: configurationString, baseURL: baseURL,
                                              urlPolicy: urlPolicy(allowingLoopback: options.flags.contains("--allow-http-loopback")))
        let opened = try options.openStore()
        let store = opened.store
        let encoded = try JSONEncoder().encode(Stored(configurationString: configurationString, baseURL: baseURL, version: version,
                                                      allowHTTPLoopback: options.flags.contains("--allow-http-loopback")))
        try store.write(SecretBytes(Array(encoded)), to: configRecord(options))
        if !opened.bindsPossession, try store.read(possessionRecord(options)) == nil {
            var random = SystemRandomSource()
            try store.write(SecretBytes(try random.bytes(count: 16)), to: possessionRecord(options))
        }
        output(options, ["instance": instance(options), "baseURL": baseURL, "protocol": version],
               text: "configured instance \(instance(options)) for \(baseURL) (protocol \(version))")
    }

    static func activate(_ options: Options) async throws {
        let text = try SecretInput.requiredText(options, "--code", prompt: "Activation code: ", what: "the activation code")
        let code: PowerAuth.ActivationCode
        // The text is a secret: the message names its form, never its characters.
        do { code = try PowerAuth.ActivationCode(parsing: text) } catch {
            throw UsageError(description: "the activation code is not valid (four groups of five Base32 characters, with its #signature when the server gave one)")
        }
        let (client, possession, _) = try client(options)
        let device = PowerAuth.DeviceDescription(activationName: options.values["--name"] ?? "mfa on Linux", platform: "linux")
        // The password first: one the SDK cannot use must not spend the one-time code.
        let password = try SecretInput.required(options, "--password", prompt: "New password: ")
        try PowerAuthClient.requireUsablePassword(password)
        let result = try await client.createActivation(.code(code), device: device)
        try await client.persistActivation(authentication: Authentication(possessionUnlockKey: possession, password: password))
        output(options, ["activationId": result.activationID, "fingerprint": result.fingerprint, "recoveryData": result.recovery != nil],
               text: "activated \(result.activationID) (fingerprint \(result.fingerprint))")
    }

    /// What is stored for the instance (its configuration, its activation's id) and, when it is
    /// activated, the server's status: the same `status` as every family's. An instance that is
    /// not configured or not activated is a state to report, not an error.
    static func status(_ options: Options) async throws {
        var object: [String: Any] = ["instance": instance(options), "configured": false, "activated": false, "activationId": JSONOutput.null]
        guard try options.storeExists() else {
            return output(options, object, text: "instance \(instance(options)) is not configured (mfa powerauth configure)")
        }
        let opened = try options.openStore()
        guard let stored = try storedConfiguration(options, opened.store) else {
            return output(options, object, text: "instance \(instance(options)) is not configured (mfa powerauth configure)")
        }
        object["configured"] = true
        object["baseURL"] = URLPolicy.withoutUserInformation(stored.baseURL)
        object["protocol"] = stored.version
        object["allowHTTPLoopback"] = stored.allowHTTPLoopback == true
        // The store opened above, not a second time: one provider, one unlock.
        let configured = try configuredClient(options, opened, stored)
        let (client, possession) = (configured.client, configured.possession)
        guard let activationID = try await client.activationIdentifier() else {
            return output(options, object, text: "instance \(instance(options)) is configured for \(URLPolicy.displayURL(stored.baseURL)) and not activated (mfa powerauth activate)")
        }
        object["activated"] = true
        object["activationId"] = activationID
        let result = try await client.fetchActivationStatus(possessionUnlockKey: possession)
        let status = result.status
        // docs/protocols/powerauth.md §6.4: DEADLOCK is the client's own state, shown instead of the server's.
        let state = result.isDeadlocked ? "deadlock" : "\(status.state)"
        object["state"] = state
        object["serverState"] = "\(status.state)"
        object["deadlock"] = result.isDeadlocked
        object["failedAttempts"] = Int(status.failedAttempts)
        object["maxFailedAttempts"] = Int(status.maxFailedAttempts)
        object["remainingAttempts"] = status.remainingAttempts
        if let custom = result.customObject { object["customObject"] = custom }
        var advice = result.isDeadlocked
            ? " (the signature counter cannot be synchronised: signing is refused; run `mfa powerauth remove --local` and activate again)" : ""
        // docs/protocols/powerauth.md §6.4: this device writes each counter before it sends, so a server that is
        // ahead saw signatures made elsewhere — another copy of this activation's keys signed.
        var signedElsewhere = 0
        if case .adopt(_, let steps) = result.counterSynchronization, steps > 0 { signedElsewhere = steps }
        object["signedElsewhere"] = signedElsewhere
        if signedElsewhere > 0 {
            advice += "\nthe server had seen \(signedElsewhere) signature(s) this device never made: another copy of this activation signed "
                + "(a copied store, or one copied before `mfa keys migrate`); this device has caught up. If no copy is yours: "
                + "mfa powerauth remove, then activate again"
        }
        // A possession key stored in the records predates the store's move onto its token: a
        // copy of the store made before the move still holds it.
        let portable = try opened.bindsPossession && opened.store.read(possessionRecord(options)) != nil
        object["possessionKeyInToken"] = opened.bindsPossession && !portable
        if portable {
            advice += "\nthe possession key predates the move onto the token: a copy of the store made before `mfa keys migrate` can "
                + "still sign; to bind the factor to the token, mfa powerauth remove, then activate again"
        }
        output(options, object, text: "\(state), \(status.failedAttempts) of \(status.maxFailedAttempts) failed attempts"
               + (result.customObject.map { ", custom object \($0.text)" } ?? "") + advice
               + "\nactivation \(activationID) of instance \(instance(options)) at \(URLPolicy.displayURL(stored.baseURL))")
    }

    /// Prints the signature header for a request the caller sends itself (the counter is spent).
    static func sign(_ options: Options) async throws {
        let method = try options.require("--method").uppercased(), uriID = try options.require("--uri-id")
        let body = try options.values["--body-file"].map(readFile) ?? []
        let (client, possession, _) = try client(options)
        let authentication = try authentication(options, possession: possession, defaultFactors: .possessionKnowledge)
        let header = try await client.requestSignature(method: method, uriID: uriID, body: body, factors: authentication.factors,
                                                       authentication: authentication)
        output(options, ["header": header.name, "value": header.value], text: "\(header.name): \(header.value)")
    }

    static func token(_ options: Options) async throws {
        guard let action = options.positional.first, ["create", "remove"].contains(action) else {
            throw UsageError(description: "token create|remove NAME")
        }
        let name = try options.argument(1, "name")
        let (client, possession, _) = try client(options)
        // The factors --help names: possession and knowledge unless --factors possession.
        let authentication = try authentication(options, possession: possession, defaultFactors: .possessionKnowledge)
        if action == "create" {
            let token = try await client.requestAccessToken(named: name, authentication: authentication)
            let header = try await client.tokenHeader(named: name)
            output(options, ["name": name, "tokenId": token.id, "header": header.value], text: "token \(name) ready\n\(header.name): \(header.value)")
        } else {
            try await client.removeAccessToken(named: name, authentication: authentication)
            output(options, ["name": name, "removed": true], text: "token \(name) removed")
        }
    }

    static func changePassword(_ options: Options) async throws {
        let (client, possession, _) = try client(options)
        let old = try SecretInput.required(options, "--password", prompt: "Current password: ")
        let new = try SecretInput.required(options, "--new-password", prompt: "New password: ")
        try await client.changePassword(from: old, to: new, possessionUnlockKey: possession)
        output(options, ["changed": true], text: "password changed")
    }

    static func remove(_ options: Options) async throws {
        let (client, possession, _) = try client(options)
        if options.flags.contains("--local") {
            try await client.removeActivationLocally()
        } else {
            let authentication = try authentication(options, possession: possession, defaultFactors: .possessionKnowledge)
            try await client.removeActivation(authentication: authentication)
        }
        output(options, ["removed": true, "local": options.flags.contains("--local")], text: "activation removed")
    }

    static func readFile(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else { throw UsageError(description: "cannot read \(path)") }
        return Array(data)
    }
}
