// The `powerauth` service of mfa-server (issue "PowerAuth on a real wire", point 6), first part:
// the standard endpoints activation/create and activation/status on `PowerAuthServer`, and the
// integration API a test or a demo drives (the application's SDK configuration string, an
// activation code, signature verification for a back end). State lives in memory.

import Foundation
import PowerAuth
import PowerAuthServer
import ProtocolSupport
import CryptoPrimitives

/// One application and its activations, answering by path.
public actor PowerAuthStandIn {
    let application: PowerAuthServer.Application
    let version: PowerAuth.ProtocolVersion
    var activations: [String: PowerAuthServer.Activation] = [:]
    var random = SystemRandomSource()
    var nextID = 1
    /// A fault the next standard-endpoint answer carries (set through the integration API).
    var nextFault: String?

    /// A stand-in with a fresh application speaking `version` (3.0–3.2 in this release).
    public init(version: PowerAuth.ProtocolVersion = .v3_2) throws {
        var random = SystemRandomSource()
        application = try PowerAuthServer.Application(using: &random)
        self.version = version
    }

    /// Answers `path` (without the leading slash) with `body`; nil for a path it does not serve.
    public func handle(method: String, path: String, body: [UInt8]) -> HTTPResponse? {
        let request = HTTPRequest(method: HTTPMethod(rawValue: method), path: path, body: body)
        if path.hasPrefix("pa/"), let fault = nextFault {
            nextFault = nil
            return faulty(fault, answering: request)
        }
        do {
            switch path {
            case "pa/v3/activation/create":
                let id = "act-\(nextID)"
                nextID += 1
                let (created, _, response) = try PowerAuthServer.Activation.process(request, application: application, version: version,
                                                                                    activationID: id, timestamp: Self.milliseconds(),
                                                                                    using: &random)
                activations[id] = created
                return response
            case "pa/v3/activation/status":
                struct Body: Decodable { struct Inner: Decodable { let activationId: String }; let requestObject: Inner }
                let id = try JSONDecoder().decode(Body.self, from: Data(body)).requestObject.activationId
                guard let activation = activations[id] else {
                    return PowerAuthServer.errorResponse(.powerAuthActivation, message: "no such activation")
                }
                return try activation.status(request, using: &random)
            case "integration/powerauth/application":
                let configuration = try application.clientConfiguration(baseURL: "")
                return Self.json(["configurationString": configuration.configurationString, "applicationKey": application.applicationKey])
            case "integration/powerauth/activation/init":
                let (code, signature) = try application.issueActivationCode(using: &random)
                return Self.json(["activationCode": code, "activationSignature": signature])
            case "integration/powerauth/signature/verify":
                return try verify(body)
            case "integration/powerauth/fault":
                // {"fault": "garbage500" | "envelope401" | "cut"}: the next /pa/ answer carries it.
                struct Body: Decodable { let fault: String }
                nextFault = try JSONDecoder().decode(Body.self, from: Data(body)).fault
                return Self.json(["fault": nextFault ?? ""])
            case "integration/powerauth/activation/block":
                struct Body: Decodable { let activationId: String }
                let id = try JSONDecoder().decode(Body.self, from: Data(body)).activationId
                guard activations[id] != nil else { return PowerAuthServer.errorResponse(.powerAuthActivation, message: "no such activation") }
                activations[id]?.state = .blocked
                return Self.json(["activationId": id, "state": "BLOCKED"])
            default:
                return nil
            }
        } catch let error as ProtocolError {
            return PowerAuthServer.errorResponse(error.code, message: error.reason)
        } catch {
            return PowerAuthServer.errorResponse(.powerAuthGeneric, message: "bad request")
        }
    }

    /// A broken answer: a 500 with an HTML page, a 401 with a §14.2 envelope, or the real answer
    /// with its body cut in half.
    private func faulty(_ fault: String, answering request: HTTPRequest) -> HTTPResponse {
        switch fault {
        case "garbage500":
            return HTTPResponse(status: 500, body: Array("<html><body>Internal error".utf8))
        case "envelope401":
            return PowerAuthServer.errorResponse(.powerAuthAuthentication, message: "authentication failed")
        default:
            var answer = handleWithoutFaults(request) ?? HTTPResponse(status: 404)
            answer.body = Array(answer.body.prefix(answer.body.count / 2))
            return answer
        }
    }

    private func handleWithoutFaults(_ request: HTTPRequest) -> HTTPResponse? {
        handle(method: request.method.rawValue, path: request.path, body: request.body ?? [])
    }

    /// `{"activationId","method","uriId","body"(Base64),"header"}` → `{"valid":Bool,"failedAttempts":N}`.
    private func verify(_ body: [UInt8]) throws -> HTTPResponse {
        struct Body: Decodable { let activationId: String; let method: String; let uriId: String; let body: String; let header: String }
        let input = try JSONDecoder().decode(Body.self, from: Data(body))
        guard var activation = activations[input.activationId], let signed = Data(base64Encoded: input.body) else {
            return PowerAuthServer.errorResponse(.powerAuthActivation, message: "no such activation")
        }
        let verdict = activation.verify(header: input.header, method: input.method, uriID: input.uriId, body: Array(signed),
                                        applicationSecret: application.applicationSecret)
        activations[input.activationId] = activation
        let valid: Bool
        if case .valid = verdict { valid = true } else { valid = false }
        return Self.json(["valid": valid, "failedAttempts": Int(activation.failedAttempts)])
    }

    static func json(_ object: [String: Any]) -> HTTPResponse {
        let data: Data
        do { data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) } catch {
            preconditionFailure("internal error: strings, numbers and booleans did not serialise")
        }
        return HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")], body: Array(data))
    }

    static func milliseconds() -> UInt64 { UInt64(Date().timeIntervalSince1970 * 1000) }
}
