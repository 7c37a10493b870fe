// The constant-time remainder by a modulus of any parity (the RSA key checks reduce d modulo
// p − 1 and q − 1) against the reference integer's long division.

import CryptoCore
import Testing
import TestSupport

@Suite struct RemainderTests {
    /// Double-width values by half-width moduli: even, odd, one limb, a top bit set (where the
    /// shift overflows the width), 1, and random, with edge-biased dividends.
    @Test func doubleWidthValuesReduceAsTheReferenceDivides() {
        var random = TestRandom("constant-time remainder")
        var moduli: [ReferenceInteger] = [.one, ReferenceInteger(2), ReferenceInteger(3), ReferenceInteger(0xFFFF_FFFF_FFFF_FFFF),
                                          ReferenceInteger(hex: "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF"),
                                          ReferenceInteger(hex: "8000000000000000000000000000000000000000000000000000000000000000"),
                                          ReferenceInteger(hex: "FFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFE")]
        for _ in 0..<20 {
            let m = edgyValue(&random, FixedUInt<4>.self).reference
            if m != .zero { moduli.append(m) }
        }
        for m in moduli {
            let modulus = FixedUInt<4>(m)
            for _ in 0..<25 {
                let x = edgyValue(&random, FixedUInt<8>.self)
                let expected = x.reference % m
                #expect(FixedUInt<4>.remainderConstantTime(x, modulo: modulus).reference == expected,
                        "\(x.reference) mod \(m)")
            }
        }
    }
}
