// MIRACL Trust JWTs (docs/protocols/mpin.md §7.3; RFC 7519 §4.1): a correctly signed JWT is still refused when
// its `exp` is missing, not a number, past or absurd, its `nbf` is in the future, or its `iss`
// or `aud` name another platform or project. Each JWT here is signed with a real ES256 key whose
// JWKS the key set parses, so only the claims differ.

import CryptoPrimitives
import Foundation
import MPinPlatform
import ProtocolSupport
import Testing
import ClientTestSupport
import TestSupport

@Suite struct TrustJWTClaimsTests {
    static let issuer = "https://api.mpin.io"
    static let project = "5cbb6194-39f3-4359-8164-a913e256c6cc"
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let expected = MPinTrust.ExpectedClaims(issuer: issuer, audience: project)

    let key: P256.Signing.PrivateKey
    let keySet: MPinTrust.KeySet

    init() throws {
        key = try P256.Signing.PrivateKey()
        let raw = key.publicKey.rawRepresentation
        let jwks = #"{"keys":[{"kty":"EC","crv":"P-256","kid":"k1","x":""# + Base64.encode(raw.prefix(32), alphabet: .urlSafe, padded: false)
            + #"","y":""# + Base64.encode(raw.suffix(32), alphabet: .urlSafe, padded: false) + #""}]}"#
        keySet = try MPinTrust.KeySet(jsonBytes: Array(jwks.utf8))
    }

    /// An ES256 JWT whose payload is the JSON text `claims`.
    func jwt(_ claims: String) throws -> String {
        let header = Base64.encode(Array(#"{"alg":"ES256","kid":"k1","typ":"JWT"}"#.utf8), alphabet: .urlSafe, padded: false)
        let payload = Base64.encode(Array(claims.utf8), alphabet: .urlSafe, padded: false)
        let signature = try key.signature(for: Array((header + "." + payload).utf8)).rawRepresentation
        return header + "." + payload + "." + Base64.encode(signature, alphabet: .urlSafe, padded: false)
    }

    static func claims(exp: String? = "1800000300", nbf: String? = nil, iss: String? = "\"https://api.mpin.io\"",
                       aud: String? = "\"5cbb6194-39f3-4359-8164-a913e256c6cc\"") -> String {
        let members = [("sub", "\"alice@example.com\""), ("exp", exp), ("nbf", nbf), ("iss", iss), ("aud", aud)]
            .compactMap { name, value in value.map { "\"\(name)\":\($0)" } }
        return "{" + members.joined(separator: ",") + "}"
    }

    func verify(_ claims: String) throws {
        let token = try jwt(claims)
        _ = try keySet.verifiedClaims(of: token, expected: Self.expected, now: Self.now)
    }

    @Test func aJWTForThisProjectFromThisPlatformVerifies() throws {
        try verify(Self.claims())
        try verify(Self.claims(exp: "1800000300.5", nbf: "1799999000", iss: "\"https://api.mpin.io/\"", aud: "[\"other\",\"\(Self.project)\"]"))
    }

    @Test(arguments: [
        ("missing exp", claims(exp: nil), ProtocolError.Code.malformedInput),
        ("string exp", claims(exp: "\"1\""), .malformedInput),
        ("string exp in the future", claims(exp: "\"1900000000\""), .malformedInput),
        ("null exp", claims(exp: "null"), .malformedInput),
        ("expired integer exp", claims(exp: "1799999999"), .expired),
        ("exp now", claims(exp: "1800000000"), .expired),
        ("expired float exp", claims(exp: "1799999999.5"), .expired),
        ("exp 1e300", claims(exp: "1e300"), .malformedInput),
        ("exp Int64.max", claims(exp: "9223372036854775807"), .malformedInput),
        ("negative exp", claims(exp: "-1"), .malformedInput),
        ("nbf in the future", claims(nbf: "1800000100"), .expired),
        ("string nbf", claims(nbf: "\"0\""), .malformedInput),
        ("nbf 1e300", claims(nbf: "1e300"), .malformedInput),
        ("wrong iss", claims(iss: "\"https://evil.example\""), .invalidArgument),
        ("missing iss", claims(iss: nil), .invalidArgument),
        ("wrong aud", claims(aud: "\"another-project\""), .invalidArgument),
        ("aud array without this project", claims(aud: "[\"another-project\"]"), .invalidArgument),
        ("missing aud", claims(aud: nil), .invalidArgument),
    ])
    func refused(_ what: String, _ claims: String, _ code: ProtocolError.Code) throws {
        expectError(code: code, "\(what)") { try verify(claims) }
    }
}
