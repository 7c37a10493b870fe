// The Montgomery arithmetic core: every modular multiplication in the engine (P-256 field and
// order, BN254CX p and r, RSA moduli) runs through these functions, specialised per width.
// Reference: Koç, Acar, Kaliski, "Analyzing and Comparing Montgomery Multiplication
// Algorithms" (1996), CIOS method. R = 2^(64·limbCount).

extension FixedUInt {
    /// `a · b · R⁻¹ mod m`. Requires `m` odd, `a · b < R · m` (true when one operand is below
    /// `m` and the other below `R`); the result is fully reduced. 16 limbs (the CRT halves of
    /// RSA-2048) run the generated straight-line kernel (FixedUInt+MontgomeryProductUnrolled16.swift),
    /// other widths from 8 limbs the product-scanning loop, narrower ones the CIOS loop; the
    /// choice folds away when the width is known. A 32-limb kernel, written out the same way, is
    /// 67 KB of code: it ran 4 % faster in one binary and twice as slow in another, so wider
    /// moduli keep loops.
    @inlinable @inline(__always)
    package static func montgomeryProduct(
        _ a: FixedUInt, _ b: FixedUInt, modulus m: FixedUInt, inverse: UInt64
    ) -> FixedUInt {
        if limbCount == 16 {
            return unsafeBitCast(FixedUInt<16>.montgomeryProductUnrolled16(
                unsafeBitCast(a, to: FixedUInt<16>.self), unsafeBitCast(b, to: FixedUInt<16>.self),
                modulus: unsafeBitCast(m, to: FixedUInt<16>.self), inverse: inverse), to: FixedUInt.self)
        }
        if limbCount >= 8 { return montgomeryProductScanning(a, b, modulus: m, inverse: inverse) }
        return montgomeryProductLoop(a, b, modulus: m, inverse: inverse)
    }

    /// `a · b · R⁻¹ mod m` by product scanning (Koç, Acar, Kaliski 1996, FIPS method), the
    /// same conditions and result as ``montgomeryProduct(_:_:modulus:inverse:)``, at any width.
    /// A loop step takes index i and its mirror k − i of column k together, four products into
    /// four accumulators (one product each per step: plain add/adc/adc chains, see
    /// FixedUInt+MontgomerySquare.swift): about 0.8 of the instructions of the CIOS loop below,
    /// in a few hundred bytes of code. Constant time: every loop bound and memory index depends
    /// on the width and the column number only.
    @inlinable
    package static func montgomeryProductScanning(
        _ a: FixedUInt, _ b: FixedUInt, modulus m: FixedUInt, inverse: UInt64
    ) -> FixedUInt {
        let x = a.limbs, y = b.limbs, modulusLimbs = m.limbs
        var u = InlineArray<limbCount, UInt64>(repeating: 0)
        var result = FixedUInt.zero
        var column = ColumnAccumulator()
        for k in 0..<(2 &* limbCount) {
            // Column k pairs index i with its mirror k − i, for lower ≤ i < k − i: aᵢ·bₖ₋ᵢ,
            // aₖ₋ᵢ·bᵢ, uᵢ·mₖ₋ᵢ and uₖ₋ᵢ·mᵢ, then the middle terms when k is even. Below column
            // n, uₖ is still zero here (it is chosen at the end of this column).
            let lower = Swift.max(0, k &- limbCount &+ 1)
            let half = (k &+ 1) >> 1
            var products = ColumnAccumulator(), mirrored = ColumnAccumulator()
            var reduction = ColumnAccumulator()
            var i = lower
            while i < half {
                products.add(x[unchecked: i], times: y[unchecked: k &- i])
                mirrored.add(x[unchecked: k &- i], times: y[unchecked: i])
                reduction.add(u[unchecked: i], times: modulusLimbs[unchecked: k &- i])
                column.add(u[unchecked: k &- i], times: modulusLimbs[unchecked: i])
                i &+= 1
            }
            column.add(products)
            column.add(mirrored)
            column.add(reduction)
            if k & 1 == 0 {
                column.add(x[unchecked: k >> 1], times: y[unchecked: k >> 1])
                column.add(u[unchecked: k >> 1], times: modulusLimbs[unchecked: k >> 1])
            }
            if k < limbCount {
                // Choose uₖ so that the column's low word becomes zero.
                let uk = column.low &* inverse
                u[unchecked: k] = uk
                column.add(uk, times: modulusLimbs[unchecked: 0])
                _ = column.shiftOut()
            } else {
                result.limbs[unchecked: k &- limbCount] = column.shiftOut()
            }
        }
        return subtractingModulusIfNeeded(result, top: column.low, modulus: m)
    }

    /// `a · b · R⁻¹ mod m` by CIOS with the multiplication and reduction passes fused, so each
    /// limb of the accumulator is loaded and stored once per outer step; the same conditions and
    /// result as ``montgomeryProduct(_:_:modulus:inverse:)``, at any width.
    @inlinable @inline(__always)
    package static func montgomeryProductLoop(
        _ a: FixedUInt, _ b: FixedUInt, modulus m: FixedUInt, inverse: UInt64
    ) -> FixedUInt {
        var t = FixedUInt.zero
        var top: UInt64 = 0
        for i in 0..<limbCount {
            let bi = b.limbs[unchecked: i]
            var (x, productCarry) = UInt64.multiplyAdding(a.limbs[unchecked: 0], bi, t.limbs[unchecked: 0], carry: 0)
            let u = x &* inverse
            var (_, reductionCarry) = UInt64.multiplyAdding(u, m.limbs[unchecked: 0], x, carry: 0)
            for j in 1..<limbCount {
                (x, productCarry) = UInt64.multiplyAdding(a.limbs[unchecked: j], bi, t.limbs[unchecked: j], carry: productCarry)
                (t.limbs[unchecked: j - 1], reductionCarry) = UInt64.multiplyAdding(u, m.limbs[unchecked: j], x, carry: reductionCarry)
            }
            let last = UInt128(top) &+ UInt128(productCarry) &+ UInt128(reductionCarry)
            t.limbs[unchecked: limbCount - 1] = UInt64(truncatingIfNeeded: last)
            top = UInt64(truncatingIfNeeded: last &>> 64)
        }
        return subtractingModulusIfNeeded(t, top: top, modulus: m)
    }

    /// `(top · R + t) − m` if that is non-negative, else `t`; for values below `2m`.
    @inlinable @inline(__always)
    package static func subtractingModulusIfNeeded(_ t: FixedUInt, top: UInt64, modulus m: FixedUInt) -> FixedUInt {
        let (difference, borrow) = t.subtractingReportingBorrow(m)
        let (_, finalBorrow) = UInt64.subtractingWithBorrow(top, 0, borrow: borrow)
        return select(t, difference, if: Choice(bit: finalBorrow))
    }

    /// `a + b mod m` for `a, b < m`.
    @inlinable @inline(__always)
    package static func modularSum(_ a: FixedUInt, _ b: FixedUInt, modulus m: FixedUInt) -> FixedUInt {
        let (sum, carry) = a.addingReportingCarry(b)
        return subtractingModulusIfNeeded(sum, top: carry, modulus: m)
    }

    /// `a − b mod m` for `a, b < m`.
    @inlinable @inline(__always)
    package static func modularDifference(_ a: FixedUInt, _ b: FixedUInt, modulus m: FixedUInt) -> FixedUInt {
        let (difference, borrow) = a.subtractingReportingBorrow(b)
        let mask = Choice(bit: borrow).mask
        var correction = m
        for i in 0..<limbCount {
            correction.limbs[unchecked: i] &= mask
        }
        return difference.addingReportingCarry(correction).sum
    }

    /// `−a mod m` for `a < m`.
    @inlinable @inline(__always)
    package static func modularNegation(_ a: FixedUInt, modulus m: FixedUInt) -> FixedUInt {
        modularDifference(.zero, a, modulus: m)
    }

    /// `base^exponent` in Montgomery form, with a fixed 4-bit window over every bit of the
    /// exponent's width and a table read that scans all 16 entries: the time depends on the
    /// widths only, never on the exponent's value.
    @inlinable
    package static func montgomeryPower<let exponentLimbs: Int>(
        _ base: FixedUInt, _ exponent: FixedUInt<exponentLimbs>,
        modulus m: FixedUInt, inverse: UInt64, one: FixedUInt
    ) -> FixedUInt {
        var table = InlineArray<16, FixedUInt>(repeating: one)
        table[1] = base
        for i in 2..<16 {
            table[i] = montgomeryProduct(table[i - 1], base, modulus: m, inverse: inverse)
        }
        var result = one
        var position = FixedUInt<exponentLimbs>.bitWidth - 4
        while position >= 0 {
            for _ in 0..<4 {
                result = montgomerySquare(result, modulus: m, inverse: inverse)
            }
            let window = (exponent.limbs[position >> 6] >> UInt64(position & 63)) & 0xF
            var entry = one
            for i in 0..<16 {
                entry = select(table[i], entry, if: UInt64(i).isEqual(to: window))
            }
            result = montgomeryProduct(result, entry, modulus: m, inverse: inverse)
            position -= 4
        }
        return result
    }

    /// Two powers `base^exponent` and `otherBase^otherExponent` in Montgomery form, in lockstep
    /// (the CRT halves of an RSA private operation): each step of one power, then the same step
    /// of the other. Each kernel then runs twice in a row — half the switches between the
    /// square's and the product's code — and two independent carry chains follow each other
    /// closely enough for the out-of-order core to overlap them: 0.90 of the time of one power
    /// after the other in RSA-2048 signing. Fixed 5-bit windows over every bit of the exponents'
    /// width (for 1024 bits, 205 products where 4-bit windows take 256, and 30 for the table
    /// where they take 14), each table read a scan of all 32 entries: the time depends on the
    /// widths only, never on the bases' or the exponents' values.
    @inlinable
    package static func montgomeryPowers<let exponentLimbs: Int>(
        _ base: FixedUInt, _ exponent: FixedUInt<exponentLimbs>, modulus m: FixedUInt, inverse: UInt64, one: FixedUInt,
        alongside otherBase: FixedUInt, _ otherExponent: FixedUInt<exponentLimbs>,
        modulus otherM: FixedUInt, inverse otherInverse: UInt64, one otherOne: FixedUInt
    ) -> (FixedUInt, FixedUInt) {
        // baseⁱ for i < 32: even powers by squaring (cheaper than a product), odd by one product.
        var table = InlineArray<32, FixedUInt>(repeating: one)
        var otherTable = InlineArray<32, FixedUInt>(repeating: otherOne)
        table[1] = base
        otherTable[1] = otherBase
        for i in 2..<32 {
            if i & 1 == 0 {
                table[i] = montgomerySquare(table[i >> 1], modulus: m, inverse: inverse)
                otherTable[i] = montgomerySquare(otherTable[i >> 1], modulus: otherM, inverse: otherInverse)
            } else {
                table[i] = montgomeryProduct(table[i - 1], base, modulus: m, inverse: inverse)
                otherTable[i] = montgomeryProduct(otherTable[i - 1], otherBase, modulus: otherM, inverse: otherInverse)
            }
        }
        // The five bits of `e` from `position` up (zeros beyond the width); the position is public.
        func window(_ e: FixedUInt<exponentLimbs>, at position: Int) -> UInt64 {
            let limb = position >> 6, shift = position & 63
            var bits = e.limbs[limb] >> UInt64(shift)
            if shift > 59 && limb + 1 < exponentLimbs {
                bits |= e.limbs[limb + 1] << UInt64(64 - shift)
            }
            return bits & 31
        }
        var result = one, otherResult = otherOne
        var position = (FixedUInt<exponentLimbs>.bitWidth + 4) / 5 * 5 - 5  // the top window may be short
        while position >= 0 {
            for _ in 0..<5 {
                result = montgomerySquare(result, modulus: m, inverse: inverse)
                otherResult = montgomerySquare(otherResult, modulus: otherM, inverse: otherInverse)
            }
            let digit = window(exponent, at: position), otherDigit = window(otherExponent, at: position)
            var entry = one, otherEntry = otherOne
            for i in 0..<32 {  // both tables scanned whole: the digits are secret
                entry = select(table[i], entry, if: UInt64(i).isEqual(to: digit))
                otherEntry = select(otherTable[i], otherEntry, if: UInt64(i).isEqual(to: otherDigit))
            }
            result = montgomeryProduct(result, entry, modulus: m, inverse: inverse)
            otherResult = montgomeryProduct(otherResult, otherEntry, modulus: otherM, inverse: otherInverse)
            position -= 5
        }
        return (result, otherResult)
    }

    /// `base^exponent` in Montgomery form with a width-5 sliding window (width 1 for exponents
    /// of at most 64 bits).
    ///
    /// Leaks: the exponent (its bits shape the sequence of squarings and multiplications). The
    /// base is never branched on and never indexes memory, so this is constant time for a
    /// secret base under a public exponent — RSA's `e`, or `m − 2` in a Fermat inversion.
    @inlinable
    package static func montgomeryPowerVartime<let exponentLimbs: Int>(
        _ base: FixedUInt, _ exponent: FixedUInt<exponentLimbs>,
        modulus m: FixedUInt, inverse: UInt64, one: FixedUInt
    ) -> FixedUInt {
        // Odd powers base¹, base³, …, base³¹ — worth it for long exponents only; a short one
        // such as RSA's 65537 uses plain square-and-multiply (width 1, no table).
        let bitLength = exponent.bitLengthVartime
        let width = bitLength > 64 ? 5 : 1
        var oddPowers = InlineArray<16, FixedUInt>(repeating: base)
        if width > 1 {
            let squared = montgomerySquare(base, modulus: m, inverse: inverse)
            for i in 1..<16 {
                oddPowers[i] = montgomeryProduct(oddPowers[i - 1], squared, modulus: m, inverse: inverse)
            }
        }
        // The leading window starts the result directly (no squaring of one).
        var result = one
        var started = false
        var i = bitLength - 1
        while i >= 0 {
            if exponent.bit(i) == 0 {
                result = montgomerySquare(result, modulus: m, inverse: inverse)
                i -= 1
                continue
            }
            // The longest window of at most `width` bits that starts here and ends on a one.
            var length = min(width, i + 1)
            while exponent.bit(i - length + 1) == 0 { length -= 1 }
            var window = 0
            for j in 0..<length { window = window << 1 | Int(exponent.bit(i - j)) }
            if started {
                for _ in 0..<length { result = montgomerySquare(result, modulus: m, inverse: inverse) }
                result = montgomeryProduct(result, oddPowers[window >> 1], modulus: m, inverse: inverse)
            } else {
                result = oddPowers[window >> 1]
                started = true
            }
            i -= length
        }
        return result
    }
}

// MARK: - Constants of a modulus

extension FixedUInt {
    /// `−m⁻¹ mod 2⁶⁴` for odd `m` (Newton iteration; public input).
    @inlinable
    package static func montgomeryInverse(of m: FixedUInt) -> UInt64 {
        let m0 = m.limbs[0]
        var x: UInt64 = 1
        for _ in 0..<6 {  // each step doubles the number of correct low bits: 1 → 64
            x = x &* (2 &- m0 &* x)
        }
        return 0 &- x
    }

    /// `2^k mod m` by repeated modular doubling from 1, for a public odd `m > 1`.
    @inlinable
    package static func powerOfTwo(_ k: Int, modulo m: FixedUInt) -> FixedUInt {
        var x = FixedUInt(1)
        x = subtractingModulusIfNeeded(x, top: 0, modulus: m)  // m could be 1 only in misuse
        for _ in 0..<k {
            let (doubled, carry) = x.addingReportingCarry(x)
            x = subtractingModulusIfNeeded(doubled, top: carry, modulus: m)
        }
        return x
    }
}
