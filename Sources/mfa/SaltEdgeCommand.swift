// `mfa saltedge <verb>` (DESIGN.md §3): the Salt Edge Authenticator client from a shell — link a bank from its deep link,
// list connections, list or watch authorizations, confirm or deny one, consents, instant
// actions, revoke. Connections live in the secure store, so each verb is one process.

import MFACommandLine
import AuthNetworking
import FoundationEssentials
import ProtocolSupport
import SaltEdge
import SaltEdgeAuthenticator
import SecureStore

enum SaltEdgeCommand {

    /// Runs `verb` (the command model has checked its options).
    static func run(_ verb: String, _ options: CommandOptions) async -> Int32 {
        await CommandSupport.run("mfa saltedge") { try await dispatch(verb, options) }
    }

    static func client(_ options: CommandOptions) throws -> SaltEdgeAuthenticatorClient {
        SaltEdgeAuthenticatorClient(store: try options.store(), transport: { base in CommandTransport.make(baseURL: base) }, urlPolicy: options.flags.contains("--allow-http-loopback") ? .insecureAllowingPlainHTTPToLoopback : .httpsOnly)
    }

    /// `--connection ID`, else the only stored connection.
    static func connectionID(_ options: CommandOptions, _ client: SaltEdgeAuthenticatorClient) async throws -> String {
        if let id = options.values["--connection"] { return id }
        let all = try await client.connections()
        guard all.count == 1, let only = all.first else {
            throw UsageError(description: all.isEmpty ? "no connection (mfa saltedge connect)" : "several connections: give --connection ID")
        }
        return only.id
    }

    static func dispatch(_ verb: String, _ options: CommandOptions) async throws {
        let client = try client(options)
        switch verb {
        case "connect":
            let pending = try await client.beginConnection(deepLink: try options.argument(0, "the deep link"))
            CommandSupport.output(options, ["connection_id": pending.id, "authentication_url": pending.authenticationURL],
                                  text: "connection \(pending.id) created; open \(pending.authenticationURL)\nthen: mfa saltedge complete \(pending.id) <redirect URL>")
        case "complete":
            let connection = try await client.completeConnection(id: try options.argument(0, "the connection id"),
                                                                 redirectURL: try options.argument(1, "the redirect URL"))
            CommandSupport.output(options, describe(connection), text: "connected \(connection.id) (\(connection.name))")
        case "connections":
            let all = try await client.connections()
            CommandSupport.output(options, all.map(describe),
                                  text: all.isEmpty ? "no connections" : all.map { "\(line($0.id))\t\(line($0.name))\t\($0.isActive ? "active" : "inactive")" }.joined(separator: "\n"))
        case "rename":
            try await client.rename(connectionID: try options.argument(0, "the connection id"), to: try options.argument(1, "the name"))
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
        case "confirm", "deny":
            let id = try await connectionID(options, client)
            let authorization = try await client.authorization(id: try options.argument(0, "the authorization id"), connectionID: id)
            let status = verb == "confirm" ? try await client.confirm(authorization) : try await client.deny(authorization)
            CommandSupport.output(options, ["authorization_id": authorization.id, "status": status.rawValue],
                                  text: "\(verb == "confirm" ? "confirmed" : "denied") \(authorization.id): \(status.rawValue)")
        case "action":
            switch try await client.submitAction(deepLink: try options.argument(0, "the action link"), connectionID: options.values["--connection"]) {
            case .done(let returnTo):
                CommandSupport.output(options, ["done": true, "return_to": returnTo ?? ""], text: "action done")
            case .needsDecision(let authorization, let connection, _):
                CommandSupport.output(options, ["authorization_id": authorization, "connection_id": connection],
                                      text: "confirm or deny authorization \(authorization): mfa saltedge confirm \(authorization) --connection \(connection)")
            }
        case "consents":
            let id = try await connectionID(options, client)
            if let consent = options.values["--revoke"] {
                try await client.revokeConsent(id: consent, connectionID: id)
                CommandSupport.output(options, ["revoked": consent], text: "revoked consent \(consent)")
            } else {
                let consents = try await client.consents(connectionID: id)
                CommandSupport.output(options, consents.map { ["id": $0.id, "tpp_name": $0.tppName, "expires_at": iso8601($0.expiresAt)] },
                                      text: consents.isEmpty ? "no consents" : consents.map { "\(line($0.id))\t\(line($0.tppName))\tuntil \(iso8601($0.expiresAt))" }
                                        .joined(separator: "\n"))
            }
        case "revoke":
            let id = try options.argument(0, "the connection id")
            try await client.revoke(connectionID: id)
            CommandSupport.output(options, ["revoked": id], text: "revoked connection \(id)")
        default:
            throw UsageError(description: "unknown verb \(verb) (see mfa saltedge --help)")
        }
    }

    static func describe(_ connection: StoredConnection) -> [String: Any] {
        ["id": connection.id, "name": connection.name, "provider": connection.providerName, "active": connection.isActive]
    }

    /// One line per update: a JSON array with `--json`, else one line per authorization.
    static func print(_ options: CommandOptions, _ list: [SaltEdge.Authorization]) {
        let objects = list.map { ["id": $0.id, "title": $0.title, "status": $0.status.rawValue, "expires_at": iso8601($0.expiresAt),
                                  "text": $0.description.text ?? ""] as [String: Any] }
        CommandSupport.output(options, objects, text: list.isEmpty ? "no pending authorizations"
                                : list.map { "\(line($0.id))\t\(line($0.title))\tuntil \(iso8601($0.expiresAt))" }.joined(separator: "\n"))
    }

    static func iso8601(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle())
    }
}
