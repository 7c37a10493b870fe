// The server half of the CM device API for the tests, on Foundation and the primitives only:
// checks a bearer JWT with the environment secret (HS256, times, `sig` over the raw body).

import CryptoPrimitives
import Foundation

enum CMTestServer {
    /// The JWT's claims when its HS256 signature verifies under `secret` and `now` is inside
    /// [nbf, exp); `nil` otherwise. When a `sig` claim is present it must be the lower-case hex
    /// HMAC-SHA-256 of `body`.
    static func verify(_ token: String, secret: String, body: [UInt8], now: Int) -> [String: Any]? {
        let parts = token.components(separatedBy: ".")
        guard parts.count == 3, let headerBytes = decode(parts[0]), let payloadBytes = decode(parts[1]), let signature = decode(parts[2]),
              let header = try? JSONSerialization.jsonObject(with: Data(headerBytes)) as? [String: Any], header["alg"] as? String == "HS256",
              let claims = try? JSONSerialization.jsonObject(with: Data(payloadBytes)) as? [String: Any] else { return nil }
        let key = SymmetricKey(data: Array(secret.utf8))
        let expected = HMAC<SHA256>.authenticationCode(for: Array((parts[0] + "." + parts[1]).utf8), using: key)
        guard expected.bytes == signature, let nbf = claims["nbf"] as? Int, let exp = claims["exp"] as? Int, let iat = claims["iat"] as? Int,
              nbf <= now, now < exp, exp - iat == 60 else { return nil }
        if let sig = claims["sig"] as? String {
            let mac = HMAC<SHA256>.authenticationCode(for: body, using: key).bytes
            guard sig == mac.map({ String(format: "%02x", $0) }).joined() else { return nil }
        }
        return claims
    }

    static func decode(_ text: String) -> [UInt8]? {
        guard !text.contains("=") else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.count % 4 != 0 { standard += "=" }
        return Data(base64Encoded: standard).map(Array.init)
    }

    /// A certificate-list entry signed with `key`, as CM's `/certificate` returns it.
    static func signedEntry(_ json: String, key: RSA.Signing.PrivateKey) throws -> [String: String] {
        let data = Array(json.utf8)
        let signature = try key.signature(for: data, padding: .pkcs1v1_5)
        return ["data": Data(data).base64EncodedString(), "signature": Data(signature.rawRepresentation).base64EncodedString()]
    }
}
