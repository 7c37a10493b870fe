// The MIRACL Trust API v2 of the M-Pin stand-in (`/trust/…`, docs/protocols/mpin.md §7.3), on the same
// identities, D-TAs and verifier as the MFA platform: the JWKS, verification and quick codes,
// registration where the client sends Pa with the signature request (every identity is a DVS
// identity), pass 1 / pass 2 / authenticate with scopes ending in an ES256 JWT, and signing
// sessions a relying party opens through the integration API. Errors take the v2 shape
// `{"error": {"code", "info"}}`.

import CryptoPrimitives
import Foundation
import MPin
import ProtocolSupport

/// A v2 error: HTTP status, `error.code`, `error.info`.
struct TrustError: Error {
    let status: Int
    let code: String
    let info: String
    init(_ status: Int, _ code: String, _ info: String = "") {
        self.status = status
        self.code = code
        self.info = info
    }
}

extension MPinStandIn {
    func trustAPI(_ request: HTTPRequest, route: [String]) throws -> HTTPResponse? {
        let body = { () throws -> [String: Any] in try CMStandIn.object(request.body.flatMap { $0.isEmpty ? nil : $0 } ?? Array("{}".utf8)) }
        switch (request.method, route.joined(separator: "/")) {
        case (.get, ".well-known/jwks"): return jwks()
        case (.post, "verification/email"): return try startVerification(try body())
        case (.post, "verification/confirmation"):
            do { return try confirmVerification(try body()) } catch { throw TrustError(400, "UNSUCCESSFUL_VERIFICATION") }
        case (.post, "verification/quickcode"): return try quickCode(try body())
        case (.put, "rps/v2/user"): return try trustRegister(try body())
        case (.post, "rps/v2/pass1"): return try pass1(try body())
        case (.post, "rps/v2/pass2"): return try pass2(try body())
        case (.post, "rps/v2/authenticate"): return try trustAuthenticate(try body())
        case (.get, "dta/dvsClientSecret"): return try secondDVSSecret(request)
        case (.post, "dvs/verify"): return try verifySignature(try body())
        case (.post, "dvs/session/details"):
            guard let id = try body()["id"] as? String, let session = signingSessions[id] else { throw TrustError(404, "NOT_FOUND") }
            return CMStandIn.json(["userID": session.userID, "hash": session.hash, "description": session.description, "status": session.status,
                                   "expireTime": Int(session.expires.timeIntervalSince1970)])
        case (.put, "dvs/session"): return try completeSigningSession(try body())
        case (.delete, "dvs/session"):
            guard let id = try body()["id"] as? String, signingSessions[id] != nil else { throw TrustError(404, "NOT_FOUND") }
            signingSessions[id]?.status = "aborted"
            return CMStandIn.json(["status": "aborted"])
        default:
            if request.method == .get, route.count == 4, route[0] == "rps", route[1] == "v2", route[2] == "signature" {
                return try trustSignature(mpinID: route[3], request)
            }
            return nil
        }
    }

    private func jwks() -> HTTPResponse {
        let raw = jwtKey.publicKey.rawRepresentation
        return CMStandIn.json(["keys": [["kty": "EC", "crv": "P-256", "kid": "mfa-server-1", "alg": "ES256", "use": "sig",
                                         "x": Base64.encode(raw.prefix(32), alphabet: .urlSafe, padded: false),
                                         "y": Base64.encode(raw.suffix(32), alphabet: .urlSafe, padded: false)]]])
    }

    /// An ES256 JWT over `claims`, signed with the platform key.
    func jwt(_ claims: [String: Any]) throws -> String {
        let header = Base64.encode(Array(#"{"alg":"ES256","kid":"mfa-server-1","typ":"JWT"}"#.utf8), alphabet: .urlSafe, padded: false)
        let payload = Base64.encode(Array(try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])), alphabet: .urlSafe, padded: false)
        let signature = try jwtKey.signature(for: Array((header + "." + payload).utf8)).rawRepresentation
        return header + "." + payload + "." + Base64.encode(signature, alphabet: .urlSafe, padded: false)
    }

    /// The claims of a JWT this platform signed, or nil.
    func claims(ofOwn jwt: String) -> [String: Any]? {
        let parts = jwt.split(separator: ".").map(String.init)
        guard parts.count == 3, let payload = try? Base64.decode(parts[1], alphabet: .urlSafe, padded: false),
              let signature = try? Base64.decode(parts[2], alphabet: .urlSafe, padded: false),
              let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature),
              jwtKey.publicKey.isValidSignature(ecdsa, for: Array((parts[0] + "." + parts[1]).utf8)) else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any]
    }

    /// `POST /verification/quickcode {projectId, jwt, deviceName}`: a `reg-code` JWT becomes a
    /// one-time code another device registers with.
    private func quickCode(_ body: [String: Any]) throws -> HTTPResponse {
        guard let token = body["jwt"] as? String, let claims = claims(ofOwn: token), claims["scope"] as? String == "reg-code",
              let userID = claims["sub"] as? String else { throw TrustError(401, "UNSUCCESSFUL_AUTHENTICATION", "not a reg-code JWT") }
        let code = String(Int(try random.bytes(count: 4).reduce(0) { $0 << 8 | Int($1) }) % 90_000_000 + 10_000_000)
        let expires = Date().addingTimeInterval(600)
        registrationCodes[code] = (userID, expires)
        return CMStandIn.json(["code": code, "expireTime": Int(expires.timeIntervalSince1970), "ttlSeconds": 600])
    }

    /// `PUT /rps/v2/user {userId, deviceName, activateCode}` → `{mpinId, regOTT, projectId}`.
    private func trustRegister(_ body: [String: Any]) throws -> HTTPResponse {
        guard let userID = body["userId"] as? String, !userID.isEmpty, let code = body["activateCode"] as? String else {
            throw TrustError(400, "INVALID_REQUEST", "userId and activateCode are required")
        }
        if activationTokens[code] == userID {
            activationTokens[code] = nil
        } else if let registration = registrationCodes[code], registration.userID == userID, registration.expires > Date() {
            registrationCodes[code] = nil
        } else {
            throw TrustError(403, "INVALID_ACTIVATION_TOKEN")
        }
        let issued: [String: Any] = ["issuedAt": Int(Date().timeIntervalSince1970), "userID": userID, "projectId": projectID, "salt": try hex(16), "v": 2]
        let text = Array(try JSONSerialization.data(withJSONObject: issued, options: [.sortedKeys]))
        let mpinID = Hex.encode(text)
        identities[mpinID] = Identity(mpinID: mpinID, userID: userID, identity: MPin.Identity(text), regOTT: try hex(16), verified: true,
                                      expires: Date().addingTimeInterval(3600))
        return CMStandIn.json(["mpinId": mpinID, "regOTT": identities[mpinID]?.regOTT ?? "", "projectId": projectID])
    }

    /// `GET /rps/v2/signature/{mpinId}?regOTT=…&publicKey=…`: the identity becomes mpinId ‖ Pa.
    private func trustSignature(mpinID: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let value = { (name: String) in request.query.first { $0.name == name }?.value ?? "" }
        guard var identity = identities[mpinID], identity.expires > Date() else { throw TrustError(404, "EXPIRED_MPINID") }
        guard value("regOTT") == identity.regOTT else { throw TrustError(403, "INVALID_REGOTT") }
        guard let keyBytes = try? Hex.decode(value("publicKey")), let publicKey = try? MPin.DVS.PublicKey(rawRepresentation: keyBytes) else {
            throw TrustError(400, "INVALID_PUBLIC_KEY")
        }
        identity = Identity(mpinID: mpinID, userID: identity.userID, identity: MPin.Identity(mpinID: try Hex.decode(mpinID), dvsPublicKey: publicKey),
                            regOTT: "", verified: true, expires: .distantFuture, publicKey: publicKey)
        identities[mpinID] = identity
        let share = MPin.Issuer.clientSecretShare(shares[0], for: identity.identity)
        let url = trustBackendURL + "/dta/dvsClientSecret?mpin_id=" + mpinID + "&signature=" + parameterSignature("dvs|" + mpinID)
        return CMStandIn.json(["dvsClientSecretShare": Hex.encode(share.rawRepresentation.unsafeExposedBytes), "cs2url": url, "curve": "BN254CX",
                               "dtas": "mfa-server"])
    }

    /// `POST /rps/v2/authenticate {authOTT, wam}` → `{jwt}`; 401 `UNSUCCESSFUL_AUTHENTICATION`,
    /// 410 `REVOKED_MPINID` once blocked.
    private func trustAuthenticate(_ body: [String: Any]) throws -> HTTPResponse {
        guard let authOTT = body["authOTT"] as? String, let outcome = outcomes.removeValue(forKey: authOTT),
              var identity = identities[outcome.mpinID] else { throw TrustError(412, "INVALID_AUTHOTT") }
        guard !identity.blocked else { throw TrustError(410, "REVOKED_MPINID") }
        guard outcome.accepted else {
            identity.wrongPINs += 1
            identity.blocked = identity.wrongPINs >= maximumWrongPINs
            identities[outcome.mpinID] = identity
            throw identity.blocked ? TrustError(410, "REVOKED_MPINID") : TrustError(401, "UNSUCCESSFUL_AUTHENTICATION")
        }
        identity.wrongPINs = 0
        identities[outcome.mpinID] = identity
        if let wid = outcome.accessCode {
            guard var session = sessions[wid], session.status != "abort" else { throw TrustError(412, "INVALID_SESSION") }
            session.authenticatedUser = identity.userID
            session.status = "authenticated"
            sessions[wid] = session
        }
        let now = Int(Date().timeIntervalSince1970)
        return CMStandIn.json(["jwt": try jwt(["sub": identity.userID, "scope": outcome.scope ?? "", "aud": projectID, "iss": trustBackendURL,
                                               "iat": now, "exp": now + 300])])
    }

    /// `PUT /dvs/session {id, signature, timestamp}`: the signature must verify (docs/protocols/mpin.md §7.4).
    private func completeSigningSession(_ body: [String: Any]) throws -> HTTPResponse {
        guard let id = body["id"] as? String, let session = signingSessions[id], session.status == "active" else { throw TrustError(404, "NOT_FOUND") }
        guard (body["signature"] as? [String: Any])?["hash"] as? String == session.hash else { throw TrustError(400, "HASH_MISMATCH") }
        do { _ = try verifySignature(body) } catch let error as CMStandIn.StandInError {
            throw TrustError(error.status, "INVALID_SIGNATURE", error.message)
        }
        signingSessions[id]?.status = "signed"
        return CMStandIn.json(["status": "signed"])
    }

    /// A signing session for `userID` over `hash` (the integration API plays the relying party).
    func openSigningSession(userID: String, hash: String, description: String) throws -> String {
        let id = try hex(8)
        signingSessions[id] = SigningSession(userID: userID, hash: hash, description: description, expires: Date().addingTimeInterval(600))
        return id
    }
}
