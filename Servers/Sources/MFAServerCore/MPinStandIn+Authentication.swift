// Authentication, DVS registration and the relying party's signature check of the M-Pin
// stand-in (docs/protocols/mpin.md §7.1 items 6–7, §7.2, §7.4): pass 1 draws y, pass 2 verifies with one double
// pairing (MPin.Server.verify) and leaves an outcome under a fresh authOTT, and `authenticate`
// turns the outcome into a login, an authorization code, an OTP, a registration code or a DVS
// registration token — or 401, and 410 once the identity is blocked.

import CryptoPrimitives
import Foundation
import MPin
import ProtocolSupport

extension MPinStandIn {
    /// `POST /rps/pass1 {mpin_id, U, UT}` → `{y}`.
    func pass1(_ body: [String: Any]) throws -> HTTPResponse {
        guard let mpinID = body["mpin_id"] as? String, identities[mpinID] != nil else { throw CMStandIn.StandInError(403, "unknown M-Pin ID") }
        let u = try Self.point(body["U"], "U")
        let utText = body["UT"] as? String ?? ""
        let ut = utText.isEmpty ? nil : try Self.point(utText, "UT")
        let y = try BN254CX.Scalar.random(using: &random)
        pending[mpinID] = PendingPass(y: y, u: u, ut: ut, day: ut == nil ? nil : MPin.day(ofUnixTime: Int64(Date().timeIntervalSince1970)),
                                      scope: (body["scope"] as? [String])?.first)
        return CMStandIn.json(["y": Hex.encode(y.rawRepresentation.unsafeExposedBytes), "message": "OK", "pass": 1])
    }

    /// `POST /rps/pass2 {mpin_id, V, WID, OTP}` → `{authOTT[, OTP]}`; the verdict waits for
    /// `authenticate`, as on the platform (docs/protocols/mpin.md §7.1 item 6).
    func pass2(_ body: [String: Any]) throws -> HTTPResponse {
        guard let mpinID = body["mpin_id"] as? String, let identity = identities[mpinID], let first = pending.removeValue(forKey: mpinID) else {
            throw CMStandIn.StandInError(403, "no pass 1 for this M-Pin ID")
        }
        let v = try Self.point(body["V"], "V")
        verifications += 1
        let verdict = MPin.Server.verify(identity: identity.identity, day: first.day, challenge: first.y,
                                         client: .init(u: first.u, ut: first.ut, v: v), serverSecret: serverSecret,
                                         clientPublicKey: identity.publicKey)
        let accepted = verdict == .accepted
        let wid = body["WID"] as? String
        let otp = accepted && (body["OTP"] as? Bool ?? false) ? String(Int(try random.bytes(count: 3).reduce(0) { $0 << 8 | Int($1) }) % 900_000 + 100_000) : nil
        let authOTT = try hex(16)
        outcomes[authOTT] = Outcome(mpinID: mpinID, accepted: accepted, accessCode: wid == "0" || wid?.isEmpty == true ? nil : wid, otp: otp,
                                    scope: first.scope)
        var answer: [String: Any] = ["authOTT": authOTT, "pass": 2]
        if let otp { answer["OTP"] = otp }
        return CMStandIn.json(answer)
    }

    /// `POST /rps/authenticate {mpinResponse{authOTT}, authzRequest[, wam]}`.
    func authenticate(_ body: [String: Any]) throws -> HTTPResponse {
        guard let authOTT = (body["mpinResponse"] as? [String: Any])?["authOTT"] as? String, let outcome = outcomes.removeValue(forKey: authOTT),
              var identity = identities[outcome.mpinID] else {
            throw CMStandIn.StandInError(412, "Invalid or expired authOTT")
        }
        let failure = { (status: Int) in CMStandIn.json(["status": status, "message": "Authentication Failed. Invalid Token.", "code": ""], status: status) }
        guard !identity.blocked else { return failure(410) }
        guard outcome.accepted else {
            identity.wrongPINs += 1
            identity.blocked = identity.wrongPINs >= maximumWrongPINs
            identities[outcome.mpinID] = identity
            return failure(identity.blocked ? 410 : 401)
        }
        identity.wrongPINs = 0
        identities[outcome.mpinID] = identity
        if let wid = outcome.accessCode {
            guard var session = sessions[wid], session.status != "abort" else { throw CMStandIn.StandInError(412, "Invalid or expired access number") }
            session.authenticatedUser = identity.userID
            session.status = "authenticated"
            sessions[wid] = session
        }
        var answer: [String: Any] = ["status": 200, "message": "OK", "code": ""]
        let now = Date()
        if body["authzRequest"] as? Bool == true {
            let code = try hex(16)
            authorizationCodes[code] = identity.userID
            answer["code"] = code
        }
        if outcome.otp != nil {
            answer["expireTime"] = Int((now.timeIntervalSince1970 + 90) * 1000)
            answer["ttlSeconds"] = 90
            answer["nowTime"] = Int(now.timeIntervalSince1970 * 1000)
        }
        switch body["wam"] as? String {
        case "reg-code":
            let code = String(Int(try random.bytes(count: 4).reduce(0) { $0 << 8 | Int($1) }) % 90_000_000 + 10_000_000)
            registrationCodes[code] = (identity.userID, now.addingTimeInterval(600))
            answer["otp"] = code
            answer["expireTime"] = Int((now.timeIntervalSince1970 + 600) * 1000)
            answer["ttlSeconds"] = 600
            answer["nowTime"] = Int(now.timeIntervalSince1970 * 1000)
        case "dvs":
            let token = try hex(16)
            dvsTokens[token] = identity.userID
            answer["dvs-register-token"] = token
        default:
            break
        }
        return CMStandIn.json(answer)
    }

    /// `POST /rps/dvsregister {dvs-register-token, public-key}` (docs/protocols/mpin.md §7.2): a signing
    /// identity mpinId ‖ Pa, D-TA 1's share of it and the URL of D-TA 2's.
    func dvsRegister(_ body: [String: Any]) throws -> HTTPResponse {
        guard let token = body["dvs-register-token"] as? String, let userID = dvsTokens.removeValue(forKey: token) else {
            throw CMStandIn.StandInError(403, "invalid DVS registration token")
        }
        guard let keyHex = body["public-key"] as? String, let keyBytes = try? Hex.decode(keyHex),
              let publicKey = try? MPin.DVS.PublicKey(rawRepresentation: keyBytes) else {
            throw CMStandIn.StandInError(400, "public-key is not a G2 point")
        }
        let issued: [String: Any] = ["issuedAt": Int(Date().timeIntervalSince1970), "userID": userID, "cID": customerID, "mobile": 1,
                                     "salt": try hex(16), "v": 1, "dvs": 1]
        let text = Array(try JSONSerialization.data(withJSONObject: issued, options: [.sortedKeys]))
        let mpinID = Hex.encode(text)
        let identity = MPin.Identity(mpinID: text, dvsPublicKey: publicKey)
        identities[mpinID] = Identity(mpinID: mpinID, userID: userID, identity: identity, regOTT: "", verified: true,
                                      expires: .distantFuture, publicKey: publicKey)
        let share = MPin.Issuer.clientSecretShare(shares[0], for: identity)
        let url = backendURL + "/dta/dvsClientSecret?mpin_id=" + mpinID + "&signature=" + parameterSignature("dvs|" + mpinID)
        return CMStandIn.json(["cs2-url": url, "mpin-id": mpinID, "dvs-cs1": Hex.encode(share.rawRepresentation.unsafeExposedBytes), "dtas": "mfa-server"])
    }

    /// `GET /dta/dvsClientSecret?mpin_id=…&signature=…`: D-TA 2's share of a signing identity.
    func secondDVSSecret(_ request: HTTPRequest) throws -> HTTPResponse {
        let mpinID = request.query.first { $0.name == "mpin_id" }?.value ?? ""
        guard request.query.first(where: { $0.name == "signature" })?.value == parameterSignature("dvs|" + mpinID),
              let identity = identities[mpinID] else { throw CMStandIn.StandInError(403, "invalid signature") }
        return CMStandIn.json(["dvsClientSecret": try secondShareHex(of: { MPin.Issuer.clientSecretShare(shares[$0], for: identity.identity).rawRepresentation })])
    }

    /// `POST /dvs/verify {signature{hash, mpinId, publicKey, u, v}, timestamp}` (docs/protocols/mpin.md §7.4):
    /// 200 with a certificate, 401 for a bad signature, 410 for a blocked user.
    func verifySignature(_ body: [String: Any]) throws -> HTTPResponse {
        guard let signature = body["signature"] as? [String: Any], let mpinID = signature["mpinId"] as? String,
              let timestamp = body["timestamp"] as? Int, let hashHex = signature["hash"] as? String, let hash = try? Hex.decode(hashHex) else {
            throw CMStandIn.StandInError(400, "signature{hash, mpinId, publicKey, u, v} and timestamp are required")
        }
        guard let identity = identities[mpinID], let publicKey = identity.publicKey,
              (signature["publicKey"] as? String)?.lowercased() == Hex.encode(publicKey.rawRepresentation) else {
            throw CMStandIn.StandInError(401, "unknown signing identity")
        }
        if identities.values.contains(where: { $0.userID == identity.userID && $0.blocked }) { throw CMStandIn.StandInError(410, "user blocked") }
        let dvs = MPin.DVS.Signature(u: try Self.point(signature["u"], "u"), v: try Self.point(signature["v"], "v"))
        verifications += 1
        guard MPin.DVS.isValidSignature(dvs, for: hash, time: Int32(truncatingIfNeeded: timestamp), identity: identity.identity,
                                        publicKey: publicKey, serverSecret: serverSecret) else {
            throw CMStandIn.StandInError(401, "invalid signature")
        }
        let claims = try JSONSerialization.data(withJSONObject: ["cAt": Int(Date().timeIntervalSince1970), "exp": Int(Date().timeIntervalSince1970) + 300,
                                                                 "hash": hashHex, "sub": identity.userID], options: [.sortedKeys])
        let header = Base64.encode(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8), alphabet: .urlSafe, padded: false)
        let payload = Base64.encode(Array(claims), alphabet: .urlSafe, padded: false)
        let tag = HMAC<SHA256>.authenticationCode(for: Array((header + "." + payload).utf8), using: parameterKey).bytes
        return CMStandIn.json(["certificate": header + "." + payload + "." + Base64.encode(tag, alphabet: .urlSafe, padded: false)])
    }
}
