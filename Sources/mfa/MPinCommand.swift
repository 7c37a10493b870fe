// `mfa mpin <verb>` (docs/design.md §3): the MIRACL MFA client from a shell —
// configure a backend (or find it from a QR text), verify an identity by e-mail, register with a
// PIN read from the terminal without echo or from a file, list users, authenticate (web login
// with an access code, in-app login, OTP, registration code), register for and make DVS
// signatures, status, remove. Users live in the secure store (`--store`); the backend and the
// loopback opt-out `configure` stored are kept there too.

package import MFACommandLine
import AuthNetworking
import CryptoPrimitives
import FoundationEssentials
import MPinSDK
import MPin
import ProtocolSupport
import SecureStore

package enum MPinCommand {

    struct Stored: Codable {
        let backend: String
        let clientID: String?
        let trustedDomains: [String]
        let loopbackHTTP: Bool
    }

    static let record = "mfa.mpin.config"

    /// Runs `verb` (the command model has checked its options).
    package static func run(_ verb: String, _ options: CommandOptions) async -> Int32 {
        await CommandSupport.run("mfa mpin", creatingStore: verb == "configure") { try await dispatch(verb, options) }
    }

    static func client(_ options: CommandOptions, _ stored: Stored) throws -> MPinClient {
        let configuration = MPinClient.Configuration(clientID: stored.clientID, trustedDomains: stored.trustedDomains,
                                                     clientName: SwiftMFAVersion.userAgent(component: "mfa"),
                                                     urlPolicy: stored.loopbackHTTP ? .insecureAllowingPlainHTTPToLoopback : .httpsOnly)
        return MPinClient(configuration: configuration, store: try options.store(), transport: try CommandTransport.factory(options))
    }

    /// The stored configuration; nil before `configure`.
    static func stored(_ options: CommandOptions) throws -> Stored? {
        try options.store().read(record).map { try JSONDecoder().decode(Stored.self, from: Data($0.unsafeExposedBytes)) }
    }

    /// The configured client with its backend set (one client-settings request).
    static func configuredClient(_ options: CommandOptions) async throws -> MPinClient {
        guard let stored = try stored(options) else { throw StateError(description: "not configured (mfa mpin configure --base-url URL)") }
        let client = try client(options, stored)
        try await client.setBackend(stored.backend)
        return client
    }

    static func configure(_ options: CommandOptions) async throws {
        let loopback = options.flags.contains("--allow-http-loopback")
        let trusted = options.values["--trusted-domain"].map { [$0] } ?? []
        var stored = Stored(backend: options.values["--base-url"] ?? "", clientID: options.values["--client-id"], trustedDomains: trusted, loopbackHTTP: loopback)
        // Checked before the store is opened (and so created): a command line without a backend.
        guard !stored.backend.isEmpty || options.values["--qr"] != nil else { throw UsageError(description: "--base-url URL or --qr TEXT is required") }
        let probe = try client(options, stored)
        if let qr = options.values["--qr"] {
            stored = Stored(backend: try await probe.serviceDetails(for: qr).backendURL, clientID: stored.clientID, trustedDomains: trusted,
                            loopbackHTTP: loopback)
        }
        guard !stored.backend.isEmpty else { throw UsageError(description: "--base-url URL or --qr TEXT is required") }
        do {
            try await probe.setBackend(stored.backend)   // the backend must answer before it is kept
        } catch {
            // docs/protocols/mpin.md §7: the platform names the application by X-MIRACL-CID and refuses
            // requests without it (406 "Cannot parse application").
            guard stored.clientID == nil, let status = error.httpStatus, (400..<500).contains(status) else { throw error }
            throw UsageError(description: "the backend refused its client settings (HTTP \(status)) and no --client-id was given: "
                             + "the platform identifies the application by it; configure again with --client-id ID")
        }
        try options.store().write(SecretBytes(Array(try JSONEncoder().encode(stored))), to: record)
        CommandSupport.output(options, ["backend": stored.backend], text: "configured \(stored.backend)")
    }

    static func pin(_ options: CommandOptions, _ name: String = "--pin", prompt: String = "PIN: ") throws -> MPin.PIN {
        let secret = try SecretInput.required(options, name, prompt: prompt)
        guard let pin = MPin.PIN(decimal: secret) else { throw UsageError(description: "a PIN is 1–9 decimal digits") }
        return pin
    }

    static func user(_ client: MPinClient, _ options: CommandOptions) async throws -> MPinUser {
        let id = try options.argument(0, "user-id")
        guard let user = try await client.user(id: id) else { throw StateError(description: "no user \(id) at this backend (mfa mpin users)") }
        return user
    }

    /// What is stored: the configuration and the users of its backend; nothing is sent.
    static func status(_ options: CommandOptions) async throws {
        guard try options.storeExists(), let stored = try stored(options) else {
            return CommandSupport.output(options, ["configured": false, "users": [Any]()], text: "not configured (mfa mpin configure --base-url URL)")
        }
        let users = try await client(options, stored).allUsers().filter { $0.backend == stored.backend }
        let object: [String: Any] = ["configured": true, "backend": stored.backend, "clientId": stored.clientID.map { $0 as Any } ?? JSONOutput.null,
                                     "trustedDomains": stored.trustedDomains, "allowHTTPLoopback": stored.loopbackHTTP,
                                     "users": users.map { ["user": $0.identity, "state": $0.state.rawValue, "canSign": $0.canSign] }]
        CommandSupport.output(options, object, text: "configured for \(stored.backend)" + (stored.loopbackHTTP ? " (plain http to loopback allowed)" : "")
                                + "\n" + (users.isEmpty ? "no users" : users.map { "\(line($0.identity))\t\($0.state.rawValue)" }.joined(separator: "\n")))
    }

    /// Forgets the user `<user-id>` of the configured backend here (nothing is sent: the platform
    /// keeps no per-device registration to revoke).
    static func remove(_ options: CommandOptions) async throws {
        let id = try options.argument(0, "the user id")
        guard let stored = try stored(options) else { throw StateError(description: "not configured (mfa mpin configure --base-url URL)") }
        let client = try client(options, stored)
        guard let user = try await client.allUsers().first(where: { $0.identity == id && $0.backend == stored.backend }) else {
            throw StateError(description: "no user \(id) at this backend (mfa mpin status)")
        }
        try await client.deleteUser(user)
        CommandSupport.output(options, ["removed": id], text: "removed \(id)")
    }

    /// `--hash` as bytes: a usage error unless it is hex of whole bytes.
    static func documentHash(_ options: CommandOptions) throws -> [UInt8] {
        let text = try options.require("--hash")
        do { return try Hex.decode(text) } catch {
            throw UsageError(description: "--hash is the document hash in hex (an even number of 0-9a-f digits)")
        }
    }

    static func dispatch(_ verb: String, _ options: CommandOptions) async throws {
        if verb == "configure" { return try await configure(options) }
        if verb == "status" { return try await status(options) }
        if verb == "remove" { return try await remove(options) }
        // The command line is checked before the backend is asked anything.
        let hash = verb == "sign" ? try documentHash(options) : []
        let client = try await configuredClient(options)
        switch verb {
        case "service":
            let service = try await client.serviceDetails(for: try options.argument(0, "the QR text"))
            CommandSupport.output(options, ["name": service.name, "backend": service.backendURL], text: "\(line(service.name)) at \(line(service.backendURL))")
        case "session":
            let session = try await client.sessionDetails(accessCode: try options.argument(0, "the access code"))
            CommandSupport.output(options, ["appName": session.appName, "customer": session.customerName, "prerollId": session.prerollID],
                                  text: "\(line(session.appName)) (\(line(session.customerName)))" + (session.prerollID.isEmpty ? "" : " for \(line(session.prerollID))"))
        case "verify":
            let id = try options.argument(0, "user-id")
            let user = try await existingOrNew(client, id, options)
            try await client.startVerification(for: user, accessCode: options.values["--access-code"])
            CommandSupport.output(options, ["user": id, "state": "startedVerification"], text: "verification e-mail sent to \(id); then: mfa mpin confirm \(id) (the code from the terminal or standard input, or --code-file F)")
        case "confirm":
            let user = try await user(client, options)
            let code = try SecretInput.requiredText(options, "--code", prompt: "verification code: ", what: "the verification code")
            let result = try await client.finishVerification(for: user, code: code)
            CommandSupport.output(options, ["activationToken": result.activationToken, "accessCode": result.accessCode.map { $0 as Any } ?? JSONOutput.null],
                                  text: "verified; activation token \(line(result.activationToken))\nregister with: mfa mpin register \(user.identity) "
                                    + "--with-code-file FILE (the token in a file of mode 0600) or --with-code - (paste it)")
        case "register":
            try await register(client, options)
        case "users":
            let all = options.flags.contains("--all") ? try await client.allUsers() : try await client.users()
            CommandSupport.output(options, all.map { ["user": $0.identity, "state": $0.state.rawValue, "backend": $0.backend, "canSign": $0.canSign] },
                                  text: all.isEmpty ? "no users" : all.map { "\(line($0.identity))\t\($0.state.rawValue)\($0.canSign ? "\tcan sign" : "")" }.joined(separator: "\n"))
        case "authenticate":
            try await authenticate(client, options)
        case "signing-register":
            let user = try await user(client, options)
            try await client.startSigningRegistration(for: user, pin: try pin(options))
            let signer = try await client.finishSigningRegistration(for: user, signingPIN: try pin(options, "--signing-pin", prompt: "signing PIN: "))
            CommandSupport.output(options, ["user": signer.identity, "canSign": signer.canSign], text: "\(signer.identity) can sign")
        case "sign":
            let user = try await user(client, options)
            let timestamp = try options.values["--timestamp"].map { text throws -> Int32 in
                guard let value = Int32(text) else { throw UsageError(description: "--timestamp is Unix seconds") }
                return value
            } ?? Int32(truncatingIfNeeded: Int(Date().timeIntervalSince1970))
            let signature = try await client.sign(documentHash: hash, timestamp: timestamp, for: user, pin: try pin(options))
            let object: [String: Any] = ["hash": Hex.encode(signature.hash), "mpinId": signature.mpinID, "u": Hex.encode(signature.u),
                                         "v": Hex.encode(signature.v), "publicKey": Hex.encode(signature.publicKey), "dtas": signature.dtas,
                                         "timestamp": Int(signature.timestamp)]
            CommandSupport.output(options, object, text: JSONOutput.render(object))
        default:
            throw UsageError(description: "unknown verb \(verb) (see mfa mpin --help)")
        }
    }

    static func existingOrNew(_ client: MPinClient, _ id: String, _ options: CommandOptions) async throws -> MPinUser {
        if let user = try await client.user(id: id) { return user }
        return try await client.makeUser(identity: id, deviceName: options.values["--device-name"])
    }

    /// Starts (or resumes) a registration, fetches the client secret, then asks for the PIN.
    static func register(_ client: MPinClient, _ options: CommandOptions) async throws {
        let id = try options.argument(0, "user-id")
        var user = try await existingOrNew(client, id, options)
        if user.state == .invalid || user.state == .startedVerification {
            let code = try SecretInput.read(options, "--with-code", prompt: "activation token or registration code: ", required: false)
                .map { try SecretInput.text($0, "the activation token") }
            user = try await client.startRegistration(for: user, accessCode: options.values["--access-code"], registrationCode: code)
        }
        if user.state == .startedRegistration {
            let confirmed: Result<MPinUser, MPinError>
            do { confirmed = .success(try await client.confirmRegistration(for: user)) } catch { confirmed = .failure(error) }
            if case .failure(let error) = confirmed, error.code == .identityNotVerified {
                throw MPinError(.identityNotVerified, "\(id) is not verified yet; open the e-mailed link, then run this again")
            }
            user = try confirmed.get()
        }
        guard user.state == .activated else { throw StateError(description: "\(id) is \(user.state.rawValue), not activated") }
        let pin = try pin(options)
        let pinLength = options.values["--pin-length"] == nil ? nil : try options.integer("--pin-length", default: 4, in: 1...9)   // default: the PIN's digits
        user = try await client.finishRegistration(for: user, pin: pin, pinLength: pinLength)
        CommandSupport.output(options, ["user": id, "state": user.state.rawValue, "mpinId": user.mpinID], text: "\(id) registered")
    }

    static func authenticate(_ client: MPinClient, _ options: CommandOptions) async throws {
        let user = try await user(client, options)
        if options.flags.contains("--otp") {
            try await client.prepareAuthentication(for: user)
            let otp = try await client.generateOTP(for: user, pin: try pin(options))
            CommandSupport.output(options, ["otp": otp.code, "ttlSeconds": otp.timeToLive ?? 0], text: "OTP \(line(otp.code)) (valid \(otp.timeToLive ?? 0) s)")
        } else if options.flags.contains("--registration-code") {
            try await client.prepareAuthentication(for: user)
            let code = try await client.generateRegistrationCode(for: user, pin: try pin(options))
            CommandSupport.output(options, ["registrationCode": code.code, "ttlSeconds": code.timeToLive ?? 0],
                                  text: "registration code \(line(code.code)) (valid \(code.timeToLive ?? 0) s)")
        } else if let url = options.values["--authorization-url"] {
            let accessCode = try await client.accessCode(authorizationURL: url)
            try await client.prepareAuthentication(for: user, accessCode: accessCode)
            let code = try await client.authorizationCode(for: user, pin: try pin(options), accessCode: accessCode)
            CommandSupport.output(options, ["authorizationCode": code], text: "authorization code \(line(code))")
        } else {
            let accessCode = try options.values["--access-code"] ?? options.values["--qr"].flatMap(MPinClient.accessCode(inQRText:)) ?? {
                throw UsageError(description: "--access-code, --qr, --authorization-url, --otp or --registration-code is required")
            }()
            try await client.prepareAuthentication(for: user, accessCode: accessCode)
            try await client.authenticate(user, pin: try pin(options), accessCode: accessCode)
            CommandSupport.output(options, ["user": user.identity, "authenticated": true], text: "\(user.identity) logged in to session \(accessCode.prefix(8))…")
        }
    }
}
