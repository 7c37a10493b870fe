// The signed body's `exp` = now + 300 (docs/protocols/saltedge-v2.md §5) from any clock: NaN, ±infinity and
// 1e300 trapped in `Int64(_:)`, and a clock near Int64.max seconds overflowed the addition.

import Foundation
import ProtocolSupport
import SaltEdge
import Testing

@Suite struct SaltEdgeClockTests {
    @Test(arguments: [Double.nan, .infinity, -.infinity, 1e300, -1e300, 9.2e18, -9.3e18])
    func aBrokenClockIsClampedBeforeTheExpiryIsAdded(seconds: Double) {
        let now = unixSeconds(Date(timeIntervalSince1970: seconds))
        #expect(abs(now) <= Int64(1) << 62)
        let body = SaltEdge.signedBody(data: .object([]), expiresAt: now + SaltEdge.signedRequestLifetime)
        #expect(String(decoding: body, as: UTF8.self).hasPrefix(#"{"data":{},"exp":"#))
    }

    @Test func anOrdinaryClockIsUnchanged() {
        #expect(unixSeconds(Date(timeIntervalSince1970: 1_615_456_800.9)) == 1_615_456_800)
        #expect(unixSeconds(Date(timeIntervalSince1970: -0.5)) == -1)
    }
}
