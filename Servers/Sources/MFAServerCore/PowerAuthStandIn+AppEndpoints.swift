// Demo application endpoints for the networking layer:
// `POST /app/{basic|signed|token}/{plain|application|activation}` — every
// kind of endpoint with and without end-to-end encryption in both scopes. Each opens the body
// (decrypting it when encrypted), checks the PowerAuth signature over the plaintext (uriId
// `/app/signed`, sign-then-encrypt §7.7) or the `X-PowerAuth-Token`, and answers
// `{"status":"OK","responseObject":{"echo":<requestObject>,"activationId":…}}`, encrypted the
// same way. A request object with `"fail": true` is refused with an application error envelope
// (`APP_REFUSED`, HTTP 400), encrypted when the endpoint is; authentication failures are the
// plain §14.2 `ERR_AUTHENTICATION` with HTTP 401.

import CryptoPrimitives
import Foundation
import PowerAuth
import PowerAuthServer
import ProtocolSupport

extension PowerAuthStandIn {
    func applicationEndpoint(_ request: HTTPRequest) throws -> HTTPResponse? {
        let parts = request.path.split(separator: "/").map(String.init)
        guard parts.count == 3, parts[0] == "app", ["basic", "signed", "token"].contains(parts[1]),
              ["plain", "application", "activation"].contains(parts[2]) else { return nil }
        let (kind, scope) = (parts[1], parts[2])
        let body = request.body ?? []
        let authorization = request.header("X-PowerAuth-Authorization")
        let tokenHeader = request.header("X-PowerAuth-Token")
        let encryptionHeader = request.header("X-PowerAuth-Encryption")
        let versionText = encryptionHeader.flatMap { Self.field("version", of: $0) } ?? authorization.flatMap { Self.field("pa_version", of: $0) }
        var activationID = encryptionHeader.flatMap { Self.field("activation_id", of: $0) } ?? authorization.flatMap { Self.field("pa_activation_id", of: $0) }
        if let tokenID = tokenHeader.flatMap({ Self.field("token_id", of: $0) }), let owner = tokens[tokenID]?.activationID { activationID = activationID ?? owner }

        // Open the body.
        let plaintext: [UInt8]
        var seal: (([UInt8]) throws -> [UInt8])?
        switch scope {
        case "application":
            guard let version = versionText.flatMap(PowerAuth.ProtocolVersion.init(rawValue:)) else {
                throw ProtocolError(.powerAuthEncryption, "no protocol version")
            }
            let temporary = try temporaryKey(in: body, activationID: nil)
            let (opened, encryptor) = try PowerAuth.ECIES.RequestDecryptor(
                privateKey: temporary?.key ?? application.masterAgreementKey,
                parameters: application.applicationScope(.applicationScopeGeneric, version: version, temporaryKeyID: temporary?.id))
                .decrypt(try PowerAuth.ECIES.Request(jsonBytes: body))
            plaintext = opened
            seal = { answer in try encryptor.encrypt(answer, timestamp: Self.milliseconds(), using: &self.random).json.bytes }
        case "activation":
            guard let id = activationID, let activation = activations[id] else { throw ProtocolError(.powerAuthActivation, "no activation") }
            let (opened, encryptor) = try activation.decrypt(body, sharedInfo1: .activationScopeGeneric, application: application,
                                                              temporaryKey: try temporaryKey(in: body, activationID: id))
            plaintext = opened
            seal = { answer in try encryptor.encrypt(answer, timestamp: Self.milliseconds(), using: &self.random).json.bytes }
        default:
            plaintext = body
        }

        // Authenticate.
        switch kind {
        case "signed":
            activationID = try verifySignature(request, uriID: "/app/signed", body: plaintext)
        case "token":
            guard let header = tokenHeader, let tokenID = Self.field("token_id", of: header), let (token, owner) = tokens[tokenID],
                  PowerAuthServer.isValidTokenHeader(header, token: token, now: Self.milliseconds()), activations[owner]?.state == .active else {
                throw ProtocolError(.powerAuthAuthentication, "token refused")
            }
            activationID = owner
        default:
            break
        }

        // Answer.
        let requestObject = try Self.object(plaintext)["requestObject"] ?? [String: Any]()
        let refused = (requestObject as? [String: Any])?["fail"] as? Bool == true
        let answer: [String: Any] = refused
            ? ["status": "ERROR", "responseObject": ["code": "APP_REFUSED", "message": "the request asked to be refused"]]
            : ["status": "OK", "responseObject": ["echo": requestObject, "activationId": activationID ?? "", "kind": "\(kind)/\(scope)"]]
        let json = Array(try JSONSerialization.data(withJSONObject: answer, options: [.sortedKeys, .withoutEscapingSlashes]))
        let out = try seal.map { try $0(json) } ?? json
        return HTTPResponse(status: refused ? 400 : 200, headers: [HTTPHeader("Content-Type", "application/json")], body: out)
    }
}
