// `mfa powerauth call` (docs/design.md §3): one request to the application's own API, signed with a
// URI identifier, with a token, or not at all, optionally end-to-end encrypted. Bodies are
// `{"requestObject": …}` (docs/protocols/powerauth.md §16) and a token is recreated once on a 401 on either
// path; the
// SDK's own signed send, which signs a GET's canonical query (docs/protocols/powerauth.md §7.2) — the user
// never builds a canonical form. An encrypted POST goes through NetworkingService (it decrypts);
// every other call through the SDK's own send, whose answer is printed straight from the
// received bytes after one validating scan (JSONSlice.swift), so a large answer is held once. A token call proves possession of the token only, so it asks
// for no password (docs/protocols/powerauth.md §11.3).

import AuthNetworking
import CryptoPrimitives
import FoundationEssentials
import MFACommandLine
import PowerAuth
import PowerAuthNetworking
import PowerAuthSDK
import ProtocolSupport

extension PowerAuthCommand {
    /// The methods `--method` accepts.
    static let callMethods: [String: HTTPMethod] = ["GET": .get, "POST": .post, "PUT": .put, "DELETE": .delete]

    /// What `call`'s options ask for, checked before anything is read or sent.
    struct CallRequest {
        let path: String
        let method: HTTPMethod
        let query: [(String, String)]
        let encryption: EndToEndEncryption
        let uriID: String?
        let token: String?
        /// The request object from `--body-file`; nil when none was given.
        let object: JSONText?
    }

    /// Reads and checks `call`'s options: the method, each `--query K=V`, the encryption scope
    /// and the body (a JSON value), with a usage error for any contradiction.
    static func callRequest(_ options: Options) throws -> CallRequest {
        let path = try options.require("--path")
        let methodName = (options.values["--method"] ?? "POST").uppercased()
        guard let method = callMethods[methodName] else { throw UsageError(description: "--method is GET, POST, PUT or DELETE") }
        let query = try (options.repeated["--query"] ?? []).map { pair throws(UsageError) -> (String, String) in
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw UsageError(description: "--query takes KEY=VALUE, not \(pair)")
            }
            return (String(pair[..<equals]), String(pair[pair.index(after: equals)...]))
        }
        let encryption: EndToEndEncryption = switch options.values["--encrypt"] {
        case nil: .notEncrypted
        case "application": .applicationScope
        case "activation": .activationScope
        default: throw UsageError(description: "--encrypt is application or activation")
        }
        // docs/protocols/powerauth.md §9: the ECIES envelope is a POST body; a query would travel in clear.
        if encryption != .notEncrypted, method != .post || !query.isEmpty {
            throw UsageError(description: "--encrypt is for a POST without --query")
        }
        if options.values["--uri-id"] != nil, options.values["--token"] != nil {
            throw UsageError(description: "--uri-id and --token are two ways to sign: give one")
        }
        // Factors or a password for a request nothing signs would be silently dropped.
        if options.values["--uri-id"] == nil, options.values["--token"] == nil, encryption != .activationScope,
           options.values["--factors"] != nil || options.secretSource("--password") != nil {
            throw UsageError(description: "--factors and --password sign a request: give --uri-id ID (or --token NAME)")
        }
        if options.values["--token"] != nil, options.values["--factors"] != nil || options.secretSource("--password") != nil {
            throw UsageError(description: "a token call proves possession of the token: --factors and --password belong to token create")
        }
        if method == .get, options.values["--body-file"] != nil {
            throw UsageError(description: "a GET has no body: give its parameters with --query")
        }
        let object: JSONText? = try options.values["--body-file"].map { file in
            do { return try JSONResponse.decode(JSONText.self, from: try readFile(file), what: "request object") } catch let error as UsageError {
                throw error
            } catch {
                throw UsageError(description: "the body file is not JSON")
            }
        }
        return CallRequest(path: path, method: method, query: query, encryption: encryption, uriID: options.values["--uri-id"],
                           token: options.values["--token"], object: object)
    }

    /// Sends the request and prints the answer's `responseObject`, nested as JSON under `--json`.
    static func call(_ options: Options) async throws {
        let request = try callRequest(options)
        let configured = try configuredClient(options)
        let client = configured.client, possession = configured.possession
        let authentication: Authentication?
        if let token = request.token {
            // docs/protocols/powerauth.md §11.3: the token header proves possession of the token; no password. A
            // token is created only by `token create`: a mistyped name must not make a new one.
            guard try await client.hasLocalToken(named: token) else {
                throw StateError(description: "no token \(token) on this device (mfa powerauth token create \(token))")
            }
            authentication = Authentication(possessionUnlockKey: possession)
        } else if request.uriID != nil || request.encryption == .activationScope {
            authentication = try self.authentication(options, possession: possession, defaultFactors: .possessionKnowledge)
        } else {
            authentication = nil
        }
        if request.encryption == .notEncrypted {
            let response = try await send(request, configured, authentication: authentication)
            return try printAnswer(options, response)
        }
        let answer: JSONText?
        if request.method == .post, request.query.isEmpty {
            let endpoint: Endpoint<JSONText, JSONText> = if let uriID = request.uriID {
                .signed(request.path, uriID: uriID, encryption: request.encryption)
            } else if let token = request.token {
                .signedWithToken(request.path, tokenName: token, encryption: request.encryption)
            } else {
                .basic(request.path, encryption: request.encryption)
            }
            var serviceConfiguration = NetworkingService.Configuration(serviceName: "mfa")
            serviceConfiguration.recreatesRefusedTokens = false   // tokens are made by `token create` only
            let service = try NetworkingService(configuration: serviceConfiguration, client: client, transport: .single(configured.transport))
            answer = try await service.post(request.object ?? .object([]), to: endpoint, authentication: authentication)
        } else {
            answer = try self.answer(try await send(request, configured, authentication: authentication))
        }
        output(options, ["responseObject": answer.map { $0 as Any } ?? JSONOutput.null], text: answer?.text ?? "null")
    }

    /// Prints the answer's `responseObject` (or the whole JSON answer) from its bytes: as
    /// `{"responseObject": …}` under `--json`, else as text with control characters replaced.
    static func printAnswer(_ options: Options, _ response: HTTPResponse) throws {
        try requireSuccess(response)
        guard !response.body.isEmpty else {
            return output(options, ["responseObject": JSONOutput.null], text: "null")
        }
        let range: Range<Int>
        do { range = try JSONSlice.responseObject(in: response.body) } catch {
            throw PowerAuthSDKError(.invalidResponse, "the answer is not JSON", httpStatus: response.status)
        }
        let slice = response.body[range]
        if options.json {
            CommandSupport.outputRaw([(Array("{\"responseObject\":".utf8)[...], false), (slice, false), (Array("}\n".utf8)[...], false)])
        } else {
            CommandSupport.outputRaw([(slice, true), (Array("\n".utf8)[...], false)])
        }
    }

    /// Any method, with a query: signed by the SDK (a GET's canonical query, docs/protocols/powerauth.md §7.2),
    /// with the token's header, or plain; through the same send policy as the SDK's own requests.
    static func send(_ call: CallRequest, _ configured: Configured, authentication: Authentication?) async throws -> HTTPResponse {
        let client = configured.client
        var body: [UInt8]?
        if call.method != .get, call.object != nil || call.method != .delete {
            body = JSONText.object([("requestObject", call.object ?? .object([]))]).bytes
        }
        let path = call.path.hasPrefix("/") ? String(call.path.dropFirst()) : call.path
        let request = HTTPRequest(method: call.method, path: path, query: call.query.map { HTTPHeader($0.0, $0.1) },
                                  headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("Accept", "application/json")], body: body)
        if let uriID = call.uriID, let authentication {
            return try await client.sendSignedRequest(request, uriID: uriID, factors: authentication.factors, authentication: authentication)
        }
        let pipeline = SendPipeline.client(
            transport: configured.transport,
            urlRule: URLPolicyMiddleware(baseURL: configured.stored.baseURL, policy: urlPolicy(allowingLoopback: configured.stored.allowHTTPLoopback == true)),
            userAgent: SwiftMFAVersion.userAgent(component: "mfa"))
        guard let token = call.token else { return try await transmit(request, pipeline) }
        // A token is made only by `token create`, with the factors the user chose: a 401 (the
        // server no longer knows it) forgets it here and says how to make it again.
        var signed = request
        signed.headers.append(try await client.tokenHeader(named: token))
        let response = try await transmit(signed, pipeline)
        if response.status == 401 {
            try await client.removeLocalToken(named: token)
            throw PowerAuthSDKError(.authenticationFailed, "the server refused token \(token), which is forgotten here: "
                                    + "mfa powerauth token create \(token) makes a new one", httpStatus: 401)
        }
        return response
    }

    private static func transmit(_ request: HTTPRequest, _ pipeline: SendPipeline) async throws -> HTTPResponse {
        do { return try await pipeline.send(request) } catch { throw PowerAuthSDKError(noAnswer: error, "no answer from the server") }
    }

    /// Throws the server's refusal (its error envelope's code, or the status) for any answer
    /// but a 2xx (docs/protocols/powerauth.md §14.2).
    static func requireSuccess(_ response: HTTPResponse) throws {
        do { try PowerAuth.requireSuccess(response) } catch {
            throw PowerAuthSDKError(response.status == 401 ? .authenticationFailed : .server, "the server answered HTTP \(response.status)",
                                    httpStatus: response.status, protocolError: error)
        }
        guard response.isSuccess else { throw PowerAuthSDKError(.server, "the server answered HTTP \(response.status)", httpStatus: response.status) }
    }

    /// The `responseObject` of an OK envelope (docs/protocols/powerauth.md §14.2); nil for an empty body; an
    /// error envelope or status is the server's refusal, with its code.
    static func answer(_ response: HTTPResponse) throws -> JSONText? {
        try requireSuccess(response)
        if response.body.isEmpty { return nil }
        let body: JSONText
        do { body = try JSONResponse.decode(JSONText.self, from: response.body, what: "answer") } catch {
            throw PowerAuthSDKError(.invalidResponse, "the answer is not JSON", httpStatus: response.status)
        }
        guard case .object(let members) = body, let object = members.first(where: { $0.0 == "responseObject" })?.1 else { return body }
        return object
    }
}
