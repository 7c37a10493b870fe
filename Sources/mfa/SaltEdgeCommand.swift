// `mfa saltedge <verb>` (docs/design.md §3): the Salt Edge Authenticator client from a shell — configure, status,
// link a bank from its deep link, list connections, list, watch or show authorizations, confirm
// or deny one, consents, instant actions, remove. Connections and the settings `configure`
// stored (the loopback opt-out) live in the secure store, so each verb is one process.

package import MFACommandLine
import AuthNetworking
import CryptoPrimitives
import FoundationEssentials
import ProtocolSupport
import SaltEdge
import SaltEdgeSDK
import SecureStore

package enum SaltEdgeCommand {

    /// What `configure` stores: the settings every later verb uses.
    struct Stored: Codable {
        let loopbackHTTP: Bool
    }

    static let record = "mfa.saltedge.config"

    /// Runs `verb` (the command model has checked its options).
    package static func run(_ verb: String, _ options: CommandOptions) async -> Int32 {
        await CommandSupport.run("mfa saltedge", creatingStore: verb == "configure" || verb == "connect") { try await dispatch(verb, options) }
    }

    /// The stored settings; nil before `configure` (https only, then).
    static func stored(_ options: CommandOptions) throws -> Stored? {
        try options.store().read(record).map { try JSONDecoder().decode(Stored.self, from: Data($0.unsafeExposedBytes)) }
    }

    /// The client, with the URL policy `configure` stored.
    static func client(_ options: CommandOptions) throws -> SaltEdgeAuthenticatorClient {
        let loopback = try stored(options)?.loopbackHTTP == true
        let opened = try options.openStore()
        return SaltEdgeAuthenticatorClient(configuration: .init(urlPolicy: loopback ? .insecureAllowingPlainHTTPToLoopback : .httpsOnly,
                                                                deviceKeys: opened.deviceKeys),
                                           store: opened.store, transport: try CommandTransport.factory(options))
    }

    /// Stores the settings (the loopback opt-out); nothing is sent.
    static func configure(_ options: CommandOptions) throws {
        let stored = Stored(loopbackHTTP: options.flags.contains("--allow-http-loopback"))
        try options.store().write(SecretBytes(Array(try JSONEncoder().encode(stored))), to: record)
        CommandSupport.output(options, ["configured": true, "allowHTTPLoopback": stored.loopbackHTTP],
                              text: "configured" + (stored.loopbackHTTP ? " (plain http to loopback allowed)" : ""))
    }

    /// What is stored: the settings and the connections; nothing is sent.
    static func status(_ options: CommandOptions) async throws {
        guard try options.storeExists() else {
            return CommandSupport.output(options, ["configured": false, "allowHTTPLoopback": false, "connections": [Any]()],
                                         text: "not configured (https only)\nno connections")
        }
        let stored = try stored(options)
        let all = try await client(options).connections()
        CommandSupport.output(options, ["configured": stored != nil, "allowHTTPLoopback": stored?.loopbackHTTP == true, "connections": all.map(describe)],
                              text: (stored == nil ? "not configured (https only)" : "configured" + (stored?.loopbackHTTP == true ? " (plain http to loopback allowed)" : ""))
                                + "\n" + (all.isEmpty ? "no connections" : all.map { "\(line($0.id))\t\(line($0.name))\t\($0.isActive ? "active" : "inactive")" }
                                    .joined(separator: "\n")))
    }

    /// `--connection ID`, else the only stored connection.
    static func connectionID(_ options: CommandOptions, _ client: SaltEdgeAuthenticatorClient) async throws -> String {
        if let id = options.values["--connection"] { return id }
        let all = try await client.connections()
        guard all.count == 1, let only = all.first else {
            if all.isEmpty { throw StateError(description: "no connection (mfa saltedge connect)") }
            throw UsageError(description: "several connections: give --connection ID")
        }
        return only.id
    }

    static func dispatch(_ verb: String, _ options: CommandOptions) async throws {
        if verb == "configure" { return try configure(options) }
        if verb == "status" { return try await status(options) }
        let client = try client(options)
        switch verb {
        case "connect":
            let pending = try await client.beginConnection(deepLink: try options.argument(0, "the deep link"))
            CommandSupport.output(options, ["connectionId": pending.id, "authenticationURL": pending.authenticationURL],
                                  text: "connection \(line(pending.id)) created; open \(line(pending.authenticationURL))\nthen: mfa saltedge complete \(line(pending.id)) <redirect URL>")
        case "complete":
            let connection = try await client.completeConnection(id: try options.argument(0, "the connection id"),
                                                                 redirectURL: try options.argument(1, "the redirect URL"))
            CommandSupport.output(options, describe(connection), text: "connected \(line(connection.id)) (\(line(connection.name)))")
        case "connections":
            let all = try await client.connections()
            CommandSupport.output(options, all.map(describe),
                                  text: all.isEmpty ? "no connections" : all.map { "\(line($0.id))\t\(line($0.name))\t\($0.isActive ? "active" : "inactive")" }.joined(separator: "\n"))
        case "rename":
            try await client.renameConnection(id: try options.argument(0, "the connection id"), to: try options.argument(1, "the name"))
            CommandSupport.output(options, ["renamed": true], text: "renamed")
        case "authorizations":
            let id = try await connectionID(options, client)
            if options.flags.contains("--watch") {
                let seconds = try options.seconds("--interval", default: 3, in: 0.1...86_400)
                for try await list in client.authorizationUpdates(connectionID: id, every: .milliseconds(CommandOptions.milliseconds(seconds))) {
                    print(options, list)
                }
            } else {
                print(options, try await client.authorizations(connectionID: id))
            }
        case "show":
            try await show(options, client)
        case "confirm", "deny":
            let id = try await connectionID(options, client)
            let authorization = try await client.authorization(id: try options.argument(0, "the authorization id"), connectionID: id)
            let status = verb == "confirm" ? try await client.confirm(authorization) : try await client.deny(authorization)
            CommandSupport.output(options, ["authorizationId": authorization.id, "status": status.rawValue],
                                  text: "\(verb == "confirm" ? "confirmed" : "denied") \(authorization.id): \(status.rawValue)")
        case "action":
            switch try await client.submitAction(deepLink: try options.argument(0, "the action link"), connectionID: options.values["--connection"]) {
            case .done(let returnTo):
                CommandSupport.output(options, ["done": true, "returnTo": returnTo.map { $0 as Any } ?? JSONOutput.null], text: "action done")
            case .needsDecision(let authorization, let connection, _):
                CommandSupport.output(options, ["authorizationId": authorization, "connectionId": connection],
                                      text: "confirm or deny authorization \(authorization): mfa saltedge confirm \(authorization) --connection \(connection)")
            }
        case "consents":
            let consents = try await client.consents(connectionID: try await connectionID(options, client))
            CommandSupport.output(options, consents.map { ["id": $0.id, "tppName": $0.tppName, "expiresAt": iso8601($0.expiresAt)] },
                                  text: consents.isEmpty ? "no consents" : consents.map { "\(line($0.id))\t\(line($0.tppName))\tuntil \(iso8601($0.expiresAt))" }
                                    .joined(separator: "\n"))
        case "revoke-consent":
            let consent = try options.argument(0, "consent-id")
            try await client.revokeConsent(id: consent, connectionID: try await connectionID(options, client))
            CommandSupport.output(options, ["revoked": consent], text: "revoked consent \(consent)")
        case "remove":
            let id = try options.argument(0, "the connection id")
            let local = options.flags.contains("--local")
            if local { try await client.removeConnectionLocally(id: id) } else { try await client.revokeConnection(id: id) }
            CommandSupport.output(options, ["removed": id, "local": local], text: local ? "forgot connection \(id) here" : "revoked connection \(id)")
        default:
            throw UsageError(description: "unknown verb \(verb) (see mfa saltedge --help)")
        }
    }

    /// A connection as a JSON object; `key` says where its key pair lives: `token` (generated in
    /// the store's PKCS #11 token) or `record` (sealed in the connection's record).
    static func describe(_ connection: StoredConnection) -> [String: Any] {
        ["id": connection.id, "name": connection.name, "provider": connection.providerName, "active": connection.isActive,
         "key": connection.keyLabel == nil ? "record" : "token"]
    }

    /// An authorization as a JSON object: its `description` (docs/protocols/saltedge-v2.md §7.1) nested as an
    /// object, the payment and extra details as objects of their own.
    static func describe(_ authorization: SaltEdge.Authorization) -> [String: Any] {
        let description = authorization.description
        var details: [String: Any] = [:]
        if let text = description.text { details["text"] = text }
        if let html = description.html { details["html"] = html }
        if let payment = description.payment { details["payment"] = payment.mapValues { $0.text as Any } }
        if let extra = description.extra { details["extra"] = extra.mapValues { $0.text as Any } }
        return ["id": authorization.id, "connectionId": authorization.connectionID, "title": authorization.title, "status": authorization.status.rawValue,
                "createdAt": iso8601(authorization.createdAt), "expiresAt": iso8601(authorization.expiresAt),
                "text": description.text ?? "", "description": details]
    }

    /// One line per update: a JSON array with `--json`, else one line per authorization.
    static func print(_ options: CommandOptions, _ list: [SaltEdge.Authorization]) {
        let objects = list.map(describe)
        CommandSupport.output(options, objects, text: list.isEmpty ? "no pending authorizations"
                                : list.map { "\(line($0.id))\t\(line($0.title))\tuntil \(iso8601($0.expiresAt))" }.joined(separator: "\n"))
    }

    static func iso8601(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle())
    }

    /// Whether `status` is a decision still being processed (docs/protocols/saltedge-v2.md §9).
    static func isProcessing(_ status: SaltEdge.AuthorizationStatus) -> Bool {
        status == .processing || status.rawValue.hasSuffix("_processing")
    }

    /// One authorization by id: while it is being processed its status is polled (the SDK's
    /// `Polling`, docs/protocols/saltedge-v2.md §9: every 3 s by default) up to `--timeout`; then a pending one is
    /// shown decrypted and a final one by its status.
    static func show(_ options: CommandOptions, _ client: SaltEdgeAuthenticatorClient) async throws {
        let connectionID = try await connectionID(options, client)
        let id = try options.argument(0, "the authorization id")
        let timeout = Duration.milliseconds(CommandOptions.milliseconds(try options.seconds("--timeout", default: 30, in: 0.1...3600)))
        let interval = Duration.milliseconds(CommandOptions.milliseconds(try options.seconds("--interval", default: 3, in: 0.1...60)))
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        // Any error ends the wait and is reported: a show is one question, not a watch.
        let polling = Polling(every: interval, backoff: .none, isFatal: { _ in true }) { () async throws(SaltEdgeClientError) in
            try await client.authorizationStatus(id: id, connectionID: connectionID)
        }
        var status: SaltEdge.AuthorizationStatus?
        for try await current in polling {
            status = current
            if !isProcessing(current) || clock.now.advanced(by: interval) > deadline { break }
        }
        guard let status else { throw SaltEdgeClientError(.cancelled, "cancelled while waiting for authorization \(id)") }
        if isProcessing(status) {
            throw SaltEdgeClientError(.transport, "authorization \(id) is still \(status.rawValue) after \(timeout) (--timeout to wait longer)")
        }
        if status.isFinal || status == .closed {
            CommandSupport.output(options, ["id": id, "connectionId": connectionID, "status": status.rawValue], text: "\(id): \(status.rawValue)")
            return
        }
        let authorization = try await client.authorization(id: id, connectionID: connectionID)
        let details = [authorization.description.text, authorization.description.payment.map { payment in
            payment.keys.sorted().map { "\($0): \(payment[$0]?.text ?? "")" }.joined(separator: ", ")
        }].compactMap { $0 }.filter { !$0.isEmpty }
        CommandSupport.output(options, describe(authorization),
                              text: "\(line(authorization.id))\t\(line(authorization.title))\t\(authorization.status.rawValue)\tuntil \(iso8601(authorization.expiresAt))"
                                + details.map { "\n" + line($0) }.joined())
    }
}
