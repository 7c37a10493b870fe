// `mfa cm <verb>` (docs/design.md §3): the CM Authenticator client from a shell — configure the
// service, register the phone with its SMS code, link environments from QR text (both read from
// a file or standard input, never an argument), list or watch pending requests, approve or deny.
// `mfa` sends with TLSTransport, which enforces the pins of CM's signed certificate list
// (docs/protocols/cm-authenticator.md §6) on top of the trust anchors; `--no-pinning` at configure time is the
// explicit way out. Plain http:// is for loopback test servers.

package import MFACommandLine
import Glibc
import AuthNetworking
import CMAuthenticator
import CMAuthenticatorSDK
import CryptoPrimitives
import FoundationEssentials
import ProtocolSupport
import SecureStore

package enum CMCommand {

    struct Stored: Codable {
        let baseURL: String
        let listKeyDERBase64: String?
        let pinning: Bool
        let loopbackHTTP: Bool
        let appKey: String
    }

    static let record = "mfa.cm.config"

    /// Runs `verb` (the command model has checked its options).
    package static func run(_ verb: String, _ options: CommandOptions) async -> Int32 {
        await CommandSupport.run("mfa cm", creatingStore: verb == "configure") { try await dispatch(verb, options) }
    }

    static func configure(_ options: CommandOptions) throws {
        let baseURL = try options.require("--base-url")
        var keyDER: [UInt8]?
        if let file = options.values["--list-key-file"] {
            guard let bytes = FileManager.default.contents(atPath: file).map(Array.init) else { throw UsageError(description: "cannot read \(file)") }
            let text = String(decoding: bytes, as: UTF8.self)
            let key = text.contains("-----BEGIN") ? try RSA.Signing.PublicKey(pemRepresentation: text) : try RSA.Signing.PublicKey(derRepresentation: bytes)
            keyDER = key.derRepresentation
        }
        let stored = Stored(baseURL: baseURL, listKeyDERBase64: keyDER.map { Base64.encode($0) }, pinning: !options.flags.contains("--no-pinning"),
                            loopbackHTTP: options.flags.contains("--allow-http-loopback"), appKey: options.values["--app-key"] ?? "swiftmfa-linux")
        // The URL policy first: a refused configure opens, and so creates, no store.
        let policy: URLPolicy = stored.loopbackHTTP ? .insecureAllowingPlainHTTPToLoopback : .httpsOnly
        guard policy.permits(baseURL) else { throw CMClientError(refusing: baseURL) }
        _ = try client(options, stored)  // the client's own checks of the configuration
        try options.store().write(SecretBytes(Array(try JSONEncoder().encode(stored))), to: record)
        CommandSupport.output(options, ["baseURL": baseURL, "pinning": stored.pinning], text: "configured \(baseURL) (pinning \(stored.pinning ? "on" : "off"))")
    }

    static func client(_ options: CommandOptions, _ given: Stored? = nil) throws -> CMAuthenticatorClient {
        let opened = try options.openStore()
        let store = opened.store
        guard let stored = try given ?? store.read(record).map({ try JSONDecoder().decode(Stored.self, from: Data($0.unsafeExposedBytes)) }) else {
            throw StateError(description: "not configured (mfa cm configure --base-url URL)")
        }
        let listKey = try stored.listKeyDERBase64.map { try RSA.Signing.PublicKey(derRepresentation: try Base64.decode($0)) }
        var system = utsname()
        uname(&system)
        let release = withUnsafeBytes(of: &system.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let machine = withUnsafeBytes(of: &system.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let device = CMAuthenticator.DeviceDescription(manufacturer: "Linux", osVersion: release, appVersion: "\(SwiftMFAVersion.current) (1)", appID: "swiftmfa.mfa",
                                                       languageCode: "en", model: machine, modelID: machine, platform: "Linux", appKey: stored.appKey)
        let configuration = CMAuthenticatorClient.Configuration(
            baseURL: stored.baseURL, device: device,
            clientDescription: .linux(app: "mfa", version: SwiftMFAVersion.current, system: release, architecture: machine, locale: "en"),
            pinning: stored.pinning ? .enforced(listKey: listKey) : .disabledTransportCannotPin,
            urlPolicy: stored.loopbackHTTP ? .insecureAllowingPlainHTTPToLoopback : .httpsOnly, deviceKeys: opened.deviceKeys)
        return try CMAuthenticatorClient(configuration: configuration, store: store, transport: try CommandTransport.factory(options))
    }

    /// What is stored (the configuration, the device id, the environments) and, once the
    /// service assigned a device id, its registration status there (docs/protocols/cm-authenticator.md §2).
    static func status(_ options: CommandOptions) async throws {
        guard try options.storeExists(), let stored = try options.store().read(record).map({ try JSONDecoder().decode(Stored.self, from: Data($0.unsafeExposedBytes)) }) else {
            return CommandSupport.output(options, ["configured": false, "registered": false, "deviceId": JSONOutput.null, "environments": [Any]()],
                                         text: "not configured (mfa cm configure --base-url URL)")
        }
        let client = try client(options, stored)
        let environments = try await client.environments()
        var object: [String: Any] = ["configured": true, "baseURL": URLPolicy.withoutUserInformation(stored.baseURL), "pinning": stored.pinning, "allowHTTPLoopback": stored.loopbackHTTP,
                                     "environments": environments.map { ["id": $0.id, "name": $0.name] }]
        let lines = environments.map { "\(line($0.id))\t\(line($0.name))" }
        guard let deviceID = try await client.deviceID else {
            object["registered"] = false
            object["deviceId"] = JSONOutput.null
            return CommandSupport.output(options, object, text: "configured for \(URLPolicy.displayURL(stored.baseURL)); not registered (mfa cm register --phone NUMBER)")
        }
        let status = try await client.deviceStatus()
        object["registered"] = true
        object["deviceId"] = deviceID
        object["registrationStatus"] = status.rawValue
        CommandSupport.output(options, object, text: (["device \(deviceID): \(status.rawValue)"] + lines).joined(separator: "\n"))
    }

    static func dispatch(_ verb: String, _ options: CommandOptions) async throws {
        if verb == "configure" { return try configure(options) }
        if verb == "status" { return try await status(options) }
        let client = try client(options)
        switch verb {
        case "register":
            let status = if let phone = options.values["--phone"] { try await client.register(phoneNumber: phone) }
                         else { try await client.verify(code: try smsCode(options)) }
            CommandSupport.output(options, ["deviceId": try await client.deviceID.map { $0 as Any } ?? JSONOutput.null, "registrationStatus": status.rawValue],
                                  text: status == .pending ? "SMS sent; finish with: mfa cm register (the code from the terminal or standard input, or --code-file F)" : "registration \(status.rawValue)")
        case "remove":
            let local = options.flags.contains("--local")
            let environments = try await client.environments()
            for environment in environments where !local { try await client.unregisterEnvironment(id: environment.id) }
            try await client.removeRegistrationLocally()
            CommandSupport.output(options, ["removed": true, "local": local, "environments": environments.map(\.id)],
                                  text: "registration removed" + (local ? " here" : "") + (environments.isEmpty ? "" : " (\(environments.count) environments unlinked)"))
        case "environment":
            switch try options.argument(0, "add, list or remove") {
            case "add":
                guard options.positional.count < 2 else {
                    throw UsageError(description: "the QR text holds the environment's secret and every local user can read the command line: "
                                     + "use --qr-file PATH (mode 0600) or --qr - (standard input)")
                }
                let qr = try SecretInput.required(options, "--qr", prompt: "QR text: ")
                let environment = try await client.addEnvironment(qrCode: try SecretInput.text(qr, "the QR text"))
                // `key`: where the secret lives, `token` (imported into the store's PKCS #11 token)
                // or `record` (sealed in the environment's record).
                CommandSupport.output(options, ["id": environment.id, "name": environment.name, "key": environment.keyLabel == nil ? "record" : "token"],
                                      text: "linked \(line(environment.name)) (\(line(environment.id))), its secret in the \(environment.keyLabel == nil ? "store's record" : "token")")
            case "list":
                let all = try await client.environments()
                CommandSupport.output(options, all.map { ["id": $0.id, "name": $0.name] },
                                      text: all.isEmpty ? "no environments" : all.map { "\(line($0.id))\t\(line($0.name))" }.joined(separator: "\n"))
            case "remove":
                let id = try options.argument(1, "the environment id")
                try await client.unregisterEnvironment(id: id)
                CommandSupport.output(options, ["removed": id], text: "unlinked \(id)")
            case let other: throw UsageError(description: "environment \(other)? (add, list or remove)")
            }
        case "requests":
            if options.flags.contains("--watch") {
                let seconds = try options.seconds("--interval", default: 3, in: 0.1...86_400)
                for try await pending in client.requestUpdates(every: .milliseconds(CommandOptions.milliseconds(seconds))) { print(options, pending) }
            } else {
                print(options, try await client.pendingRequests())
            }
        case "approve", "deny":
            let id = try options.argument(0, "the request id")
            guard let pending = try await client.pendingRequests().first(where: { $0.request.id == id }) else {
                throw StateError(description: "no open request \(id) (mfa cm requests)")
            }
            let status = verb == "approve" ? try await client.approve(pending) : try await client.deny(pending)
            CommandSupport.output(options, ["requestId": id, "authStatus": status.map { $0 as Any } ?? JSONOutput.null], text: "\(verb == "approve" ? "approved" : "denied") \(id)")
        default:
            throw UsageError(description: "unknown verb \(verb) (see mfa cm --help)")
        }
    }

    /// The SMS code from `--code-file`, else standard input.
    static func smsCode(_ options: CommandOptions) throws -> String {
        try SecretInput.requiredText(options, "--code", prompt: "SMS code: ", what: "the SMS code")
    }

    /// One line per update: a JSON array with `--json`, else one line per request. An OTP is
    /// shown (that is its purpose) with the time it stops being valid.
    static func print(_ options: CommandOptions, _ list: [PendingAuthentication]) {
        let objects = list.map { item -> [String: Any] in
            var object: [String: Any] = ["id": item.request.id, "environment": item.environmentName, "expiresAt": SaltEdgeCommand.iso8601(item.request.expiresAt)]
            switch item.request.kind {
            case .instant: object["type"] = "instant"
            case .oneTimePIN(let pin):
                object["type"] = "otp"
                object["pin"] = pin.displayText
            }
            return object
        }
        let text = list.map { item -> String in
            let what = switch item.request.kind {
            case .instant: "approve or deny"
            case .oneTimePIN(let pin): "code \(pin.displayText)"
            }
            return "\(line(item.request.id))\t\(line(item.environmentName))\t\(what)\tuntil \(SaltEdgeCommand.iso8601(item.request.expiresAt))"
        }
        CommandSupport.output(options, objects, text: list.isEmpty ? "no open requests" : text.joined(separator: "\n"))
    }
}
