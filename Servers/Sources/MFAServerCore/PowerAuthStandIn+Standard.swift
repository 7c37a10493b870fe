// The standard PowerAuth endpoints of mfa-server, every client endpoint of docs/protocols/powerauth.md §15:
// activation create/status/remove, tokens, vault, signature validation, recovery confirm, the
// 3.3 keystore, the server time and user info. Signature rules follow §11–§13: the vault needs
// two factors, recovery confirm possession_knowledge.

import CryptoPrimitives
import Foundation
import PowerAuth
import PowerAuthServer
import ProtocolSupport

extension PowerAuthStandIn {
    func standard(_ request: HTTPRequest) throws -> HTTPResponse? {
        let body = request.body ?? []
        switch request.path {
        case "pa/v3/activation/create": return try createActivation(request)
        case "pa/v3/activation/status": return try status(body)
        case "pa/v3/activation/remove":
            let id = try verifySignature(request, uriID: "/pa/activation/remove")
            activations[id]?.state = .removed
            tokens = tokens.filter { $0.value.activationID != id }
            return Self.ok()
        case "pa/v3/token/create":
            let id = try verifySignature(request, uriID: "/pa/token/create")
            return try encrypted(body, activationID: id, sharedInfo1: .createToken) { _ in
                let tokenID = UUID().uuidString.lowercased()
                let (token, plaintext) = try PowerAuthServer.issueToken(id: tokenID, using: &random)
                tokens[tokenID] = (token, id)
                return plaintext
            }
        case "pa/v3/token/remove":
            let id = try verifySignature(request, uriID: "/pa/token/remove")
            let tokenID = try (Self.object(body)["requestObject"] as? [String: Any])?["tokenId"] as? String ?? ""
            if tokens[tokenID]?.activationID == id { tokens[tokenID] = nil }
            return Self.ok(["tokenId": tokenID])
        case "pa/v3/vault/unlock":
            let id = try verifySignature(request, uriID: "/pa/vault/unlock", refusing: [.possession])
            guard let activation = activations[id] else { throw ProtocolError(.powerAuthActivation, "no such activation") }
            return try encrypted(body, activationID: id, sharedInfo1: .vaultUnlock) { _ in try activation.vaultUnlockAnswer() }
        case "pa/v3/signature/validate":
            _ = try verifySignature(request, uriID: "/pa/signature/validate")
            return Self.ok()
        case "pa/v3/recovery/confirm":
            let id = try verifySignature(request, uriID: "/pa/recovery/confirm", refusing: [.possession, .possessionBiometry])
            return try encrypted(body, activationID: id, sharedInfo1: .confirmRecoveryCode) { plaintext in
                let asked = try Self.object(plaintext)["recoveryCode"] as? String ?? ""
                guard var code = recoveryCodes[asked],
                      let answer = try PowerAuthServer.recoveryConfirmAnswer(plaintext, activationID: id, recoveryCode: &code) else {
                    throw ProtocolError(.powerAuthRecovery, "unknown recovery code")
                }
                recoveryCodes[asked] = code
                return answer
            }
        case "pa/v3/keystore/create": return try keystore(request)
        case "pa/v3/status":
            return Self.ok(["serverTime": Self.milliseconds()])
        case "pa/v3/user/info":
            guard let header = request.header("X-PowerAuth-Encryption"), let id = Self.field("activation_id", of: header) else {
                throw ProtocolError(.powerAuthUserInfo, "activation scope needed")
            }
            return try encrypted(body, activationID: id, sharedInfo1: .activationScopeGeneric) { _ in
                Array(try JSONSerialization.data(withJSONObject: ["sub": id, "name": "mfa-server user"], options: [.sortedKeys, .withoutEscapingSlashes]))
            }
        default:
            return nil
        }
    }

    /// activation/create (§5): the version from `X-PowerAuth-Encryption`, a 3.3 temporary key
    /// when the body names one; CODE (an issued code, used once), RECOVERY (code + PUK, the old
    /// activation removed) or CUSTOM identity. Every new activation gets a recovery code.
    private func createActivation(_ request: HTTPRequest) throws -> HTTPResponse {
        let versionText = request.header("X-PowerAuth-Encryption").flatMap { Self.field("version", of: $0) } ?? "3.2"
        guard let version = PowerAuth.ProtocolVersion(rawValue: versionText) else { throw ProtocolError(.powerAuthEncryption, "unknown version") }
        let temporary = version >= .v3_3 ? try temporaryKey(in: request.body ?? [], activationID: nil) : nil
        let received = try PowerAuthServer.ReceivedActivation(request, application: application, version: version,
                                                              encryptionKey: temporary?.key, temporaryKeyID: temporary?.id)
        let id = "act-\(nextID)"
        nextID += 1
        let attributes = received.request.identityAttributes
        switch received.request.type {
        case "CODE":
            let code = attributes["code"] ?? ""
            guard issuedCodes.remove(code) != nil else { throw ProtocolError(.powerAuthActivation, "unknown activation code") }
        case "RECOVERY":
            let asked = attributes["recoveryCode"] ?? ""
            guard var code = recoveryCodes[asked] else { throw ProtocolError(.powerAuthRecovery, "unknown recovery code") }
            switch code.redeem(puk: SecretBytes(Array((attributes["puk"] ?? "").utf8)), newActivationID: id) {
            case .accepted(let previous):
                if let previous { activations[previous]?.state = .removed }
            case .refused(let index):
                recoveryCodes[asked] = code
                return PowerAuthServer.errorResponse(.powerAuthRecovery, message: "wrong PUK", currentRecoveryPukIndex: index)
            case .notActive:
                recoveryCodes[asked] = code
                throw ProtocolError(.powerAuthRecovery, "the recovery code is not active")
            }
            recoveryCodes[asked] = code
        default:
            break  // CUSTOM: any identity is accepted here
        }
        let recovery = try PowerAuthServer.RecoveryCode.issue(activationID: id, using: &random)
        recoveryCodes[recovery.code] = recovery
        let (created, response) = try received.accept(activationID: id, recovery: recovery.activationRecovery,
                                                      timestamp: Self.milliseconds(), using: &random)
        activations[id] = created
        return response
    }

    /// activation/status (§6) with the configured `customObject` added to `responseObject`.
    private func status(_ body: [UInt8]) throws -> HTTPResponse {
        let id = try (Self.object(body)["requestObject"] as? [String: Any])?["activationId"] as? String ?? ""
        guard let activation = activations[id] else { throw ProtocolError(.powerAuthActivation, "no such activation") }
        var answer = try activation.status(HTTPRequest(method: .post, path: "pa/v3/activation/status", body: body), using: &random)
        var object = try Self.object(answer.body)
        var inner = object["responseObject"] as? [String: Any] ?? [:]
        inner["customObject"] = customObject
        object["responseObject"] = inner
        answer.body = Self.json(object).body
        return answer
    }

    /// keystore/create (§10): a fresh temporary key of the scope the request JWT names.
    private func keystore(_ request: HTTPRequest) throws -> HTTPResponse {
        let jwt = try (Self.object(request.body ?? [])["requestObject"] as? [String: Any])?["jwt"] as? String ?? ""
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = try? Base64.decode(parts[1], alphabet: .urlSafe, padded: false) else {
            throw ProtocolError(.powerAuthTemporaryKey, "malformed keystore JWT")
        }
        let activationID = try Self.object(payload)["activationId"] as? String
        let activation = try activationID.map { id throws in
            guard let activation = activations[id], activation.state == .active else { throw ProtocolError(.powerAuthActivation, "no such activation") }
            return activation
        }
        let key = try P256.KeyAgreement.PrivateKey(using: &random)
        let keyID = UUID().uuidString.lowercased()
        guard let answer = try PowerAuthServer.keystoreAnswer(request, application: application, activation: activation, temporaryKey: key.publicKey,
                                                              temporaryKeyID: keyID, now: Self.milliseconds()) else {
            throw ProtocolError(.powerAuthTemporaryKey, "the keystore JWT does not verify")
        }
        temporaryKeys[keyID] = (key, activationID)
        return answer
    }
}
