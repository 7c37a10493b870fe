// The CM stand-in's checks of the bearer JWT (docs/protocols/cm-authenticator.md §5) and its JSON helpers: the
// HS256 signature under the environment secret's UTF-8 bytes, `nbf` and `exp` with 60 s leeway
// (as CM's PHP client allows), `sig` — lower-case hex HMAC-SHA-256 — over the exact body bytes
// when present, and `auth_id` equal to the request answered when present. iOS-style tokens
// without `sig` and `auth_id` are accepted too, as the service does (§5).

import CryptoPrimitives
import Foundation
import ProtocolSupport

extension CMStandIn {
    struct StandInError: Error {
        let status: Int
        let message: String
        init(_ status: Int, _ message: String) {
            self.status = status
            self.message = message
        }
    }

    func verifyToken(_ request: HTTPRequest, environmentID: String, authID: String? = nil) throws {
        guard let environment = environments[environmentID] else { throw StandInError(401, "unknown environment") }
        guard let header = request.header("Authorization"), header.hasPrefix("Bearer ") else { throw StandInError(401, "bearer token required") }
        let parts = header.dropFirst("Bearer ".count).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let signature = try? Base64.decode(parts[2], alphabet: .urlSafe, padded: false),
              let payload = try? Base64.decode(parts[1], alphabet: .urlSafe, padded: false),
              let headerBytes = try? Base64.decode(parts[0], alphabet: .urlSafe, padded: false),
              (try? Self.object(headerBytes))?["alg"] as? String == "HS256" else {
            throw StandInError(401, "malformed token")
        }
        let key = SymmetricKey(data: environment.secret)
        guard HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: Array("\(parts[0]).\(parts[1])".utf8), using: key) else {
            throw StandInError(401, "token signature invalid")
        }
        let claims = try Self.object(payload)
        let now = Int(Date().timeIntervalSince1970)
        guard let exp = claims["exp"] as? Int, let nbf = claims["nbf"] as? Int, now <= exp + 60, nbf - 60 <= now else {
            throw StandInError(401, "token expired or not yet valid")
        }
        if let sig = claims["sig"] as? String {
            let expected = Hex.encode(HMAC<SHA256>.authenticationCode(for: request.body ?? [], using: key).bytes)
            guard sig == expected else { throw StandInError(401, "sig does not cover the body") }
        }
        if let claimed = claims["auth_id"] as? String, claimed != authID { throw StandInError(401, "auth_id names another request") }
    }

    static func json(_ object: Any, status: Int = 200) -> HTTPResponse {
        let body: Data
        do { body = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) } catch {
            preconditionFailure("internal error: the stand-in built a value JSON cannot hold")
        }
        return HTTPResponse(status: status, headers: [HTTPHeader("Content-Type", "application/json")], body: Array(body))
    }

    /// §1's error body.
    static func error(_ status: Int, _ message: String) -> HTTPResponse {
        json(["status": status, "message": message], status: status)
    }

    /// The injected faults: `garbage` (200 with a body that is not JSON) and `unavailable` (503).
    static func fault(_ kind: String) -> HTTPResponse {
        kind == "garbage" ? HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")], body: Array("<html>oops".utf8))
                          : error(503, "service unavailable")
    }

    static func object(_ body: [UInt8]) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else { throw StandInError(400, "not a JSON object") }
        return object
    }

    static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
