// Fixed-width arithmetic against the reference integer (logged seed).

import CryptoCore
import Testing
import TestSupport

@Suite struct FixedUIntTests {
    /// Swift 6.3.1 release builds once dropped the limb writes of these calls inside an array
    /// literal (the result was the unmodified left operand); the returns now go through
    /// `withExtendedLifetime`. Run in release, as the README's test command does.
    @Test func arrayLiteralsKeepTheResult() {
        let a = opaque(100), b = opaque(5)
        let values: [FixedUInt<4>] = [a.addingReportingCarry(b).sum, a.subtractingReportingBorrow(b).difference,
                                      a.multipliedFullWidth(by: b).low, a.multipliedAdding(3).product]
        #expect(values.map { $0.limbs[0] } == [105, 95, 500, 300])
        let nested: [[FixedUInt<4>]] = [[a.addingReportingCarry(b).sum]]
        #expect(nested[0][0].limbs[0] == 105)
    }

    @inline(never) private func opaque(_ value: UInt64) -> FixedUInt<4> { FixedUInt(value) }

    @Test func additionAndSubtractionMatchReference() {
        check(FixedUInt<1>.self)
        check(FixedUInt<4>.self)
        check(FixedUInt<8>.self)
        check(FixedUInt<17>.self)

        func check<let n: Int>(_: FixedUInt<n>.Type) {
            var random = TestRandom("FixedUInt<\(n)> add/sub")
            let modulus = ReferenceInteger.one << (64 * n)
            for _ in 0..<300 {
                let a: FixedUInt<n> = edgyValue(&random), b: FixedUInt<n> = edgyValue(&random)
                let (sum, carry) = a.addingReportingCarry(b)
                let expectedSum = a.reference + b.reference
                #expect(sum.reference == expectedSum % modulus)
                #expect(carry == (expectedSum >= modulus ? 1 : 0))
                let (difference, borrow) = a.subtractingReportingBorrow(b)
                let expectedBorrow: UInt64 = a.reference < b.reference ? 1 : 0
                #expect(borrow == expectedBorrow)
                #expect(difference.reference == (a.reference + (expectedBorrow == 1 ? modulus : .zero) - b.reference))
            }
        }
    }

    @Test func multiplicationMatchesReference() {
        check(FixedUInt<1>.self)
        check(FixedUInt<4>.self)
        check(FixedUInt<6>.self)
        check(FixedUInt<16>.self)

        func check<let n: Int>(_: FixedUInt<n>.Type) {
            var random = TestRandom("FixedUInt<\(n)> mul")
            let modulus = ReferenceInteger.one << (64 * n)
            for _ in 0..<200 {
                let a: FixedUInt<n> = edgyValue(&random), b: FixedUInt<n> = edgyValue(&random)
                let (high, low) = a.multipliedFullWidth(by: b)
                let product = a.reference * b.reference
                #expect(low.reference == product % modulus)
                #expect(high.reference == product.quotientAndRemainder(dividingBy: modulus).quotient)
                let small = random.next()
                let (scaled, carry) = a.multipliedAdding(small, 7)
                let expected = a.reference * ReferenceInteger(small) + ReferenceInteger(7)
                #expect(scaled.reference == expected % modulus)
                #expect(ReferenceInteger(carry) == expected.quotientAndRemainder(dividingBy: modulus).quotient)
            }
        }
    }

    @Test func shiftsAndComparisonsMatchReference() {
        var random = TestRandom("FixedUInt shifts")
        let modulus = ReferenceInteger.one << 320
        for _ in 0..<200 {
            let a: FixedUInt<5> = edgyValue(&random), b: FixedUInt<5> = edgyValue(&random)
            let amount = Int(random.next() % 330)
            #expect(a.shiftedLeft(by: amount).reference == (a.reference << amount) % modulus)
            #expect(a.shiftedRight(by: amount).reference == a.reference.quotientAndRemainder(dividingBy: .one << amount).quotient)
            let top = random.next() & 1
            #expect(a.shiftedRightOne(insertingTopBit: top).reference
                    == a.reference.quotientAndRemainder(dividingBy: ReferenceInteger(2)).quotient + (top == 1 ? .one << 319 : .zero))
            #expect(a.isLess(than: b).isTrueVartime == (a.reference < b.reference))
            #expect(a.isEqual(to: b).isTrueVartime == (a.reference == b.reference))
            #expect(a.isEqual(to: a).isTrueVartime)
            #expect(a.isZero.isTrueVartime == a.reference.isZero)
            #expect(a.compareVartime(b) == (a.reference < b.reference ? -1 : a.reference == b.reference ? 0 : 1))
            #expect(a.bitLengthVartime == a.reference.bitLength)
            for bit in [0, 63, 64, 200, 319] {
                #expect((a.bit(bit) == 1) == a.reference.bit(bit))
            }
        }
    }

    @Test func byteEncodingsRoundTripAndRejectOverflow() {
        var random = TestRandom("FixedUInt bytes")
        for _ in 0..<100 {
            let a = FixedUInt<4>.random(using: &random)
            let bytes = a.bigEndianBytes()
            #expect(bytes == a.reference.bigEndian(count: 32))
            #expect(FixedUInt<4>(bigEndian: bytes)?.isEqual(to: a).isTrueVartime == true)
            #expect(FixedUInt<4>(littleEndian: bytes.reversed())?.isEqual(to: a).isTrueVartime == true)
        }
        // Shorter input is zero-extended; longer input only with zero padding.
        #expect(FixedUInt<1>(bigEndian: [0x01, 0x02])?.limbs[0] == 0x0102)
        #expect(FixedUInt<1>(bigEndian: [0, 0, 0, 0, 0, 0, 0, 0, 0, 5])?.limbs[0] == 5)
        #expect(FixedUInt<1>(bigEndian: [1, 0, 0, 0, 0, 0, 0, 0, 0]) == nil)
        #expect(FixedUInt<1>(littleEndian: [UInt8](repeating: 0, count: 9)) == nil)
        #expect(FixedUInt<2>(bigEndian: [UInt8]())?.isZero.isTrueVartime == true)
        #expect(FixedUInt<2>(0xABCD).bigEndianBytes(count: 3) == [0x00, 0xAB, 0xCD])
    }

    /// Every length, so that each partial-limb path of both encodings runs: decoding L random
    /// bytes (a zero prefix beyond the width) gives the integer the reference reads from them,
    /// and c bytes out are the full encoding's last c bytes, zero-extended past the width.
    @Test func byteEncodingsAtEveryLength() {
        checkByteEncodings(FixedUInt<1>.self)
        checkByteEncodings(FixedUInt<4>.self)
        checkByteEncodings(FixedUInt<5>.self)
        checkByteEncodings(FixedUInt<32>.self)
    }

    /// Every length from 0 to four bytes past the width, against the reference integer:
    /// decoding (a longer input with a zero prefix decodes, with a non-zero byte in the prefix
    /// it does not) and encoding to `count` bytes (zero-padded on the left, or the low bytes).
    private func checkByteEncodings<let n: Int>(_: FixedUInt<n>.Type) {
        var random = TestRandom("FixedUInt byte lengths \(n)")
        let width = 8 * n
        for length in 0...(width + 4) {
            let value = (0..<min(length, width)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let padding = max(0, length - width)
            let bytes = [UInt8](repeating: 0, count: padding) + value
            #expect(FixedUInt<n>(bigEndian: bytes)?.reference == ReferenceInteger(bigEndian: bytes), "width \(width), length \(length)")
            if padding > 0 {
                var overflowing = bytes
                overflowing[Int(random.next() % UInt64(padding))] = UInt8(truncatingIfNeeded: random.next() | 1)
                #expect(ReferenceInteger(bigEndian: overflowing).bitLength > 64 * n)  // the input does overflow
                #expect(FixedUInt<n>(bigEndian: overflowing) == nil, "width \(width), length \(length), non-zero prefix")
            }
            let a = FixedUInt<n>.random(using: &random)
            let full = a.reference.bigEndian(count: width)
            let expected = [UInt8](repeating: 0, count: padding) + full.suffix(min(length, width))
            #expect(a.bigEndianBytes(count: length) == expected, "width \(width), count \(length)")
        }
    }

    @Test func selectionAndSwapFollowTheChoice() {
        var random = TestRandom("FixedUInt select")
        for _ in 0..<50 {
            let a = FixedUInt<3>.random(using: &random), b = FixedUInt<3>.random(using: &random)
            let flag = random.next() & 1 == 1
            #expect(FixedUInt.select(a, b, if: Choice(flag)).reference == (flag ? a : b).reference)
            var x = a, y = b
            FixedUInt.conditionalSwap(&x, &y, if: Choice(flag))
            #expect(x.reference == (flag ? b : a).reference)
            #expect(y.reference == (flag ? a : b).reference)
            var z = a
            z.conditionalAssign(b, if: Choice(flag))
            #expect(z.reference == (flag ? b : a).reference)
        }
    }

    @Test func resizingKeepsTheLowLimbs() {
        let value = FixedUInt<3>(limbs: [1, 2, 3])
        #expect(Array(value.resized(to: FixedUInt<5>.self).reference.words(count: 5)) == [1, 2, 3, 0, 0])
        #expect(Array(value.resized(to: FixedUInt<2>.self).reference.words(count: 2)) == [1, 2])
    }
}
