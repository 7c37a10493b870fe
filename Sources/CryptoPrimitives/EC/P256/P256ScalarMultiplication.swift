// Scalar multiplication in constant time: a variable base with signed radix-32 windows, and
// the generator with precomputed per-window tables (no doublings at all). Both accumulate in
// Jacobian coordinates (P256JacobianAddition.swift), each with the argument why its
// incomplete addition meets no exceptional case.

import CryptoCore

extension P256 {
    /// k·P for a secret k < 2²⁵⁶, in constant time: the table P…16P made affine
    /// (``affineTable(_:)``, below), then 51 runs of 5 Jacobian doublings and
    /// 52 Jacobian-plus-affine additions (madd-2007-bl, P256JacobianAddition.swift) whatever k
    /// is, each addend read from the table by a scan of every entry and negated by mask.
    ///
    /// The addition is incomplete; why no exceptional case is reached: k is first reduced
    /// below n (k − n when k ≥ n, by mask). With signed digits dᵢ ∈ [−16, 16] and the partial
    /// scalars Aᵢ = Σ_{j≥i} dⱼ·32^(j−i) (A₀ = k), window i adds dᵢ·P to the accumulator
    /// 32·Aᵢ₊₁·P. For i ≥ 1, |Aᵢ| < 2²⁵² < n. The doubling case 32·Aᵢ₊₁ ≡ dᵢ (mod n) means
    /// Aᵢ − 2dᵢ ≡ 0 with |Aᵢ − 2dᵢ| < n, so Aᵢ = 2dᵢ, 32·Aᵢ₊₁ = dᵢ, and both are zero (|dᵢ| < 32);
    /// for i = 0, k − 2d₀ ∈ [−30, n + 32) is 0 only for k = d₀ = 0, and it is n only if
    /// d₀ ≡ k ≡ −n ≡ 15 (mod 32), so d₀ = 15 and k = n + 30, which the reduction rules out
    /// (k < n). So P = Q is reached only
    /// when the accumulator is the identity or the digit is zero, and those two cases are
    /// replaced by masks (the addend, or the accumulator unchanged). P = −Q gives Z = 0, the
    /// identity, correctly. P itself the identity makes every table entry wrong: the result is
    /// replaced by the identity at the end, by mask. A test checks every one of these inputs.
    package static func multiplyJacobian(_ point: JacobianPoint, by scalar: FixedUInt<4>) -> JacobianPoint {
        var multiples = [point, point.doubled()]  // multiples[j] = (j+1)·P
        multiples.reserveCapacity(16)
        for j in 2..<16 { multiples.append(multiples[j - 1].incompleteAdding(point).sum) }  // jP ≠ ±P: n > 17
        return .select(.identity, windowedSum(affineTable: affineTable(multiples), reducedBelowOrder(scalar)), if: point.isIdentity)
    }

    /// k − n when k ≥ n, else k, by mask (k < 2²⁵⁶ < 2n): constant time.
    static func reducedBelowOrder(_ k: FixedUInt<4>) -> FixedUInt<4> {
        let (difference, borrow) = k.subtractingReportingBorrow(P256OrderModulus.modulus)
        return .select(k, difference, if: Choice(bit: borrow))
    }

    /// k·G for a secret k < 2²⁵⁶, in constant time: one Jacobian-plus-affine addition
    /// (madd-2007-bl, P256JacobianAddition.swift) per signed radix-32 window from the generated
    /// per-window tables, each entry read by a scan of the window's 16 entries. A zero digit
    /// adds a table point anyway and keeps the previous sum by mask; while the accumulator is
    /// still the identity, the addend replaces it by mask.
    ///
    /// The addition is incomplete; why no doubling case is reached: window i adds
    /// Q = dᵢ·32ⁱ·G (dᵢ ≠ 0) to P = Σ_{j<i} dⱼ·32ʲ·G, and |Σ_{j<i} dⱼ·32ʲ| ≤ 16·(32ⁱ − 1)/31 <
    /// 32ⁱ/1.9. For i ≤ 50, the integer Σ_{j<i} dⱼ·32ʲ ∓ dᵢ·32ⁱ is nonzero (the digit term is
    /// larger) and below 17·2²⁵⁰ < n, so P ≠ ±Q. For i = 51 the digit is 0, 1 or 2 (k < 2²⁵⁶):
    /// with 1, the same bound (1.6·2²⁵⁵ < n) holds; with 2, P = Q would need
    /// Σ_{j<51} dⱼ·32ʲ = 2²⁵⁶ − n and then k = 2²⁵⁷ − n > 2²⁵⁶, impossible. P = −Q (k = n) gives
    /// Z = 0, the identity, correctly.
    package static func multiplyGeneratorJacobian(by k: FixedUInt<4>) -> JacobianPoint {
        var accumulator = JacobianPoint.identity
        for i in 0..<52 {
            let (magnitude, sign) = signedWindow(k, i)
            let isNegative = Choice(bit: sign)
            // Entry j = (j+1)·32ⁱ·G; a zero digit reads (0, 0) and its sum is discarded below.
            var addend = generatorWindowTableLimbs.withUnsafeBufferPointer { scanTableWindow($0, window: i, index: magnitude &- 1) }
            addend = .select(addend.negated, addend, if: isNegative)
            let sum = JacobianPoint.select(JacobianPoint(addend), accumulator.incompleteAdding(addend).sum,
                                           if: accumulator.isIdentity)
            accumulator = .select(accumulator, sum, if: magnitude.isZero)
        }
        return accumulator
    }

    /// Entry `index` of window `window` of a table in the generated layout (16 affine points
    /// of 8 limbs per window), reading all 16 entries: each
    /// entry's limbs are ANDed with a mask that is all ones only at `index` and ORed into the
    /// result (no select of two candidates per entry). Constant time in `index`; an index
    /// outside 0..<16 gives (0, 0), which is not a point.
    @inline(__always)
    static func scanTableWindow(_ table: UnsafeBufferPointer<UInt64>, window: Int, index: UInt64) -> AffinePoint {
        var x0: UInt64 = 0, x1: UInt64 = 0, x2: UInt64 = 0, x3: UInt64 = 0
        var y0: UInt64 = 0, y1: UInt64 = 0, y2: UInt64 = 0, y3: UInt64 = 0
        for j in 0..<16 {
            let mask = UInt64(j).isEqual(to: index).mask
            let entry = 128 * window + 8 * j
            x0 |= table[entry] & mask
            x1 |= table[entry + 1] & mask
            x2 |= table[entry + 2] & mask
            x3 |= table[entry + 3] & mask
            y0 |= table[entry + 4] & mask
            y1 |= table[entry + 5] & mask
            y2 |= table[entry + 6] & mask
            y3 |= table[entry + 7] & mask
        }
        return AffinePoint(x: FieldElement(montgomeryForm: FixedUInt(limbs: [x0, x1, x2, x3])),
                           y: FieldElement(montgomeryForm: FixedUInt(limbs: [y0, y1, y2, y3])))
    }

    @inline(__always)
    static func load(_ table: UnsafeBufferPointer<UInt64>, _ offset: Int) -> FixedUInt<4> {
        FixedUInt(limbs: [table[offset], table[offset + 1], table[offset + 2], table[offset + 3]])
    }

    /// The affine point stored at `index` (8 limbs per point) of a generated table.
    static func tablePoint(_ table: [UInt64], _ index: Int) -> AffinePoint {
        table.withUnsafeBufferPointer { buffer in
            AffinePoint(x: FieldElement(montgomeryForm: load(buffer, 8 * index)),
                        y: FieldElement(montgomeryForm: load(buffer, 8 * index + 4)))
        }
    }
}

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
// `multiplyJacobian(_:by:)` above.

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
            var addend = table.withUnsafeBufferPointer { scanTableWindow($0, window: 0, index: magnitude &- 1) }
            addend = .select(addend.negated, addend, if: isNegative)
            let sum = JacobianPoint.select(JacobianPoint(addend), accumulator.incompleteAdding(addend).sum, if: accumulator.isIdentity)
            accumulator = .select(accumulator, sum, if: magnitude.isZero)
        }
        return accumulator
    }
}
