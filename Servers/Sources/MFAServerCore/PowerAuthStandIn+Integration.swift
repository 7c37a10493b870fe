// mfa-server's integration API for PowerAuth: what
// a back end or a test drives — the application's SDK configuration string, activation codes,
// listing, blocking and unblocking activations, postcards, signature and token verification,
// faults — and two example application endpoints with end-to-end encryption (an echo in
// application and activation scope, and a signed-and-encrypted one, sign-then-encrypt §7.7).

import CryptoPrimitives
import Foundation
import PowerAuth
import PowerAuthServer
import ProtocolSupport

extension PowerAuthStandIn {
    func integration(_ request: HTTPRequest) throws -> HTTPResponse? {
        let body = request.body ?? []
        let input = body.isEmpty ? [:] : try Self.object(body)
        switch request.path.dropFirst("integration/powerauth/".count) {
        case "application":
            let configuration = try application.clientConfiguration(baseURL: "")
            return Self.json(["configurationString": configuration.configurationString, "applicationKey": application.applicationKey])
        case "activation/init":
            let (code, signature) = try application.issueActivationCode(using: &random)
            issuedCodes.insert(code)
            return Self.json(["activationCode": code, "activationSignature": signature])
        case "activation/list":
            let list = activations.values.sorted { $0.id < $1.id }.map { activation -> [String: Any] in
                ["activationId": activation.id, "state": "\(activation.state)", "version": activation.version.rawValue,
                 "failedAttempts": Int(activation.failedAttempts), "counter": activation.counterIndex]
            }
            return Self.json(["activations": list])
        case "activation/block", "activation/unblock", "activation/commit":
            let id = input["activationId"] as? String ?? ""
            guard activations[id] != nil else { throw ProtocolError(.powerAuthActivation, "no such activation") }
            let blocking = request.path.hasSuffix("block") && !request.path.hasSuffix("unblock")
            activations[id]?.state = blocking ? .blocked : .active
            return Self.json(["activationId": id, "state": blocking ? "BLOCKED" : "ACTIVE"])
        case "recovery/postcard":
            // {"activationId"} → a postcard code with three PUKs, CREATED until the device confirms it.
            let id = input["activationId"] as? String ?? ""
            guard activations[id] != nil else { throw ProtocolError(.powerAuthActivation, "no such activation") }
            let postcard = try PowerAuthServer.RecoveryCode.issue(pukCount: 3, activationID: id, state: .created, using: &random)
            recoveryCodes[postcard.code] = postcard
            let puks = postcard.puks.map { String(decoding: $0.unsafeExposedBytes, as: UTF8.self) }  // shown to the test, as on paper
            return Self.json(["recoveryCode": postcard.code, "puks": puks])
        case "signature/verify":
            return try verify(input)
        case "token/verify":
            // {"header"} → {"valid","activationId"}: what a back end does with X-PowerAuth-Token.
            let header = input["header"] as? String ?? ""
            let id = Self.field("token_id", of: header) ?? ""
            guard let (token, activationID) = tokens[id] else { return Self.json(["valid": false]) }
            let valid = PowerAuthServer.isValidTokenHeader(header, token: token, now: Self.milliseconds())
                && activations[activationID]?.state == .active
            return Self.json(["valid": valid, "activationId": activationID])
        case "token/expire":
            // {"activationId"}: the server forgets the activation's tokens (a token endpoint then answers 401).
            let id = input["activationId"] as? String ?? ""
            tokens = tokens.filter { $0.value.activationID != id }
            return Self.json(["activationId": id])
        case "fault":
            // {"fault": "garbage500" | "envelope401" | "slow" | "cut"}: the next /pa/ answer carries it.
            nextFault = input["fault"] as? String
            return Self.json(["fault": nextFault ?? ""])
        case "echo/application":
            return try echoApplication(request)
        case "echo/activation":
            guard let header = request.header("X-PowerAuth-Encryption"), let id = Self.field("activation_id", of: header) else {
                throw ProtocolError(.powerAuthEncryption, "activation scope needed")
            }
            return try encrypted(body, activationID: id, sharedInfo1: .activationScopeGeneric) { $0 }
        case "echo/signed":
            return try echoSigned(request)
        default:
            return nil
        }
    }

    /// `{"activationId","method","uriId","body"(Base64),"header"}` → `{"valid":Bool,"failedAttempts":N}`.
    private func verify(_ input: [String: Any]) throws -> HTTPResponse {
        let id = input["activationId"] as? String ?? ""
        guard var activation = activations[id], let signed = (input["body"] as? String).flatMap({ Data(base64Encoded: $0) }) else {
            throw ProtocolError(.powerAuthActivation, "no such activation")
        }
        let verdict = activation.verify(header: input["header"] as? String ?? "", method: input["method"] as? String ?? "",
                                        uriID: input["uriId"] as? String ?? "", body: Array(signed), applicationSecret: application.applicationSecret)
        activations[id] = activation
        let valid: Bool
        if case .valid = verdict { valid = true } else { valid = false }
        return Self.json(["valid": valid, "failedAttempts": Int(activation.failedAttempts)])
    }

    /// Application-scope echo: decrypts with the master key (3.0–3.2) or an application
    /// temporary key (3.3) and answers the same plaintext encrypted.
    private func echoApplication(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = request.body ?? []
        let versionText = request.header("X-PowerAuth-Encryption").flatMap { Self.field("version", of: $0) } ?? ""
        guard let version = PowerAuth.ProtocolVersion(rawValue: versionText) else { throw ProtocolError(.powerAuthEncryption, "unknown version") }
        let temporary = try temporaryKey(in: body, activationID: nil)
        let (plaintext, encryptor) = try PowerAuth.ECIES.RequestDecryptor(
            privateKey: temporary?.key ?? application.masterAgreementKey,
            parameters: application.applicationScope(.applicationScopeGeneric, version: version, temporaryKeyID: temporary?.id))
            .decrypt(try PowerAuth.ECIES.Request(jsonBytes: body))
        let response = try encryptor.encrypt(plaintext, timestamp: Self.milliseconds(), using: &random)
        return HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")], body: response.json.bytes)
    }

    /// A signed, activation-scope encrypted endpoint (`uriId` `/echo/signed`): decrypts, then
    /// verifies the signature over the plaintext (sign-then-encrypt, §7.7), and echoes.
    private func echoSigned(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = request.body ?? []
        guard let header = request.header("X-PowerAuth-Authorization"), let id = Self.field("pa_activation_id", of: header) else {
            throw ProtocolError(.powerAuthAuthentication, "missing signature header")
        }
        var plaintext: [UInt8] = []
        let answer = try encrypted(body, activationID: id, sharedInfo1: .activationScopeGeneric) { opened in
            plaintext = opened
            return opened
        }
        _ = try verifySignature(request, uriID: "/echo/signed", body: plaintext)
        return answer
    }
}

extension PowerAuthStandIn {
    /// What the server holds for `activationID`, for tests that check the client against it.
    public func activation(_ activationID: String) -> PowerAuthServer.Activation? { activations[activationID] }

    /// The server's side of `fetchEncryptionKey(index)` for `activationID` (§12).
    public func vaultEncryptionKey(activationID: String, index: UInt64) -> SymmetricKey? {
        activations[activationID]?.encryptionKey(index: index)
    }

    /// The recovery code issued with `activationID`, if any.
    public func recoveryCode(of activationID: String) -> PowerAuthServer.RecoveryCode? {
        recoveryCodes.values.first { $0.activationID == activationID && $0.puks.count == 1 }
    }

    /// Verifies an offline signature of `activationID` (§7.6) as a back end would.
    public func verifyOffline(activationID: String, signature: String, factors: PowerAuth.SignatureFactors, nonce: String,
                              data: [UInt8]) -> PowerAuthServer.SignatureVerification {
        guard var activation = activations[activationID] else { return .notActive }
        defer { activations[activationID] = activation }
        return activation.verifyOffline(signature, factors: factors, nonce: nonce, data: data)
    }
}
