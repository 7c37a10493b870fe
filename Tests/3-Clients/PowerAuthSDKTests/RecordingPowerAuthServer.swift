// A PowerAuth back end for the SDK's tests, handing each request to the shared
// `PowerAuthTestServer` (TestSupport, over `PowerAuthServer`) in process and recording every
// request it saw: activation/create (3.2), both status endpoints (with a server time the test
// sets, however absurd), signature/validate, token create, a token-protected application
// endpoint and a signed DELETE. The tests read what the server saw — no request at all, the
// factors of a signature, a failed attempt — not what the client says it did.

import AuthNetworking
import CryptoPrimitives
import Foundation
import PowerAuth
@_spi(Internals) import PowerAuthSDK
import PowerAuthServer
import ProtocolSupport
import SecureStore
import Testing
import ClientTestSupport
import TestSupport

/// The in-process back end. `serverTime` is sent as-is by `/pa/v3/status`.
actor RecordingPowerAuthServer: HTTPTransport {
    let application: PowerAuthServer.Application
    /// The shared test server, made by the first activation/create.
    private var core: PowerAuthTestServer?
    /// The server's activation record, once a client activated.
    var activation: PowerAuthServer.Activation? { core?.activation }
    private(set) var requests: [HTTPRequest] = []
    /// What `/pa/v3/signature/validate` received: the signature type and the body.
    private(set) var validations: [(factors: String, body: String, valid: Bool)] = []
    /// What the signed DELETE was verified over, whether it verified, and whether the same
    /// header would have verified over the canonical query instead.
    private(set) var deletions: [(signedOver: [UInt8], valid: Bool, queryValid: Bool)] = []
    private var tokens: [String: PowerAuth.Token] = [:]
    var serverTime: Int64 = 1_700_000_000_000
    var random = SeededRandomSource(seed: 77)

    init(application: PowerAuthServer.Application) {
        self.application = application
    }

    func setServerTime(_ time: Int64) { serverTime = time }

    /// The paths seen, in order.
    var paths: [String] { requests.map(\.path) }

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        requests.append(request)
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
            let core = try PowerAuthTestServer(application: application, version: .v3_2, activationID: "act-rec", seed: 78)
            let response = try core.activate(request).response
            self.core = core
            return response
        case "pa/v3/status":
            return HTTPResponse(status: 200, body: Array(#"{"status":"OK","responseObject":{"serverTime":\#(serverTime)}}"#.utf8))
        case "pa/v3/activation/status":
            return try core?.status(request) ?? HTTPResponse(status: 400)
        case "pa/v3/signature/validate":
            let valid = verify(request, method: "POST", uriID: "/pa/signature/validate", body: body)
            let factors = request.header("X-PowerAuth-Authorization").flatMap { Self.field("pa_signature_type", of: $0) } ?? ""
            validations.append((factors, String(decoding: body, as: UTF8.self), valid))
            return valid ? Self.ok : Self.error(401, "ERR_AUTHENTICATION")
        case "pa/v3/token/create":
            guard verify(request, method: "POST", uriID: "/pa/token/create", body: body), let activation else { return Self.error(401, "ERR_AUTHENTICATION") }
            let (_, encryptor) = try activation.decrypt(body, sharedInfo1: .createToken, application: application)
            let (token, plaintext) = try PowerAuthServer.issueToken(id: "token-\(tokens.count + 1)", using: &random)
            tokens[token.id] = token
            return HTTPResponse(status: 200, body: try encryptor.encrypt(plaintext, timestamp: 1_700_000_000_000, using: &random).json.bytes)
        case "api/hello":
            guard let header = request.header("X-PowerAuth-Token"), let id = Self.field("token_id", of: header), let token = tokens[id],
                  PowerAuthServer.isValidTokenHeader(header, token: token, now: UInt64(clamping: serverTime)) else { return Self.error(401, "ERR_AUTHENTICATION") }
            return HTTPResponse(status: 200, body: Array(#"{"status":"OK","responseObject":{"greeting":"hi"}}"#.utf8))
        case "api/item":
            // The server side of a signed DELETE: the signature's data is the body (docs/protocols/powerauth.md §7.2).
            // The query is tried first on a copy of the record, so that check moves no counter.
            var copy = activation
            let query = Array(PowerAuth.NormalizedData.canonicalQuery(request.query.map { ($0.name, $0.value) }).utf8)
            let queryValid = request.header("X-PowerAuth-Authorization").map { header in
                if case .valid = copy?.verify(header: header, method: "DELETE", uriID: "/api/item", body: query,
                                              applicationSecret: application.applicationSecret) { return true }
                return false
            } ?? false
            let valid = verify(request, method: "DELETE", uriID: "/api/item", body: body)
            deletions.append((body, valid, queryValid))
            return valid ? Self.ok : Self.error(401, "ERR_AUTHENTICATION")
        default:
            return HTTPResponse(status: 404)
        }
    }

    private func verify(_ request: HTTPRequest, method: String, uriID: String, body: [UInt8]) -> Bool {
        guard let header = request.header("X-PowerAuth-Authorization"),
              case .valid = core?.verification(header: header, method: method, uriID: uriID, body: body) else { return false }
        return true
    }

    /// Failed signature attempts the server has counted.
    var failedAttempts: UInt8 { activation?.failedAttempts ?? 0 }

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

/// A client, its store and the recording server, ready to activate.
struct SDKFixture {
    let application: PowerAuthServer.Application
    let server: RecordingPowerAuthServer
    let client: PowerAuthClient
    let store: SecureStore
    let directory: String
    let possession: SymmetricKey
    var random: SeededRandomSource

    /// A fresh store directory and a 3.2 client; `now` is the local clock in milliseconds,
    /// `clientRandom` and `logger` the client's configured random source (the system's unless
    /// given) and logger.
    static func make(seed: UInt64, now: UInt64 = 1_700_000_000_000, clientRandom: (any RandomSource & Sendable)? = nil,
                     logger: Logger? = nil) throws -> SDKFixture {
        var random = SeededRandomSource(seed: seed)
        let application = try PowerAuthServer.Application(using: &random)
        let server = RecordingPowerAuthServer(application: application)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pa-sdk-\(UUID().uuidString)").path
        let store = try SecureStore(directory: directory)
        let configuration = PowerAuthClient.Configuration(instanceID: "app", core: try application.clientConfiguration(baseURL: "https://pa.example.com"),
                                                          version: .v3_2, clock: { Date(timeIntervalSince1970: Double(now) / 1000) },
                                                          random: clientRandom ?? SystemRandomSource(), logger: logger)
        let client = try PowerAuthClient(configuration: configuration, store: store, transport: .single(server))
        let possession = try SymmetricKey(byteCount: 16, using: &random)
        return SDKFixture(application: application, server: server, client: client, store: store, directory: directory,
                          possession: possession, random: random)
    }

    /// A signed activation code issued by the application's master key.
    mutating func issuedCode() throws -> PowerAuth.ActivationCode {
        let (code, signature) = try application.issueActivationCode(using: &random)
        return try PowerAuth.ActivationCode(parsing: code + "#" + signature)
    }

    /// Activates and persists with `password`.
    mutating func activate(password: String = "1234") async throws -> Authentication {
        _ = try await client.createActivation(.code(try issuedCode()))
        let authentication = Authentication(possessionUnlockKey: possession, password: SecretBytes(password.utf8))
        try await client.persistActivation(authentication: authentication)
        return authentication
    }

    /// Advances the stored counter `steps` times without telling the server (signatures that
    /// never arrived).
    func advanceClientCounter(by steps: Int) throws {
        let activations = try ActivationStore(store: store, instanceID: "app")
        var activation = try #require(try activations.activation())
        for _ in 0..<steps { activation = activation.advanced }
        try activations.save(activation)
    }

    func cleanUp() { try? FileManager.default.removeItem(atPath: directory) }
}
