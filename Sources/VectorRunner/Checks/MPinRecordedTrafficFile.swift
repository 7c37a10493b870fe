// The recorded MIRACL platform traffic (mpin/mfa-sdk-core-recorded/*.json, mpin/README.md §B):
// every exchange is one case. A 2xx answer must parse with the MIRACL platform's parsers (MPinPlatform) and hold
// valid values (BN254CX points for every share, permit, U, UT and V; a 32-byte y; hash_mpin_id =
// SHA-256 of the M-Pin ID); an error answer must map to the outcome docs/protocols/mpin.md §7.1 documents for
// its step; an unresolved host is the transport error. Requests the browser or the relying party
// made are skipped with that reason. The flows themselves are replayed through MPinClient by
// MPinSDKTests.

import CryptoPrimitives
import FoundationEssentials
import MPinPlatform
import MPin
import ProtocolSupport
import VectorFormats

enum MPinRecordedTrafficFile {
    /// The checker when `json` is a recording (an array of `{request{context}, response{httpStatus}}`).
    static func checker(_ json: JSONValue) -> ((JSONValue, inout CaseLog) -> Void)? {
        let first = json.array?.first
        guard first?["request"]?["context"] != nil, first?["response"]?["httpStatus"] != nil else { return nil }
        return check
    }

    static func check(_ json: JSONValue, _ log: inout CaseLog) {
        for (index, entry) in log.array(json, "the top-level array").enumerated() {
            let context = entry["request"]?["context"]?.string ?? ""
            let id = "#\(index) \(context.prefix(60))"
            guard let method = entry["request"]?["method"]?.string, let url = entry["request"]?["url"]?.string,
                  let status = entry["response"]?["httpStatus"]?.int, let location = MPinPlatform.Location(url) else {
                log.fail(id, "", expected: "request{method,url} and response{httpStatus}", got: "missing")
                continue
            }
            let requestBody = entry["request"]?["data"]?.string ?? ""
            let responseBody = Array((entry["response"]?["data"]?.string ?? "").utf8)
            guard let step = step(method: method, path: location.path) else {
                log.skip(id, reason: "\(method) /\(location.path) is made by the browser or the relying party, not the device")
                continue
            }
            let problem = verdict(step: step, url: url, location: location, status: status, request: requestBody, response: responseBody)
            log.expect(problem == nil, id, "\(method) /\(location.path) → \(status)", expected: "parsed and valid, or the documented error", got: problem ?? "ok")
        }
    }

    /// The step of the device's client a request belongs to, or nil for the browser's requests.
    private static func step(method: String, path: String) -> MPinPlatform.Step? {
        let last = path.split(separator: "/").last.map(String.init) ?? ""
        switch (method, last) {
        case ("GET", "clientSettings"): return .clientSettings
        case ("GET", "service"): return .service
        case ("POST", "authorize"): return .authorize
        case ("POST", "codeStatus"): return .session
        case ("PUT", _) where path.hasSuffix("rps/user") || path.contains("rps/user/"): return .register
        case ("GET", "clientSecret"): return .clientSecret
        case ("GET", _) where path.contains("rps/signature/"): return .signature
        case ("GET", _) where path.contains("timePermit") || path.contains("timeperbit"): return .timePermit
        case ("POST", "pass1"): return .pass1
        case ("POST", "pass2"): return .pass2
        case ("POST", "authenticate"): return .authenticate
        case ("POST", "mpinAuthenticate") where path == "mpinAuthenticate": return .authenticate
        default: return nil
        }
    }

    /// nil when the exchange is as the client expects; else what is wrong.
    private static func verdict(step: MPinPlatform.Step, url: String, location: MPinPlatform.Location, status: Int,
                                request: String, response: [UInt8]) -> String? {
        if let problem = requestProblem(step: step, location: location, request: request) { return problem }
        guard status != 0 else { return step == .clientSettings ? nil : "no answer outside a backend test" }   // transport error
        guard (200..<300).contains(status) else {
            let reason = MPinPlatform.failure(status: status, step: step, body: response).failure
            if step == .timePermit && location.origin.contains("amazonaws") { return status == 404 ? nil : "storage answered \(status)" }
            let documented: [Int: MPinPlatform.Failure] = [401: .incorrectPIN, 410: .userBlocked, 412: .invalidAccessCode, 408: .requestExpired,
                                                           403: .notAuthorized]
            let expected = step == .authenticate ? documented[status] ?? .server : (status == 412 ? .invalidAccessCode : .server)
            return reason == expected ? nil : "HTTP \(status) at \(step.rawValue) maps to \(reason.rawValue), not \(expected.rawValue)"
        }
        do {
            try parse(step: step, url: url, location: location, body: response)
            return nil
        } catch {
            return error.description
        }
    }

    private static func requestProblem(step: MPinPlatform.Step, location: MPinPlatform.Location, request: String) -> String? {
        guard step == .pass1 || step == .pass2 else { return nil }
        let body: JSONValue
        do { body = try JSONValue.parse(Data(request.utf8)) } catch { return "the \(step.rawValue) request body is not JSON" }
        for name in step == .pass1 ? ["U", "UT"] : ["V"] {
            guard let text = body[name]?.string else { return "request without \(name)" }
            if name == "UT" && text.isEmpty { continue }
            guard (try? MPinPlatform.point(hex: text, what: name)) != nil, text.count == 130 else { return "\(name) is not a 65-byte BN254CX point" }
        }
        return nil
    }

    private static func parse(step: MPinPlatform.Step, url: String, location: MPinPlatform.Location, body: [UInt8]) throws(ProtocolError) {
        switch step {
        case .clientSettings:
            let backend = location.origin
            _ = try MPinPlatform.ClientSettings(responseBody: body, backend: backend)
        case .service: _ = try JSONResponse.decode(MPinPlatform.ServiceWire.self, from: body, what: "service")
        case .authorize:
            let wire = try JSONResponse.decode(MPinPlatform.AuthorizeWire.self, from: body, what: "authorize")
            guard MPinPlatform.accessCode(inQRText: wire.qrURL) != nil else { throw ProtocolError(.malformedInput, "qrURL without an access code") }
        case .session: _ = try JSONResponse.decode([String: JSONValue].self, from: body, what: "codeStatus")
        case .register:
            let wire = try MPinPlatform.RegisterWire(body: body)
            do { _ = try Hex.decode(wire.mpinId) } catch { throw ProtocolError(.malformedInput, "mpinId is not hex", cause: error) }
        case .signature:
            let wire = try MPinPlatform.SignatureWire(body: body)
            try Self.checkPoint(wire.clientSecretShare, what: "clientSecretShare")
            let mpinID = location.path.split(separator: "/").last.map(String.init) ?? ""
            let hashed = URLText.split("?" + wire.params)?.query.first { $0.name == "hash_mpin_id" }?.value
            let expected: String
            do { expected = Hex.encode(SHA256.hash(data: try Hex.decode(mpinID)).bytes) } catch { throw ProtocolError(error, "mpinId in the URL") }
            guard hashed == expected else { throw ProtocolError(.malformedInput, "hash_mpin_id is not SHA-256 of the M-Pin ID") }
        case .clientSecret:
            try Self.checkPoint(try MPinPlatform.ClientSecretWire(body: body).clientSecret, what: "clientSecret")
        case .timePermit:
            if location.path.contains("timePermit/") {
                _ = try MPinPlatform.point(hex: try JSONResponse.decode(MPinPlatform.TimePermitWire.self, from: body, what: "timePermit").timePermit, what: "timePermit")
            } else {
                _ = try MPinPlatform.point(hex: try JSONResponse.decode(MPinPlatform.SecondPermitWire.self, from: body, what: "timePermit").timePermit, what: "timePermit")
            }
        case .pass1:
            let wire = try JSONResponse.decode(MPinPlatform.Pass1Wire.self, from: body, what: "pass1")
            let y: [UInt8]
            do { y = try Hex.decode(wire.y) } catch { throw ProtocolError(error, "y") }
            guard y.count == 32 else { throw ProtocolError(.malformedInput, "y is not 32 bytes") }
        case .pass2: _ = try MPinPlatform.Pass2Wire(body: body)
        case .authenticate:
            if !body.isEmpty { _ = try JSONResponse.decode(MPinPlatform.AuthenticateWire.self, from: body, what: "authenticate") }
        case .dvsRegister, .verification, .signingSession, .jwks: break
        }
    }

    /// Whether a share read into secret bytes is a BN254CX point (a missing one is not).
    private static func checkPoint(_ share: SecretBytes?, what: String) throws(ProtocolError) {
        guard let share else { throw ProtocolError(.malformedInput, "\(what): missing") }
        do { _ = try share.withUnsafeBytes { (bytes) throws(CryptoError) in try BN254CX.G1(encoded: bytes) } } catch {
            throw ProtocolError(.malformedInput, "\(what): not a BN254CX point", cause: error)
        }
    }
}
