// The table of multiples of a variable-base scalar multiplication, made affine.
//
// The 16 multiples P…16P come out of their additions in Jacobian coordinates. One field
// inversion turns them all affine (Montgomery's simultaneous inversion, P. L. Montgomery,
// "Speeding the Pollard and elliptic curve methods of factorization", Math. Comp. 1987: the
// prefix products of the Z's, one inversion, then two products per entry back down), about
// 100 products plus the inversion. Then every one of the 52 window additions is the
// Jacobian-plus-affine madd-2007-bl (7M + 4S) instead of add-2007-bl (11M + 5S), and the
// table scan reads two coordinates instead of three: about 2 % of an ECDH.
//
// The argument why the incomplete addition meets no exceptional case is on
// `multiplyJacobian(_:by:)` in P256ScalarMultiplication.swift.

import CryptoCore

extension P256 {
    /// k·P for an affine P (a decoded public key: ECDH; never the identity) and a secret
    /// k < 2²⁵⁶, in constant time, as `multiplyJacobian(_:by:)` for a Jacobian point, with
    /// the table built by the cheaper Jacobian-plus-affine additions.
    package static func multiplyJacobian(_ point: AffinePoint, by scalar: FixedUInt<4>) -> JacobianPoint {
        let base = JacobianPoint(point)
        var multiples = [base, base.doubled()]  // multiples[j] = (j+1)·P
        multiples.reserveCapacity(16)
        for j in 2..<16 { multiples.append(multiples[j - 1].incompleteAdding(point).sum) }  // jP ≠ ±P: n > 17
        return windowedSum(affineTable: affineTable(multiples), reducedBelowOrder(scalar))
    }

    /// The affine points of 16 Jacobian points (none the identity, or the result is garbage
    /// that the caller masks away) with one inversion: prefixes cⱼ = Z₀⋯Zⱼ, I = c₁₅⁻¹, then
    /// from the top Zⱼ⁻¹ = I·cⱼ₋₁ and I ← I·Zⱼ. Constant time. Laid out as the generated
    /// tables (x then y, 4 limbs each, 8 limbs per point) in one heap array, so the scans read
    /// it in place.
    static func affineTable(_ points: [JacobianPoint]) -> [UInt64] {
        // Heap arrays, not InlineArray: reading an element of an InlineArray value here made
        // the compiler copy the whole array (memcpy) at each read.
        var prefixes = [points[0].z]  // prefixes[j] = Z₀⋯Zⱼ
        prefixes.reserveCapacity(16)
        for j in 1..<16 { prefixes.append(prefixes[j - 1] * points[j].z) }
        var inverse = prefixes[15].inverted()
        var table = [UInt64](repeating: 0, count: 16 * 8)
        for j in stride(from: 15, through: 0, by: -1) {
            let zInverse = j == 0 ? inverse : inverse * prefixes[j - 1]
            if j > 0 { inverse = inverse * points[j].z }
            let zInverse2 = zInverse.squared()
            let x = points[j].x * zInverse2, y = points[j].y * (zInverse2 * zInverse)
            for l in 0..<4 {
                table[8 * j + l] = x.montgomeryForm.limbs[unchecked: l]
                table[8 * j + 4 + l] = y.montgomeryForm.limbs[unchecked: l]
            }
        }
        return table
    }

    /// Σ dᵢ·32ⁱ·P over the signed windows of k < n from an affine table of (j+1)·P (layout of
    /// ``affineTable(_:)``). Constant time in k.
    static func windowedSum(affineTable table: [UInt64], _ k: FixedUInt<4>) -> JacobianPoint {
        var accumulator = JacobianPoint.identity
        for i in stride(from: 51, through: 0, by: -1) {
            if i != 51 {
                for _ in 0..<5 { accumulator = accumulator.doubled() }
            }
            let (magnitude, sign) = signedWindow(k, i)
            let isNegative = Choice(bit: sign)
            // Entry j = (j+1)·P, read by a scan of all 16; a zero digit reads (0, 0) and its
            // sum is discarded.
            var addend = table.withUnsafeBufferPointer { scanGeneratorWindow($0, window: 0, index: magnitude &- 1) }
            addend = .select(addend.negated, addend, if: isNegative)
            let sum = JacobianPoint.select(JacobianPoint(addend), accumulator.incompleteAdding(addend).sum, if: accumulator.isIdentity)
            accumulator = .select(accumulator, sum, if: magnitude.isZero)
        }
        return accumulator
    }
}
