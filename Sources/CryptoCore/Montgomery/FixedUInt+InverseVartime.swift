// Modular inversion of public values (binary extended Euclid), for verification paths.

extension FixedUInt {
    /// `a⁻¹ mod m` for an odd modulus m and 0 < a < m with gcd(a, m) = 1; zero when a is zero
    /// or not invertible. Leaks: everything about `a` and `m` (loop counts and branches follow
    /// their bits) — public inputs only.
    @inlinable
    package static func modularInverseVartime(_ a: FixedUInt, modulus m: FixedUInt) -> FixedUInt {
        guard !a.isZero.isTrueVartime else { return .zero }
        var u = a, v = m
        var x1 = FixedUInt(1), x2 = FixedUInt.zero
        let one = FixedUInt(1)
        func halve(_ value: inout FixedUInt, _ coefficient: inout FixedUInt) {
            value = value.shiftedRightOne()
            if coefficient.limbs[0] & 1 == 0 {
                coefficient = coefficient.shiftedRightOne()
            } else {
                let (sum, carry) = coefficient.addingReportingCarry(m)
                coefficient = sum.shiftedRightOne(insertingTopBit: carry)
            }
        }
        while !u.isEqual(to: one).isTrueVartime && !v.isEqual(to: one).isTrueVartime {
            if u.isZero.isTrueVartime || v.isZero.isTrueVartime { return .zero }  // gcd > 1
            while u.limbs[0] & 1 == 0 { halve(&u, &x1) }
            while v.limbs[0] & 1 == 0 { halve(&v, &x2) }
            if u.compareVartime(v) >= 0 {
                u = u.subtractingReportingBorrow(v).difference
                x1 = modularDifference(x1, x2, modulus: m)
            } else {
                v = v.subtractingReportingBorrow(u).difference
                x2 = modularDifference(x2, x1, modulus: m)
            }
        }
        return u.isEqual(to: one).isTrueVartime ? x1 : x2
    }
}
