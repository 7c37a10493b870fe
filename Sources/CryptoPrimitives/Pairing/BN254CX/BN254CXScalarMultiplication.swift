// Constant-time scalar multiplication with the endomorphisms of BN254CX: GLV on G1 (two
// pieces of ≤ 129 bits), Galbraith–Scott on G2 with ψ and on GT with the Frobenius (four
// pieces of ≤ 66 bits). On the curves each piece is recoded into signed 4-bit digits in
// [−8, 8) and reads a table of 0·P … 8·P by scanning all 9 entries, then negates the entry
// under a mask (half the table, 7 additions to build it instead of 15);
// GT walks unsigned windows over 16 entries. Signs are applied with conditional negations.

import CryptoCore

extension BN254CX.CurvePoint {
    /// The 16 multiples 0·P … 15·P (the variable-time paths' unsigned windows).
    static func multiplesTable(_ p: Self) -> InlineArray<16, Self> {
        var table = InlineArray<16, Self>(repeating: .infinity)
        for i in 1..<16 { table[i] = table[i - 1] + p }
        return table
    }

    /// The 9 multiples 0·P … 8·P that signed 4-bit digits need.
    static func signedMultiplesTable(_ p: Self) -> InlineArray<9, Self> {
        var table = InlineArray<9, Self>(repeating: .infinity)
        for i in 1..<9 { table[i] = table[i - 1] + p }
        return table
    }

    /// k as `windows` signed digits dᵢ ∈ [−8, 8), k = Σ dᵢ·16ⁱ, least significant first, each
    /// a two's-complement UInt64. Needs k ≤ 7·(16^windows − 1)/15 (the largest sum of such
    /// digits), which k < 2^(4·windows − 2) meets, so the last carry is absorbed (the GLV pieces
    /// are below 2¹²⁹ with 33 windows, the GS pieces below 2⁶⁶ with 17). Arithmetic only:
    /// constant time in k.
    @inline(__always)
    package static func signedDigits(_ k: FixedUInt<4>, windows: Int) -> InlineArray<33, UInt64> {
        var digits = InlineArray<33, UInt64>(repeating: 0)
        var carry: UInt64 = 0
        for window in 0..<windows {
            let d = ((k.limbs[window >> 4] >> UInt64((window & 15) * 4)) & 0xF) &+ carry  // 0 … 16
            carry = (d &+ 8) >> 4                                                          // d ≥ 8
            digits[window] = d &- (carry << 4)
        }
        return digits
    }

    /// Σ kᵢ·Tᵢ[1] for tables Tᵢ = 0·Pᵢ … 8·Pᵢ, over `windows` signed 4-bit digits. Each entry is
    /// read by scanning the table and negated under a mask. Constant time.
    static func jointMultiply<let count: Int>(_ tables: InlineArray<count, InlineArray<9, Self>>,
                                             _ scalars: InlineArray<count, FixedUInt<4>>, windows: Int) -> Self {
        let digits = InlineArray<count, InlineArray<33, UInt64>> { signedDigits(scalars[$0], windows: windows) }
        var result = Self.infinity
        for window in stride(from: windows - 1, through: 0, by: -1) {
            // The top window starts from infinity: its four doublings would change nothing.
            if window != windows - 1 {
                for _ in 0..<4 { result = result.doubled() }
            }
            for i in 0..<count {
                let digit = digits[i][window]
                let negative = digit >> 63
                let magnitude = (digit ^ (0 &- negative)) &+ negative
                result = result + ConstantTime.lookup(tables[i], at: magnitude).negated(if: Choice(bit: negative))
            }
        }
        return result
    }
}

extension BN254CX.CurvePoint where Field == BN254CX.Fp {
    /// φ(P) = (βX : Y : Z), which is λ·P on G1.
    package func phi() -> Self { Self(x: x * BN254CX.glvBeta, y: y, z: z) }

    /// k·P by GLV: k ≡ k1 + k2·λ, then k1·P + k2·φ(P). Constant time in k and P.
    package func multipliedGLV(by k: FixedUInt<4>) -> Self {
        let (k1, k2) = BN254CX.glvDecomposition(k)
        let t1 = Self.signedMultiplesTable(negated(if: k1.isNegative))
        let flip = k1.isNegative ^ k2.isNegative
        var t2 = t1
        for i in 0..<9 { t2[i] = t1[i].phi().negated(if: flip) }
        return Self.jointMultiply([t1, t2], [k1.magnitude, k2.magnitude], windows: 33)
    }
}

extension BN254CX.CurvePoint where Field == BN254CX.Fp2 {
    /// k·Q by Galbraith–Scott: k ≡ Σ kᵢ·pⁱ (mod r), then Σ kᵢ·ψⁱ(Q). Constant time in k and Q.
    package func multipliedGS(by k: FixedUInt<4>) -> Self {
        let pieces = BN254CX.gsDecomposition(k)
        let base = Self.signedMultiplesTable(self)
        var tables = InlineArray<4, InlineArray<9, Self>>(repeating: base)
        for i in 1..<4 {
            for j in 0..<9 { tables[i][j] = tables[i - 1][j].psi() }
        }
        for i in 0..<4 {
            for j in 0..<9 { tables[i][j] = tables[i][j].negated(if: pieces[i].isNegative) }
        }
        return Self.jointMultiply(tables, InlineArray<4, FixedUInt<4>> { pieces[$0].magnitude }, windows: 17)
    }
}

extension BN254CX.GT {
    /// g^k by Galbraith–Scott with the p-power Frobenius and cyclotomic squarings. Constant
    /// time in k and g.
    package func powerGS(by k: FixedUInt<4>) -> BN254CX.GT {
        typealias Fp12 = BN254CX.Fp12
        let pieces = BN254CX.gsDecomposition(k)
        var base = InlineArray<16, Fp12>(repeating: .one)
        for i in 1..<16 { base[i] = base[i - 1] * value }
        var tables = InlineArray<4, InlineArray<16, Fp12>>(repeating: base)
        for i in 1..<4 {
            for j in 0..<16 { tables[i][j] = tables[i - 1][j].frobenius() }
        }
        for i in 0..<4 {
            for j in 0..<16 { tables[i][j] = Fp12.select(tables[i][j].conjugate, tables[i][j], if: pieces[i].isNegative) }
        }
        var result = Fp12.one
        for window in stride(from: 16, through: 0, by: -1) {
            for _ in 0..<4 { result = result.cyclotomicSquared() }
            for i in 0..<4 {
                let digit = (pieces[i].magnitude.limbs[0 + (window >> 4)] >> UInt64((window & 15) * 4)) & 0xF
                result = result * ConstantTime.lookup(tables[i], at: digit)
            }
        }
        return BN254CX.GT(result)
    }
}

extension BN254CX.CurvePoint {
    /// Σ kᵢ·Tᵢ[1] reading the tables by index and skipping zero digits. Leaks: the scalars.
    static func jointMultiplyVartime<let count: Int>(_ tables: InlineArray<count, InlineArray<16, Self>>,
                                                    _ scalars: InlineArray<count, FixedUInt<4>>, windows: Int) -> Self {
        var result = Self.infinity
        for window in stride(from: windows - 1, through: 0, by: -1) {
            for _ in 0..<4 { result = result.doubled() }
            for i in 0..<count {
                let digit = Int((scalars[i].limbs[window >> 4] >> UInt64((window & 15) * 4)) & 0xF)
                if digit != 0 { result = result + tables[i][digit] }
            }
        }
        return result
    }
}

extension BN254CX.G1 {
    /// k·P for a public k, by GLV with width-5 NAFs
    /// (`CurvePoint.multipliedGLVVartime(by:)`). Leaks: k.
    public func multipliedVartime(by k: BN254CX.Scalar) -> BN254CX.G1 {
        BN254CX.G1(point.multipliedGLVVartime(by: k.integer))
    }
}

extension BN254CX.G2 {
    /// k·Q for a public k, by Galbraith–Scott with direct table reads. Leaks: k.
    public func multipliedVartime(by k: BN254CX.Scalar) -> BN254CX.G2 {
        let pieces = BN254CX.gsDecomposition(k.integer)
        var base = point
        var tables = InlineArray<4, InlineArray<16, BN254CX.G2Projective>>(repeating: BN254CX.G2Projective.multiplesTable(base))
        for i in 0..<4 {
            if i > 0 { base = base.psi() }
            tables[i] = BN254CX.G2Projective.multiplesTable(base.negated(if: pieces[i].isNegative))
        }
        return BN254CX.G2(BN254CX.G2Projective.jointMultiplyVartime(tables, InlineArray<4, FixedUInt<4>> { pieces[$0].magnitude }, windows: 17))
    }
}
