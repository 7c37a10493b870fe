// Scalar multiplication by public scalars, and the G2 subgroup test that uses it.

import CryptoCore

extension BN254CX.CurvePoint {
    /// k·P by double-and-add over the bits of k. Leaks: k (its bits steer the loop); use only
    /// on public scalars.
    package func multipliedVartime<let n: Int>(by k: FixedUInt<n>) -> Self {
        var result = Self.infinity
        let bits = k.bitLengthVartime
        for i in stride(from: bits - 1, through: 0, by: -1) {
            result = result.doubled()
            if k.bit(i) == 1 { result = result + self }
        }
        return result
    }
}

extension BN254CX.CurvePoint where Field == BN254CX.Fp2 {
    /// 6u² as an integer (p ≡ 6u² mod r is the eigenvalue of ψ on G2).
    package static var sixUSquared: FixedUInt<2> {
        let u = UInt128(BN254CX.absoluteU)
        let value = 6 * u * u  // 127 bits
        return FixedUInt(limbs: [UInt64(truncatingIfNeeded: value), UInt64(truncatingIfNeeded: value >> 64)])
    }

    /// Whether a point of the twist lies in G2: ψ(Q) = [6u²]Q. Sound for BN254CX because
    /// gcd(36u⁴ − 6u²·t + p, 2p − r) = 1 for the eigenvalue 6u² (a test recomputes it), so no
    /// point of order dividing the cofactor 2p − r passes. Leaks nothing secret (Q is public).
    package var isInG2Vartime: Bool {
        psi().isEqual(to: multipliedVartime(by: Self.sixUSquared)).isTrueVartime
    }
}

extension BN254CX.CurvePoint {
    /// The width-`width` non-adjacent form of k, least significant digit first: every nonzero
    /// digit odd and in (−2^(width−1), 2^(width−1)), at most one nonzero digit in any `width`
    /// consecutive ones, Σ dᵢ·2ⁱ = k. Leaks: k (its digits steer the loop); public k only.
    package static func wNAFVartime(_ k: FixedUInt<4>, width: Int) -> [Int8] {
        // A fifth word takes the carry a negative digit can push past bit 255.
        var n: [UInt64] = [k.limbs[0], k.limbs[1], k.limbs[2], k.limbs[3], 0]
        var digits: [Int8] = []
        digits.reserveCapacity(258)
        let window = UInt64(1) << UInt64(width), half = window >> 1
        while n.contains(where: { $0 != 0 }) {
            var digit: Int8 = 0
            if n[0] & 1 == 1 {
                let low = n[0] & (window - 1)
                if low < half {
                    digit = Int8(low)
                    n[0] -= low                                 // clears the low bits, no borrow
                } else {
                    digit = Int8(Int64(low) - Int64(window))
                    var carry = window - low                    // k − digit = k + (2^width − low)
                    for i in 0..<5 where carry != 0 {
                        let (sum, overflow) = n[i].addingReportingOverflow(carry)
                        n[i] = sum
                        carry = overflow ? 1 : 0
                    }
                }
            }
            digits.append(digit)
            for i in 0..<4 { n[i] = (n[i] >> 1) | (n[i + 1] << 63) }
            n[4] >>= 1
        }
        return digits
    }
}

extension BN254CX.CurvePoint where Field == BN254CX.Fp {
    /// k·P for a public k by GLV (k ≡ k1 + k2·λ) and width-5 NAFs of both pieces read
    /// together: tables of the odd multiples P … 15P and φ of them (one doubling, seven
    /// additions and eight Fp products), then one doubling per bit and one addition per
    /// nonzero digit (about a sixth of the digits). Leaks: k.
    package func multipliedGLVVartime(by k: FixedUInt<4>) -> Self {
        let (k1, k2) = BN254CX.glvDecomposition(k)
        let base = negated(if: k1.isNegative)
        let flip = (k1.isNegative ^ k2.isNegative).isTrueVartime
        var odd = InlineArray<8, Self>(repeating: base)
        let twice = base.doubled()
        for i in 1..<8 { odd[i] = odd[i - 1] + twice }
        var oddPhi = odd
        for i in 0..<8 { oddPhi[i] = flip ? -odd[i].phi() : odd[i].phi() }
        let digits1 = Self.wNAFVartime(k1.magnitude, width: 5), digits2 = Self.wNAFVartime(k2.magnitude, width: 5)
        let top = max(digits1.count, digits2.count) - 1
        guard top >= 0 else { return .infinity }
        var result = Self.infinity
        for i in stride(from: top, through: 0, by: -1) {
            if i != top { result = result.doubled() }
            if i < digits1.count, digits1[i] != 0 {
                let entry = odd[Int(digits1[i].magnitude) >> 1]
                result = result + (digits1[i] > 0 ? entry : -entry)
            }
            if i < digits2.count, digits2[i] != 0 {
                let entry = oddPhi[Int(digits2[i].magnitude) >> 1]
                result = result + (digits2[i] > 0 ? entry : -entry)
            }
        }
        return result
    }
}
