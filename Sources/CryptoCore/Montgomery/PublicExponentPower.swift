// Raising a secret base to a public 256-bit exponent (the Fermat inverse x^(m−2)) with fixed
// 4-bit windows whose digits index the table directly: the digits are the exponent's, which is
// public, so the reads reveal nothing about the base, and the scan a secret index would need is
// saved (used by BN254CX's Fp and P-256's scalars, each with its own fast product).

extension FixedUInt where limbCount == 4 {
    /// `base^exponent` for a public exponent: 15 products for the table, then per 4-bit window
    /// four squarings and a product unless the digit is 0, from the top nonzero window. Constant
    /// time in `base`: the sequence of operations depends on the exponent only.
    @inlinable @inline(__always)
    package static func powerByPublicExponent<Element>(
        _ base: Element, _ exponent: FixedUInt<4>, one: Element, times: (Element, Element) -> Element
    ) -> Element {
        func digit(_ window: Int) -> Int { Int((exponent.limbs[window >> 4] >> UInt64((window & 15) * 4)) & 0xF) }
        var table = InlineArray<16, Element>(repeating: one)
        for i in 1..<16 { table[i] = times(table[i - 1], base) }
        var top = 63
        while top > 0 && digit(top) == 0 { top -= 1 }  // public
        var result = table[digit(top)]
        for window in stride(from: top - 1, through: 0, by: -1) {
            for _ in 0..<4 { result = times(result, result) }
            let d = digit(window)
            if d != 0 { result = times(result, table[d]) }  // the exponent is public
        }
        return result
    }
}
