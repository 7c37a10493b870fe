// Scalar multiplication in constant time: a variable base with signed radix-32 windows, and
// the generator with precomputed per-window tables (no doublings at all).

import CryptoCore

extension P256 {
    /// k·P for a secret k < 2²⁵⁶, in constant time: 51 runs of 5 (Jacobian) doublings and 52
    /// complete additions whatever k is, each addend read from a 16-entry table by a scan of every entry and negated by mask.
    package static func multiply(_ point: ProjectivePoint, by k: FixedUInt<4>) -> ProjectivePoint {
        var table = InlineArray<16, ProjectivePoint>(repeating: point)  // table[j] = (j+1)·P
        table[1] = point.doubled()
        for j in 2..<16 { table[j] = table[j - 1] + point }
        let (magnitudes, negative) = signedWindows(k)
        var accumulator = ProjectivePoint.identity
        for i in stride(from: 51, through: 0, by: -1) {
            if i != 51 {
                accumulator = accumulator.doubled(repeatedly: 5)  // Jacobian doublings
            }
            // table[j] = (j+1)·P; a zero digit reads out of range and is replaced by the identity.
            var addend = ConstantTime.lookup(table, at: magnitudes[i] &- 1)
            addend = .select(.identity, addend, if: magnitudes[i].isZero)
            addend = .select(addend.negated, addend, if: Choice(bit: negative[i]))
            accumulator = accumulator + addend
        }
        return accumulator
    }

    /// k·G for a secret k < 2²⁵⁶, in constant time: one mixed addition per signed radix-32
    /// window from the generated per-window tables, each entry read by a scan of the window's
    /// 16 entries. A zero digit adds a table point anyway and keeps the previous sum by mask.
    package static func multiplyGenerator(by k: FixedUInt<4>) -> ProjectivePoint {
        let (magnitudes, negative) = signedWindows(k)
        var accumulator = ProjectivePoint.identity
        generatorWindowTableLimbs.withUnsafeBufferPointer { table in
            for i in 0..<52 {
                let window = 16 * 8 * i
                // Entry j = (j+1)·32ⁱ·G; a zero digit reads entry 0 and its sum is discarded below.
                var addend = ConstantTime.lookup(count: 16, at: magnitudes[i] &- 1) { j in
                    AffinePoint(x: FieldElement(montgomeryForm: load(table, window + 8 * j)),
                                y: FieldElement(montgomeryForm: load(table, window + 8 * j + 4)))
                }
                addend = .select(addend.negated, addend, if: Choice(bit: negative[i]))
                let sum = accumulator.adding(addend)
                accumulator = .select(accumulator, sum, if: magnitudes[i].isZero)
            }
        }
        return accumulator
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
