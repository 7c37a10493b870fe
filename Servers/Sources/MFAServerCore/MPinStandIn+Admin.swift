// The M-Pin stand-in's integration API (`/integration/mpin/…`): what the platform's e-mail, the
// browser and the app's backend would do in a real deployment — read the e-mailed verification
// code, click the verification link, start a browser session and read its status, redeem an
// authorization code, revoke a user's time permits, switch permits on, expire pending
// registrations, inject a fault, count verifications.

import CryptoPrimitives
import Foundation
import ProtocolSupport

extension MPinStandIn {
    func admin(_ request: HTTPRequest) throws -> HTTPResponse? {
        let body = try CMStandIn.object(request.body.flatMap { $0.isEmpty ? nil : $0 } ?? Array("{}".utf8))
        let userID = body["userId"] as? String ?? ""
        switch (request.method, String(request.path.dropFirst("integration/mpin/".count))) {
        case (.post, "session"):
            let code = try newSession()
            return CMStandIn.json(["accessCode": code, "qrURL": backendURL + "#" + code])
        case (.post, "session-status"):
            guard let code = body["accessCode"] as? String, let session = sessions[code] else { throw CMStandIn.StandInError(404, "no such session") }
            return CMStandIn.json(["status": session.status, "userId": session.userID ?? "", "authenticatedUser": session.authenticatedUser ?? ""])
        case (.post, "verification-code"):
            guard let code = verificationCodes[userID] else { throw CMStandIn.StandInError(404, "no verification e-mail for \(userID)") }
            return CMStandIn.json(["code": code])
        case (.post, "verify-identity"):
            let ids = identities.filter { $0.value.userID == userID }.map(\.key)
            for id in ids { identities[id]?.verified = true }
            return CMStandIn.json(["verified": ids.count])
        case (.post, "authorization-code"):
            guard let code = body["code"] as? String, let user = authorizationCodes.removeValue(forKey: code) else {
                throw CMStandIn.StandInError(404, "unknown authorization code")
            }
            return CMStandIn.json(["userId": user])
        case (.post, "revoke"):
            revoked.insert(userID)
            return CMStandIn.json(["revoked": userID])
        case (.post, "config"):
            if let permits = body["usePermits"] as? Bool { usePermits = permits }
            if let cancelling = body["cancellingShares"] as? Bool { cancellingShares = cancelling }
            return CMStandIn.json(["usePermits": usePermits, "cancellingShares": cancellingShares])
        case (.post, "expire-registrations"):
            var expired = 0
            for (id, identity) in identities where !identity.verified {
                identities[id]?.expires = .distantPast
                expired += 1
            }
            return CMStandIn.json(["expired": expired])
        case (.post, "fault"):
            fault = body["kind"] as? String
            return CMStandIn.json(["fault": fault ?? ""])
        case (.post, "signing-session"):
            let id = try openSigningSession(userID: userID, hash: body["hash"] as? String ?? "", description: body["description"] as? String ?? "")
            return CMStandIn.json(["id": id])
        case (.post, "signing-session-status"):
            guard let id = body["id"] as? String, let session = signingSessions[id] else { throw CMStandIn.StandInError(404, "no such signing session") }
            return CMStandIn.json(["status": session.status])
        case (_, "stats"):
            return CMStandIn.json(["verifications": verifications, "identities": identities.count])
        default:
            return nil
        }
    }
}
