// The one PowerAuth back end of the client tests, over `PowerAuthServer`: in process as an
// `HTTPTransport` (the SDK and networking tests) or behind a loopback socket through
// `answer(_:)` (the `mfa` tests). It answers activation/create (3.2, with a bound recovery code
// when asked), both status endpoints, signature/validate, token/create, vault/unlock,
// recovery/confirm and four application endpoints — `api/hello` (token),
// `api/pay` (signed POST, uriID `/api/pay`), `api/items` (signed GET over the canonical query, or
// POST) and `api/item` (signed DELETE over the body) — and records what it verified, so a test
// reads what the server saw (no request at all, the factors of a signature, how many steps
// ahead a counter was, a failed attempt), not what the client says it did.

public import AuthNetworking
public import CryptoPrimitives
import Foundation
public import PowerAuth
public import PowerAuthServer
public import ProtocolSupport

/// A PowerAuth application's back end with one activation, its tokens, and a record of every
/// request and verification.
public final class PowerAuthTestBackEnd: HTTPTransport, @unchecked Sendable {
    /// Where the server's time comes from.
    public enum Clock: Sendable {
        /// Always this many milliseconds since 1970 (sent as-is by `/pa/v3/status`, however absurd).
        case fixed(Int64)
        /// The machine's clock.
        case system
    }

    /// What `pa/v3/signature/validate` received: the signature type, the body, the verdict.
    public typealias Validation = (factors: String, body: String, valid: Bool)
    /// A signed DELETE of `api/item`: the bytes it verified over, whether it verified, and
    /// whether the same header would have verified over the canonical query instead.
    public typealias Deletion = (signedOver: [UInt8], valid: Bool, queryValid: Bool)
    /// A signed `api/pay`: how many steps ahead of the server's counter the signature was (nil:
    /// refused), and the server's counter after it.
    public typealias Payment = (steps: Int?, counterAfter: Int)
    /// A call of `api/items` or `api/hello`: method, path, and whether its signature or token verified.
    public typealias Call = (method: String, path: String, valid: Bool)

    /// The application (its master key, APP_KEY and APP_SECRET).
    public let application: PowerAuthServer.Application
    private let activationID: String
    private let lock = NSLock()
    private var state: State

    private struct State {
        var clock: Clock
        var random: SeededRandomSource
        var activation: PowerAuthServer.Activation?
        var tokens: [String: PowerAuth.Token] = [:]
        var requests: [HTTPRequest] = []
        var validations: [Validation] = []
        var deletions: [Deletion] = []
        var payments: [Payment] = []
        var calls: [Call] = []
        var hold: (path: String, seconds: Double)?
        var held = 0
        var failNext: (status: Int, code: String)?
        var recoveryCodes: [String: PowerAuthServer.RecoveryCode] = [:]
    }

    /// The recovery code activation/create answers with (bound to the activation, active), when
    /// the back end was made with recovery codes.
    public let boundRecoveryCode: PowerAuthServer.RecoveryCode?
    /// A postcard's code for the same activation, created and not yet confirmed, when the back
    /// end was made with recovery codes.
    public let postcardCode: String?

    /// A back end for `application` whose activation gets the id `activationID`, drawing its own
    /// randomness from `seed`, its time from `clock`; with `recoveryCodes`, the activation comes
    /// with a bound recovery code and a postcard waits to be confirmed (docs/protocols/powerauth.md §13).
    public init(application: PowerAuthServer.Application, activationID: String = "act-test", seed: UInt64 = 78,
                clock: Clock = .fixed(1_700_000_000_000), recoveryCodes: Bool = false) throws {
        self.application = application
        self.activationID = activationID
        var random = SeededRandomSource(seed: seed)
        if recoveryCodes {
            let bound = try PowerAuthServer.RecoveryCode.issue(activationID: activationID, using: &random)
            let postcard = try PowerAuthServer.RecoveryCode.issue(pukCount: 3, activationID: activationID, state: .created, using: &random)
            boundRecoveryCode = bound
            postcardCode = postcard.code
            state = State(clock: clock, random: random, recoveryCodes: [bound.code: bound, postcard.code: postcard])
        } else {
            boundRecoveryCode = nil
            postcardCode = nil
            state = State(clock: clock, random: random)
        }
    }

    // MARK: What the server saw

    /// Every request, in order of arrival.
    public var requests: [HTTPRequest] { lock.withLock { state.requests } }
    /// The paths seen, in order.
    public var paths: [String] { requests.map(\.path) }
    /// The server's activation record, once a client activated.
    public var activation: PowerAuthServer.Activation? { lock.withLock { state.activation } }
    /// Failed signature attempts the server has counted.
    public var failedAttempts: UInt8 { activation?.failedAttempts ?? 0 }
    /// Every `pa/v3/signature/validate`.
    public var validations: [Validation] { lock.withLock { state.validations } }
    /// Every signed DELETE of `api/item`.
    public var deletions: [Deletion] { lock.withLock { state.deletions } }
    /// Every signed `api/pay`, in the order the server verified them.
    public var payments: [Payment] { lock.withLock { state.payments } }
    /// Every call of `api/items` and `api/hello`.
    public var calls: [Call] { lock.withLock { state.calls } }
    /// How many requests were held back by ``holdFirstArrival(at:for:)``.
    public var heldArrivals: Int { lock.withLock { state.held } }
    /// Where the server's copy of the recovery code `code` is in its lifecycle.
    public func state(ofRecoveryCode code: String) -> PowerAuthServer.RecoveryCode.State? { lock.withLock { state.recoveryCodes[code]?.state } }
    /// The server's KDF(KEY_ENCRYPTION_VAULT, index) (docs/protocols/powerauth.md §12), once activated.
    public func encryptionKey(index: UInt64) -> SymmetricKey? { lock.withLock { state.activation?.encryptionKey(index: index) } }
    /// The server's verification of an offline signature typed by the user (docs/protocols/powerauth.md §7.6).
    public func verifyOffline(_ signature: String, factors: PowerAuth.SignatureFactors, nonce: String,
                              data: [UInt8]) -> PowerAuthServer.SignatureVerification? {
        lock.withLock { state.activation?.verifyOffline(signature, factors: factors, nonce: nonce, data: data) }
    }

    // MARK: What the test sets

    /// Makes the server's clock `clock` from now on.
    public func setClock(_ clock: Clock) { lock.withLock { state.clock = clock } }

    /// Holds the first request to `path` back for `seconds` before it is verified, so that a
    /// request sent after it can reach the server first (``heldArrivals`` counts the holds that
    /// happened: a test that relies on one asserts it).
    public func holdFirstArrival(at path: String, for seconds: Double) { lock.withLock { state.hold = (path, seconds) } }

    /// Answers the next request, whatever it is, with a §14.2 error envelope of `status` and `code`.
    public func failNextRequest(status: Int, code: String) { lock.withLock { state.failNext = (status, code) } }

    /// Whether `header` verifies over `body` for `method` and `uriID` (the server's counter moves
    /// past a match; a failure is counted), as an application endpoint the test plays would check it.
    public func verifies(header: String, method: String = "POST", uriID: String, body: [UInt8]) -> Bool {
        lock.withLock {
            guard case .valid = state.activation?.verify(header: header, method: method, uriID: uriID, body: body,
                                                         applicationSecret: application.applicationSecret) else { return false }
            return true
        }
    }

    /// A signed activation code `CODE#SIGNATURE` the application issued.
    public func activationCode() throws -> String {
        try lock.withLock {
            let (code, signature) = try application.issueActivationCode(using: &state.random)
            return code + "#" + signature
        }
    }

    // MARK: Answering

    /// Answers `request` in process (a held-back request waits without blocking others).
    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let wait = arrive(request)
        if wait > 0 { try? await Task.sleep(for: .seconds(wait)) }   // a cancelled wait answers at once
        return respond(request)
    }

    /// Answers `request` on the calling thread (for a loopback socket's handler).
    public func answer(_ request: HTTPRequest) -> HTTPResponse {
        let wait = arrive(request)
        if wait > 0 { Thread.sleep(forTimeInterval: wait) }
        return respond(request)
    }

    /// Records the arrival; the seconds to hold it back (0 but for the first at the held path).
    private func arrive(_ request: HTTPRequest) -> Double {
        lock.withLock {
            state.requests.append(request)
            guard let hold = state.hold, hold.path == request.path else { return 0 }
            state.hold = nil
            state.held += 1
            return hold.seconds
        }
    }

    private func respond(_ request: HTTPRequest) -> HTTPResponse {
        lock.withLock {
            if let (status, code) = state.failNext {
                state.failNext = nil
                return Self.error(status, code)
            }
            do { return try handle(request) } catch { return Self.error(400, "ERR_GENERIC") }
        }
    }

    /// The server's time in milliseconds.
    private var now: Int64 {
        switch state.clock {
        case .fixed(let milliseconds): milliseconds
        case .system: Int64(Date().timeIntervalSince1970 * 1000)
        }
    }

    /// Called under the lock, which is not re-entrant: it reads and writes `state` directly and
    /// never calls the public accessors, which take the lock themselves.
    private func handle(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = request.body ?? []
        switch request.path {
        case "pa/v3/activation/create":
            let (created, _, response) = try PowerAuthServer.Activation.process(request, application: application, version: .v3_2,
                                                                                activationID: activationID,
                                                                                recovery: boundRecoveryCode?.activationRecovery,
                                                                                timestamp: UInt64(clamping: now), using: &state.random)
            state.activation = created
            return response
        case "pa/v3/status":
            return HTTPResponse(status: 200, body: Array(#"{"status":"OK","responseObject":{"serverTime":\#(now)}}"#.utf8))
        case "pa/v3/activation/status":
            guard let activation = state.activation else { return Self.error(400, "ERR_ACTIVATION") }
            return try activation.status(request, using: &state.random)
        case "pa/v3/signature/validate":
            let valid = verify(request, method: "POST", uriID: "/pa/signature/validate", body: body) != nil
            let factors = request.header("X-PowerAuth-Authorization").flatMap { Self.field("pa_signature_type", of: $0) } ?? ""
            state.validations.append((factors, String(decoding: body, as: UTF8.self), valid))
            return valid ? Self.ok : Self.error(401, "ERR_AUTHENTICATION")
        case "pa/v3/token/create":
            guard verify(request, method: "POST", uriID: "/pa/token/create", body: body) != nil, let activation = state.activation else {
                return Self.error(401, "ERR_AUTHENTICATION")
            }
            let (_, encryptor) = try activation.decrypt(body, sharedInfo1: .createToken, application: application)
            let (token, plaintext) = try PowerAuthServer.issueToken(id: "token-\(state.tokens.count + 1)", using: &state.random)
            state.tokens[token.id] = token
            return HTTPResponse(status: 200, body: try encryptor.encrypt(plaintext, timestamp: UInt64(clamping: now), using: &state.random).json.bytes)
        case "pa/v3/vault/unlock":
            // docs/protocols/powerauth.md §12: two factors at least; the answer is encrypted for the activation.
            guard let header = request.header("X-PowerAuth-Authorization"), !header.contains(#"pa_signature_type="possession""#),
                  verify(request, method: "POST", uriID: "/pa/vault/unlock", body: body) != nil, let activation = state.activation else {
                return Self.error(401, "ERR_AUTHENTICATION")
            }
            let (_, encryptor) = try activation.decrypt(body, sharedInfo1: .vaultUnlock, application: application)
            return HTTPResponse(status: 200, body: try encryptor.encrypt(try activation.vaultUnlockAnswer(), timestamp: UInt64(clamping: now),
                                                                         using: &state.random).json.bytes)
        case "pa/v3/recovery/confirm":
            guard verify(request, method: "POST", uriID: "/pa/recovery/confirm", body: body) != nil, let activation = state.activation else {
                return Self.error(401, "ERR_AUTHENTICATION")
            }
            let (plaintext, encryptor) = try activation.decrypt(body, sharedInfo1: .confirmRecoveryCode, application: application)
            let asked = (try JSONSerialization.jsonObject(with: Data(plaintext)) as? [String: Any])?["recoveryCode"] as? String ?? ""
            guard var code = state.recoveryCodes[asked],
                  let answer = try PowerAuthServer.recoveryConfirmAnswer(plaintext, activationID: activation.id, recoveryCode: &code) else {
                return Self.error(400, "ERR_RECOVERY")
            }
            state.recoveryCodes[asked] = code
            return HTTPResponse(status: 200, body: try encryptor.encrypt(answer, timestamp: UInt64(clamping: now), using: &state.random).json.bytes)
        case "api/hello":
            let valid = request.header("X-PowerAuth-Token").map { header in
                Self.field("token_id", of: header).flatMap { state.tokens[$0] }
                    .map { PowerAuthServer.isValidTokenHeader(header, token: $0, now: UInt64(clamping: now)) } ?? false
            } ?? false
            state.calls.append((request.method.rawValue, request.path, valid))
            return valid ? HTTPResponse(status: 200, body: Array(#"{"status":"OK","responseObject":{"greeting":"hi"}}"#.utf8))
                : Self.error(401, "ERR_AUTHENTICATION")
        case "api/pay":
            let steps = verify(request, method: "POST", uriID: "/api/pay", body: body)
            state.payments.append((steps, state.activation?.counterIndex ?? -1))
            return steps != nil ? Self.ok : Self.error(401, "ERR_AUTHENTICATION")
        case "api/items":
            // docs/protocols/powerauth.md §7.2: a GET is signed over the canonical form of the query that arrived.
            let valid = verify(request, method: request.method.rawValue, uriID: "/api/items",
                               body: request.method == .get ? Self.canonicalQuery(of: request) : body) != nil
            state.calls.append((request.method.rawValue, request.path, valid))
            let echo = request.query.map { #""\#($0.name)":"\#($0.value)""# }.joined(separator: ",")
            return valid ? HTTPResponse(status: 200, body: Array(#"{"status":"OK","responseObject":{"query":{\#(echo)},"count":2}}"#.utf8))
                : Self.error(401, "ERR_AUTHENTICATION", message: "signature not valid for \(activationID)")
        case "api/item":
            // A signed DELETE: the signature's data is the body (docs/protocols/powerauth.md §7.2). The query is
            // tried first on a copy of the record, so that check moves no counter.
            var copy = state.activation
            let queryValid = request.header("X-PowerAuth-Authorization").map { header in
                if case .valid = copy?.verify(header: header, method: "DELETE", uriID: "/api/item", body: Self.canonicalQuery(of: request),
                                              applicationSecret: application.applicationSecret) { return true }
                return false
            } ?? false
            let valid = verify(request, method: "DELETE", uriID: "/api/item", body: body) != nil
            state.deletions.append((body, valid, queryValid))
            return valid ? Self.ok : Self.error(401, "ERR_AUTHENTICATION")
        default:
            return HTTPResponse(status: 404)
        }
    }

    /// How many steps ahead of the server's counter the request's signature was, or nil when it
    /// does not verify (a failure is counted). Called under the lock.
    private func verify(_ request: HTTPRequest, method: String, uriID: String, body: [UInt8]) -> Int? {
        guard let header = request.header("X-PowerAuth-Authorization"),
              case .valid(let steps) = state.activation?.verify(header: header, method: method, uriID: uriID, body: body,
                                                                applicationSecret: application.applicationSecret) else { return nil }
        return steps
    }

    /// The canonical form of the query that arrived (docs/protocols/powerauth.md §7.2).
    static func canonicalQuery(of request: HTTPRequest) -> [UInt8] {
        Array(PowerAuth.NormalizedData.canonicalQuery(request.query.map { ($0.name, $0.value) }).utf8)
    }

    // MARK: Answers

    /// `{"status":"OK","responseObject":{}}`.
    public static let ok = HTTPResponse(status: 200, body: Array(#"{"status":"OK","responseObject":{}}"#.utf8))

    /// An error envelope (docs/protocols/powerauth.md §14.2) with `status`, `code` and `message`.
    public static func error(_ status: Int, _ code: String, message: String = "refused") -> HTTPResponse {
        HTTPResponse(status: status, body: Array(#"{"status":"ERROR","responseObject":{"code":"\#(code)","message":"\#(message)"}}"#.utf8))
    }

    /// The value of `name="value"` in a PowerAuth header.
    public static func field(_ name: String, of header: String) -> String? {
        guard let range = header.range(of: name + "=\"") else { return nil }
        let rest = header[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }
}
