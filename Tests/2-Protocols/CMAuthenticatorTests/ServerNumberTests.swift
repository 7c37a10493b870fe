// Numbers from the server and the clock never trap (docs/protocols/cm-authenticator.md §4, §5): an absurd
// `expiry` is clamped before the date arithmetic that shows a request's deadline, and a broken
// clock never traps in the bearer token's `iat` / `exp`.

import CMAuthenticator
import CryptoPrimitives
import Foundation
import ProtocolSupport
import Testing

@Suite struct ServerNumberTests {
    let environment: CMAuthenticator.Environment

    init() throws { environment = try CMAuthenticator.Environment(qrCode: "0f8e4c1a-2b3d-4e5f-8a9b-1c2d3e4f5a6b,k3y") }

    /// §4: `expiry` is seconds after `created_at`; Int64.max put the deadline 292 billion years
    /// out (and a display of it beyond any calendar). It is clamped to a day now.
    @Test(arguments: [Int64.max, Int64(1) << 53, 86_401])
    func anAbsurdExpiryIsClampedToADay(expiry: Int64) throws {
        let json = #"[{"id":"r1","auth_type":"instant","expiry":\#(expiry),"created_at":"2023-11-14T22:13:20Z"}]"#
        let request = try #require(try CMAuthenticator.AuthenticationRequest.pending(from: HTTPResponse(status: 200, body: Array(json.utf8))))
        #expect(request.expiry == CMAuthenticator.maximumRequestExpiry)
        #expect(request.expiresAt == request.createdAt.addingTimeInterval(86_400))
        #expect(request.expiresAt.formatted(Date.ISO8601FormatStyle()) == "2023-11-15T22:13:20Z")
    }

    /// §4: zero and negative expiries stay malformed.
    @Test(arguments: [Int64.min, -1, 0])
    func aNonPositiveExpiryIsMalformed(expiry: Int64) {
        let json = #"[{"id":"r1","auth_type":"instant","expiry":\#(expiry),"created_at":"2023-11-14T22:13:20Z"}]"#
        #expect(throws: ProtocolError.self) { try CMAuthenticator.AuthenticationRequest.pending(from: HTTPResponse(status: 200, body: Array(json.utf8))) }
    }

    /// §5: `iat` = whole seconds of the clock and `exp` = `iat` + 60; NaN, ±infinity and 1e300
    /// trapped in `Int64(_:)`, and a clock near Int64.max seconds overflowed `+ 60`.
    @Test(arguments: [Double.nan, .infinity, -.infinity, 1e300, -1e300, 9.2e18])
    func aBrokenClockGivesATokenNotATrap(seconds: Double) throws {
        for style in [CMAuthenticator.TokenStyle.android, .iOS] {
            let token = try CMAuthenticator.bearerToken(secret: environment.secret, now: Date(timeIntervalSince1970: seconds), body: [1], style: style)
            #expect(token.split(separator: ".").count == 3)
        }
    }
}
