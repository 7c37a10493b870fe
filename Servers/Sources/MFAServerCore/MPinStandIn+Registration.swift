// Verification, registration and the D-TAs of the M-Pin stand-in (docs/protocols/mpin.md §7.1 items 3–4 and
// 6, §7.2): an M-Pin ID is the hex of a JSON text the platform issues; D-TA 1 answers with its
// share and parameters it signs, D-TA 2 checks them and answers with its own share; time permits
// the same way. An identity is verified by an activation token, a registration code, or the
// integration API (the e-mail link clicked).

import CryptoPrimitives
import Foundation
import MPin
import ProtocolSupport

extension MPinStandIn {
    /// `PUT /rps/user`: needs a live access code (`wid`) or an activation/registration code.
    func register(_ body: [String: Any]) throws -> HTTPResponse {
        guard let userID = body["userId"] as? String, !userID.isEmpty else { throw CMStandIn.StandInError(400, "UserId required") }
        var verified = false
        if let code = body["activateCode"] as? String {
            if activationTokens[code] == userID {
                activationTokens[code] = nil
            } else if let registration = registrationCodes[code], registration.userID == userID, registration.expires > Date() {
                registrationCodes[code] = nil
            } else {
                throw CMStandIn.StandInError(403, "INVALID_ACTIVATION_TOKEN")
            }
            verified = true
        } else {
            guard let wid = body["wid"] as? String, let session = sessions[wid], session.status != "abort" else {
                throw CMStandIn.StandInError(400, "Invalid access id")
            }
        }
        let issued: [String: Any] = ["issuedAt": Int(Date().timeIntervalSince1970), "userID": userID, "cID": customerID, "mobile": 1,
                                     "salt": try hex(16), "v": 1]
        let text = try JSONSerialization.data(withJSONObject: issued, options: [.sortedKeys])
        let mpinID = Hex.encode(Array(text))
        identities[mpinID] = Identity(mpinID: mpinID, userID: userID, identity: MPin.Identity(Array(text)), regOTT: try hex(16),
                                      verified: verified, expires: Date().addingTimeInterval(3600), accessCode: body["wid"] as? String)
        return registration(mpinID)
    }

    /// `PUT /rps/user/{mpinId}` with the current `regOTT`: the same M-Pin ID, a new regOTT.
    func restart(mpinID: String, _ body: [String: Any]) throws -> HTTPResponse {
        guard var identity = identities[mpinID] else { throw CMStandIn.StandInError(404, "registration expired") }
        guard body["regOTT"] as? String == identity.regOTT else { throw CMStandIn.StandInError(403, "invalid regOTT") }
        identity.regOTT = try hex(16)
        identity.expires = Date().addingTimeInterval(3600)
        identities[mpinID] = identity
        return registration(mpinID)
    }

    private func registration(_ mpinID: String) -> HTTPResponse {
        guard let identity = identities[mpinID] else { return CMStandIn.error(404, "registration expired") }
        return CMStandIn.json(["mpinId": mpinID, "regOTT": identity.regOTT, "expireTime": Int(identity.expires.timeIntervalSince1970),
                               "nowTime": Int(Date().timeIntervalSince1970), "customerId": customerID, "appId": "", "active": identity.verified])
    }

    /// `GET /rps/signature/{mpinId}?regOTT=`: 401 until verified, 404 once expired (§7.1 item 4).
    func signature(mpinID: String, _ request: HTTPRequest) throws -> HTTPResponse {
        guard let identity = identities[mpinID], identity.expires > Date() else { throw CMStandIn.StandInError(404, "registration expired") }
        guard request.query.first(where: { $0.name == "regOTT" })?.value == identity.regOTT else { throw CMStandIn.StandInError(403, "invalid regOTT") }
        guard identity.verified else { throw CMStandIn.StandInError(401, "identity not verified") }
        let share = MPin.Issuer.clientSecretShare(shares[0], for: identity.identity)
        return CMStandIn.json(["clientSecretShare": Hex.encode(share.rawRepresentation.unsafeExposedBytes),
                               "params": signedParameters(hashedID: Hex.encode(identity.identity.hash), userID: identity.userID)])
    }

    /// `GET /dta/clientSecret?{params}`: D-TA 2's share once D-TA 1's signature checks out.
    func secondClientSecret(_ request: HTTPRequest) throws -> HTTPResponse {
        let identity = try checkedIdentity(request)
        return CMStandIn.json(["clientSecret": try secondShareHex(of: { MPin.Issuer.clientSecretShare(shares[$0], for: identity.identity).rawRepresentation }),
                               "message": "OK", "version": "mfa-server"])
    }

    /// D-TA 2's share as hex: `share(1)`, or with ``cancellingShares`` the negation of
    /// `share(0)`, in the same uncompressed form an honest share has.
    func secondShareHex(of share: (Int) -> SecretBytes) throws -> String {
        guard cancellingShares else { return Hex.encode(share(1).unsafeExposedBytes) }
        return Hex.encode((-(try BN254CX.G1(encoded: share(0).unsafeExposedBytes))).uncompressedRepresentation)
    }

    /// `GET /rps/timePermit/{mpinId}`: today's first share; 410 when revoked or blocked.
    func timePermit(mpinID: String) throws -> HTTPResponse {
        guard let identity = identities[mpinID] else { throw CMStandIn.StandInError(404, "no such identity") }
        guard !revoked.contains(identity.userID), !identity.blocked else { throw CMStandIn.StandInError(410, "revoked") }
        let day = MPin.day(ofUnixTime: Int64(Date().timeIntervalSince1970))
        let permit = MPin.Issuer.timePermit(shares[0], for: identity.identity, day: day)
        let hashed = Hex.encode(identity.identity.hash)
        // storageId is only the cache's key (docs/protocols/mpin.md §7.1 item 6); it differs from the hash
        // here so that a client sending it as D-TA 2's hash_mpin_id is refused.
        return CMStandIn.json(["timePermit": Hex.encode(permit.rawRepresentation.unsafeExposedBytes), "date": Int(day), "storageId": "cache-" + hashed,
                               "signature": parameterSignature(hashed + "|" + String(day)), "message": "M-Pin Time Permit Generated"])
    }

    /// `GET /dta/timePermit?hash_mpin_id=…&signature=…`: D-TA 2's permit share.
    func secondTimePermit(_ request: HTTPRequest) throws -> HTTPResponse {
        let hashed = request.query.first { $0.name == "hash_mpin_id" }?.value ?? ""
        let day = MPin.day(ofUnixTime: Int64(Date().timeIntervalSince1970))
        guard request.query.first(where: { $0.name == "signature" })?.value == parameterSignature(hashed + "|" + String(day)),
              let identity = identities.values.first(where: { Hex.encode($0.identity.hash) == hashed }) else {
            throw CMStandIn.StandInError(403, "invalid signature")
        }
        return CMStandIn.json(["timePermit": try secondShareHex(of: { MPin.Issuer.timePermit(shares[$0], for: identity.identity, day: day).rawRepresentation }),
                               "message": "OK"])
    }

    /// `POST /verification/email`: "e-mails" a code (read it through the integration API).
    func startVerification(_ body: [String: Any]) throws -> HTTPResponse {
        guard let userID = body["userId"] as? String, !userID.isEmpty else { throw CMStandIn.StandInError(400, "userId required") }
        verificationCodes[userID] = String(Int(try random.bytes(count: 3).reduce(0) { $0 << 8 | Int($1) }) % 900_000 + 100_000)
        return CMStandIn.json(["backoff": 0, "method": "email"])
    }

    /// `POST /verification/confirmation {userId, code}` → an activation token.
    func confirmVerification(_ body: [String: Any]) throws -> HTTPResponse {
        guard let userID = body["userId"] as? String, let code = body["code"] as? String, verificationCodes[userID] == code else {
            throw CMStandIn.StandInError(400, "UNSUCCESSFUL_VERIFICATION")
        }
        verificationCodes[userID] = nil
        let token = try hex(16)
        activationTokens[token] = userID
        return CMStandIn.json(["projectId": customerID, "accessId": try newSession(), "actToken": token])
    }

    // MARK: Signed parameters between the D-TAs

    private func signedParameters(hashedID: String, userID: String) -> String {
        let expires = CMStandIn.iso8601(Date().addingTimeInterval(60))
        let hashedUser = Hex.encode(SHA256.hash(data: Array(userID.utf8)).bytes)
        let items = [("app_id", appID), ("expires", expires), ("hash_mpin_id", hashedID), ("hash_user_id", hashedUser),
                     ("signature", parameterSignature(hashedID + "|" + expires))]
        return items.map { $0.0 + "=" + URLText.percentEncoded($0.1) }.joined(separator: "&")
    }

    private func checkedIdentity(_ request: HTTPRequest) throws -> Identity {
        let value = { (name: String) in request.query.first { $0.name == name }?.value ?? "" }
        let hashed = value("hash_mpin_id"), expires = value("expires")
        guard value("signature") == parameterSignature(hashed + "|" + expires) else { throw CMStandIn.StandInError(403, "invalid signature") }
        guard let date = ISO8601DateFormatter().date(from: expires), date > Date() else { throw CMStandIn.StandInError(403, "expired parameters") }
        guard let identity = identities.values.first(where: { Hex.encode($0.identity.hash) == hashed }) else {
            throw CMStandIn.StandInError(404, "no such identity")
        }
        return identity
    }

    func parameterSignature(_ text: String) -> String {
        Hex.encode(HMAC<SHA256>.authenticationCode(for: Array(text.utf8), using: parameterKey).bytes)
    }
}
