// An application back end for the networking service's tests, in process: `PowerAuthServer`
// answers the PowerAuth endpoints the service needs (activation/create 3.2, token/create, a
// signed `pa/v3/signature/validate`) and two application endpoints — `api/hello`, token-signed,
// and `api/pay`, signed with uriID `/api/pay`, whose first arrival can be held back so that a
// later request would overtake it. The tests read what the server verified (the counter each
// signature used, the failed attempts), not what the client says it did.

import AuthNetworking
import CryptoPrimitives
import Foundation
import PowerAuth
import PowerAuthNetworking
import PowerAuthSDK
import PowerAuthServer
import ProtocolSupport
import SecureStore
import Testing

/// The in-process back end.
actor NetworkingBackEnd: HTTPTransport {
    let application: PowerAuthServer.Application
    private(set) var activation: PowerAuthServer.Activation?
    private(set) var requests: [HTTPRequest] = []
    /// The signed `api/pay` requests in the order the server verified them: how many steps ahead
    /// of the server's counter each signature was (nil: refused), and the server's counter after.
    private(set) var payments: [(steps: Int?, counterAfter: Int)] = []
    /// How long the first `api/pay` request is held back before it is verified.
    var firstPaymentDelay: Duration = .zero
    private var paymentsArrived = 0
    private var tokens: [String: PowerAuth.Token] = [:]
    private var random = SeededRandomSource(seed: 78)

    init(application: PowerAuthServer.Application) {
        self.application = application
    }

    func holdFirstPayment(for delay: Duration) { firstPaymentDelay = delay }

    /// The paths seen, in order.
    var paths: [String] { requests.map(\.path) }

    /// Failed signature attempts the server has counted.
    var failedAttempts: UInt8 { activation?.failedAttempts ?? 0 }

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        requests.append(request)
        if request.path == "api/pay" {
            paymentsArrived += 1
            if paymentsArrived == 1, firstPaymentDelay > .zero { try? await Task.sleep(for: firstPaymentDelay) }
        }
        do {
            return try answer(request)
        } catch {
            return Self.error(400, "ERR_GENERIC")
        }
    }

    private func answer(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = request.body ?? []
        switch request.path {
        case "pa/v3/activation/create":
            let (created, _, response) = try PowerAuthServer.Activation.process(request, application: application, version: .v3_2,
                                                                                activationID: "act-net", timestamp: 2, using: &random)
            activation = created
            return response
        case "pa/v3/status":
            return HTTPResponse(status: 200, body: Array(#"{"status":"OK","responseObject":{"serverTime":1700000000000}}"#.utf8))
        case "pa/v3/signature/validate":
            return verify(request, method: "POST", uriID: "/pa/signature/validate", body: body) != nil ? Self.ok : Self.error(401, "ERR_AUTHENTICATION")
        case "pa/v3/token/create":
            guard verify(request, method: "POST", uriID: "/pa/token/create", body: body) != nil, let activation else {
                return Self.error(401, "ERR_AUTHENTICATION")
            }
            let (_, encryptor) = try activation.decrypt(body, sharedInfo1: .createToken, application: application)
            let (token, plaintext) = try PowerAuthServer.issueToken(id: "token-\(tokens.count + 1)", using: &random)
            tokens[token.id] = token
            return HTTPResponse(status: 200, body: try encryptor.encrypt(plaintext, timestamp: 1_700_000_000_000, using: &random).json.bytes)
        case "api/hello":
            guard let header = request.header("X-PowerAuth-Token"), let id = Self.field("token_id", of: header), let token = tokens[id],
                  PowerAuthServer.isValidTokenHeader(header, token: token, now: 1_700_000_000_000) else { return Self.error(401, "ERR_AUTHENTICATION") }
            return HTTPResponse(status: 200, body: Array(#"{"status":"OK","responseObject":{"greeting":"hi"}}"#.utf8))
        case "api/pay":
            let steps = verify(request, method: "POST", uriID: "/api/pay", body: body)
            payments.append((steps, activation?.counterIndex ?? -1))
            return steps != nil ? Self.ok : Self.error(401, "ERR_AUTHENTICATION")
        default:
            return HTTPResponse(status: 404)
        }
    }

    /// How many steps ahead of the server's counter the signature was, or nil when it does not verify.
    private func verify(_ request: HTTPRequest, method: String, uriID: String, body: [UInt8]) -> Int? {
        guard let header = request.header("X-PowerAuth-Authorization"),
              case .valid(let steps) = activation?.verify(header: header, method: method, uriID: uriID, body: body,
                                                          applicationSecret: application.applicationSecret) else { return nil }
        return steps
    }

    static let ok = HTTPResponse(status: 200, body: Array(#"{"status":"OK","responseObject":{}}"#.utf8))

    static func error(_ status: Int, _ code: String) -> HTTPResponse {
        HTTPResponse(status: status, body: Array(#"{"status":"ERROR","responseObject":{"code":"\#(code)","message":"refused"}}"#.utf8))
    }

    /// The value of `name="value"` in a PowerAuth header.
    static func field(_ name: String, of header: String) -> String? {
        guard let range = header.range(of: name + "=\"") else { return nil }
        let rest = header[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }
}

/// A PowerAuth client on a fresh store in front of a ``NetworkingBackEnd``, ready to activate.
struct NetworkingFixture {
    let application: PowerAuthServer.Application
    let server: NetworkingBackEnd
    let client: PowerAuthClient
    let directory: String
    let possession: SymmetricKey
    var random: SeededRandomSource

    /// A 3.2 client for `https://pa.example.com`, its clock fixed at 2023-11-14; the client's
    /// requests to `failing` fail with `failure` instead of reaching the back end.
    static func make(seed: UInt64, failing: String? = nil, with failure: TransportError.Kind = .cancelled) throws -> NetworkingFixture {
        var random = SeededRandomSource(seed: seed)
        let application = try PowerAuthServer.Application(using: &random)
        let server = NetworkingBackEnd(application: application)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pa-net-\(UUID().uuidString)").path
        let store = try SecureStore(directory: directory)
        let configuration = PowerAuthClient.Configuration(instanceID: "app", core: try application.clientConfiguration(baseURL: "https://pa.example.com"),
                                                          version: .v3_2, clock: { Date(timeIntervalSince1970: 1_700_000_000) })
        let transport: any HTTPTransport = failing.map { PathFailingTransport(server: server, path: $0, failure: failure) } ?? server
        let client = try PowerAuthClient(configuration: configuration, store: store, transport: .single(transport))
        let possession = try SymmetricKey(byteCount: 16, using: &random)
        return NetworkingFixture(application: application, server: server, client: client, directory: directory,
                                 possession: possession, random: random)
    }

    /// Activates with a code the application issued and persists with `password`.
    mutating func activate(password: String = "1234") async throws -> Authentication {
        let (code, signature) = try application.issueActivationCode(using: &random)
        _ = try await client.createActivation(.code(try PowerAuth.ActivationCode(parsing: code + "#" + signature)))
        let authentication = Authentication(possessionUnlockKey: possession, password: SecretBytes(password.utf8))
        try await client.persistActivation(authentication: authentication)
        return authentication
    }

    /// A service on the back end, configured with `configuration`.
    func service(_ configuration: NetworkingService.Configuration = NetworkingService.Configuration()) throws -> NetworkingService {
        try NetworkingService(configuration: configuration, client: client, transport: .single(server))
    }

    func cleanUp() { try? FileManager.default.removeItem(atPath: directory) }
}

/// The back end, except that requests to one path fail with a transport error of one kind.
struct PathFailingTransport: HTTPTransport {
    let server: NetworkingBackEnd
    let path: String
    let failure: TransportError.Kind

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        guard request.path != path else { throw TransportError(failure, underlying: "test") }
        return try await server.send(request)
    }
}
