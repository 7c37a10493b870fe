// The `powerauth` service of mfa-server: one
// application and its activations on top of `PowerAuthServer`, answering every client endpoint
// of docs/protocols/powerauth.md §15 (PowerAuthStandIn+Standard.swift) and a small integration API for tests
// and demos (PowerAuthStandIn+Integration.swift). Each activation speaks the protocol version it
// was created with (3.0–3.3), read from the request's `X-PowerAuth-Encryption` header. State
// lives in memory. Protocol upgrade from v2 (§14.1) is not served: no v2 activation can exist here.

import CryptoPrimitives
import Foundation
import PowerAuth
import PowerAuthServer
import ProtocolSupport

/// One application and its activations, answering by path.
public actor PowerAuthStandIn {
    let application: PowerAuthServer.Application
    var activations: [String: PowerAuthServer.Activation] = [:]
    /// Recovery codes by code text (each activation gets one with one PUK; postcards have more).
    var recoveryCodes: [String: PowerAuthServer.RecoveryCode] = [:]
    /// Activation codes issued and not yet used.
    var issuedCodes: Set<String> = []
    /// MAC tokens by id, with the activation they belong to.
    var tokens: [String: (token: PowerAuth.Token, activationID: String)] = [:]
    /// 3.3 temporary keys by id, with the activation they are bound to (nil: application scope).
    var temporaryKeys: [String: (key: P256.KeyAgreement.PrivateKey, activationID: String?)] = [:]
    var random = SystemRandomSource()
    var nextID = 1
    /// A fault the next standard-endpoint answer carries (set through the integration API).
    var nextFault: String?
    /// What `/pa/v3/activation/status` adds as `customObject`.
    var customObject: [String: Any] = ["server": "mfa-server"]
    /// Where the state is kept between runs (PowerAuthStandIn+State.swift), if anywhere.
    var stateFile: String?

    /// A stand-in with a fresh application, in memory only.
    public init() throws {
        var random = SystemRandomSource()
        self.init(application: try PowerAuthServer.Application(using: &random))
    }

    init(application: PowerAuthServer.Application) {
        self.application = application
    }

    /// A stand-in for `application` with `state`'s records, kept in `stateFile` (written at once).
    init(application: PowerAuthServer.Application, restoring state: State?, stateFile: String) async throws {
        self.application = application
        self.stateFile = stateFile
        if let state { try restore(state) }
        try persist()
    }

    /// Answers `request` (path without the leading slash); nil for a path it does not serve.
    /// With a state file, the state is written before the answer is returned; a state that
    /// cannot be written is a 500 (the answer is withheld: the client must not act on state the
    /// server may forget).
    public func handle(_ request: HTTPRequest) -> HTTPResponse? {
        let answer = answer(request)
        do { try persist() } catch {
            return HTTPResponse(status: 500, body: Array("mfa-server: the state file cannot be written: \(error)".utf8))
        }
        return answer
    }

    private func answer(_ request: HTTPRequest) -> HTTPResponse? {
        if request.path.hasPrefix("pa/"), let fault = nextFault {
            nextFault = nil
            return faulty(fault, answering: request)
        }
        do {
            if request.path.hasPrefix("pa/v3/") { return try standard(request) }
            if request.path.hasPrefix("integration/powerauth/") { return try integration(request) }
            if request.path.hasPrefix("app/") { return try applicationEndpoint(request) }
            return nil
        } catch let error as ProtocolError {
            // The core's own codes become the §14.2 ones a PowerAuth server sends.
            let code: ProtocolError.Code = error.code.rawValue.hasPrefix("ERR_") || error.code.rawValue.hasPrefix("POWERAUTH_") ? error.code
                : error.code == .decryptionFailed ? .powerAuthEncryption : .powerAuthGeneric
            return PowerAuthServer.errorResponse(code, message: error.message)
        } catch {
            return PowerAuthServer.errorResponse(.powerAuthGeneric, message: "bad request")
        }
    }

    /// Answers a POST of `body` to `path`, without headers (the integration API needs none).
    public func handle(method: String, path: String, body: [UInt8]) -> HTTPResponse? {
        handle(HTTPRequest(method: HTTPMethod(rawValue: method), path: path, body: body))
    }

    /// A broken answer: a 500 with an HTML page, a 401 with a §14.2 envelope, the real answer
    /// 8 s late, or the real answer with its body cut in half.
    private func faulty(_ fault: String, answering request: HTTPRequest) -> HTTPResponse {
        switch fault {
        case "garbage500":
            return HTTPResponse(status: 500, body: Array("<html><body>Internal error".utf8))
        case "envelope401":
            return PowerAuthServer.errorResponse(.powerAuthAuthentication, message: "authentication failed")
        case "slow":
            // The real answer, held back 8 s by the HTTP layer (far past the tests' 1 s timeout even on a loaded machine) (MFAServer reads this header).
            var answer = self.answer(request) ?? HTTPResponse(status: 404)
            answer.headers.append(HTTPHeader(MFAServer.delayHeader, "8000"))
            return answer
        default:
            var answer = self.answer(request) ?? HTTPResponse(status: 404)
            answer.body = Array(answer.body.prefix(answer.body.count / 2))
            return answer
        }
    }

    // MARK: Helpers shared by the endpoints

    /// The value of `key="…"` in a PowerAuth header.
    static func field(_ name: String, of header: String) -> String? {
        guard let start = header.range(of: name + "=\"") else { return nil }
        let rest = header[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }

    /// Verifies the request's `X-PowerAuth-Authorization` over its body for `uriID` and returns
    /// the activation id; a signature that fails (or an activation that is not active) is the
    /// §14.2 `ERR_AUTHENTICATION` (HTTP 401) after the failed attempt is counted.
    func verifySignature(_ request: HTTPRequest, uriID: String, body: [UInt8]? = nil,
                         refusing refused: Set<PowerAuth.SignatureFactors> = []) throws -> String {
        guard let header = request.header("X-PowerAuth-Authorization"), let id = Self.field("pa_activation_id", of: header),
              var activation = activations[id] else {
            throw ProtocolError(.powerAuthAuthentication, "missing or unknown signature header")
        }
        if let type = Self.field("pa_signature_type", of: header), let factors = PowerAuth.SignatureFactors(rawValue: type),
           refused.contains(factors) {
            throw ProtocolError(.powerAuthAuthentication, "signature type \(type) is not allowed here")
        }
        let verdict = activation.verify(header: header, method: request.method.rawValue, uriID: uriID, body: body ?? request.body ?? [],
                                        applicationSecret: application.applicationSecret)
        activations[id] = activation
        guard case .valid = verdict else { throw ProtocolError(.powerAuthAuthentication, "signature refused") }
        return id
    }

    /// The 3.3 temporary key a request body names, checked against the scope it must belong to.
    func temporaryKey(in body: [UInt8], activationID: String?) throws -> (key: P256.KeyAgreement.PrivateKey, id: String)? {
        let request = try PowerAuth.ECIES.Request(jsonBytes: body)
        guard let id = request.temporaryKeyID else { return nil }
        guard let entry = temporaryKeys[id], entry.activationID == activationID else {
            throw ProtocolError(.powerAuthTemporaryKey, "unknown temporary key")
        }
        return (entry.key, id)
    }

    /// Decrypts an activation-scope body, runs `answer` on the plaintext and encrypts its result.
    func encrypted(_ body: [UInt8], activationID: String, sharedInfo1: PowerAuth.ECIES.SharedInfo1,
                   answer: ([UInt8]) throws -> [UInt8]) throws -> HTTPResponse {
        guard let activation = activations[activationID] else { throw ProtocolError(.powerAuthActivation, "no such activation") }
        let (plaintext, encryptor) = try activation.decrypt(body, sharedInfo1: sharedInfo1, application: application,
                                                            temporaryKey: try temporaryKey(in: body, activationID: activationID))
        let response = try encryptor.encrypt(try answer(plaintext), timestamp: Self.milliseconds(), using: &random)
        return HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")], body: response.json.bytes)
    }

    static func ok(_ object: [String: Any] = [:]) -> HTTPResponse {
        json(object.isEmpty ? ["status": "OK"] : ["status": "OK", "responseObject": object])
    }

    static func json(_ object: [String: Any]) -> HTTPResponse {
        let data: Data
        do { data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) } catch {
            preconditionFailure("internal error: strings, numbers and booleans did not serialise")
        }
        return HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")], body: Array(data))
    }

    static func object(_ body: [UInt8]) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
            throw ProtocolError(.malformedInput, "the body is not a JSON object")
        }
        return object
    }

    static func milliseconds() -> UInt64 { UInt64(Date().timeIntervalSince1970 * 1000) }
}
