// Each constant-time helper against the plain version it replaces.

import CryptoCore
import Testing
import TestSupport

@Suite struct ConstantTimeTests {
    @Test func choiceOperatorsMatchBooleanLogic() {
        for a in [false, true] {
            for b in [false, true] {
                #expect((Choice(a) & Choice(b)).isTrueVartime == (a && b))
                #expect((Choice(a) | Choice(b)).isTrueVartime == (a || b))
                #expect((Choice(a) ^ Choice(b)).isTrueVartime == (a != b))
            }
            #expect((!Choice(a)).isTrueVartime == !a)
            #expect(Choice(a).mask == (a ? UInt64.max : 0))
            #expect(Choice(a).bit == (a ? 1 : 0))
        }
        #expect(Choice.true.isTrueVartime && !Choice.false.isTrueVartime)
    }

    @Test func wordComparisonsMatchPlainOnes() {
        var random = TestRandom("word comparisons")
        let edges: [UInt64] = [0, 1, 2, .max, .max - 1, 1 << 63, (1 << 63) - 1]
        var values = edges
        for _ in 0..<200 { values.append(random.next()) }
        for a in values {
            let b = random.next() & 1 == 0 ? a : values[Int(random.next() % UInt64(values.count))]
            #expect(a.isEqual(to: b).isTrueVartime == (a == b))
            #expect(a.isLess(than: b).isTrueVartime == (a < b))
            #expect(a.isZero.isTrueVartime == (a == 0))
            let flag = random.next() & 1 == 1
            #expect(UInt64.select(a, b, if: Choice(flag)) == (flag ? a : b))
            var x = a, y = b
            UInt64.conditionalSwap(&x, &y, if: Choice(flag))
            #expect((x, y) == (flag ? (b, a) : (a, b)))
            #expect(UInt8.select(UInt8(truncatingIfNeeded: a), 7, if: Choice(flag)) == (flag ? UInt8(truncatingIfNeeded: a) : 7))
        }
    }

    @Test func bufferEqualityMatchesPlainEquality() {
        var random = TestRandom("buffer equality")
        for length in 0..<40 {
            let a = random.bytes(length)
            var b = a
            #expect(ConstantTime.isEqual(a, b).isTrueVartime)
            if length > 0 {
                b[Int(random.next() % UInt64(length))] ^= 1 << UInt8(random.next() % 8)
                #expect(!ConstantTime.isEqual(a, b).isTrueVartime)
            }
            #expect(!ConstantTime.isEqual(a, a + [0]).isTrueVartime)
        }
    }

    @Test func tableLookupScansAndMatchesIndexing() {
        let table: [UInt64] = (0..<16).map { $0 &* 0x0101_0101_0101_0101 }
        for index in 0..<16 {
            var visited: [Int] = []
            let found = ConstantTime.lookup(count: table.count, at: UInt64(index),
                                            entry: { visited.append($0); return table[$0] })
            #expect(found == table[index])
            #expect(visited == Array(0..<16))  // every entry read, in order, whatever the index
        }
        // Out of range: entry 0, still after reading every entry.
        #expect(ConstantTime.lookup(count: table.count, at: 16, entry: { table[$0] }) == table[0])
        #expect(ConstantTime.lookup(count: table.count, at: .max, entry: { table[$0] }) == table[0])
    }

    @Test func inlineTableLookupMatchesIndexing() {
        var table = InlineArray<16, UInt64>(repeating: 0)
        for i in 0..<16 { table[i] = UInt64(i) &* 0x9E37_79B9_7F4A_7C15 }
        for index in 0..<16 {
            #expect(ConstantTime.lookup(table, at: UInt64(index)) == table[index])
        }
        #expect(ConstantTime.lookup(table, at: 99) == table[0])
    }

    @Test func conditionalCopyTouchesOnlyWhenTrue() {
        let source: [UInt8] = [1, 2, 3, 4]
        for flag in [false, true] {
            var destination: [UInt8] = [9, 9, 9, 9]
            source.withUnsafeBytes { s in
                destination.withUnsafeMutableBytes { d in ConstantTime.conditionalCopy(s, into: d, if: Choice(flag)) }
            }
            #expect(destination == (flag ? source : [9, 9, 9, 9]))
        }
    }

    @Test func wideArithmeticPrimitivesMatchPlainArithmetic() {
        var random = TestRandom("wide arithmetic")
        for _ in 0..<500 {
            let a = random.next(), b = random.next(), c = random.next(), bit = random.next() & 1
            let (sum, carry) = UInt64.addingWithCarry(a, b, carry: bit)
            #expect(UInt128(carry) << 64 | UInt128(sum) == UInt128(a) + UInt128(b) + UInt128(bit))
            let (difference, borrow) = UInt64.subtractingWithBorrow(a, b, borrow: bit)
            #expect(borrow == (UInt128(a) < UInt128(b) + UInt128(bit) ? 1 : 0))
            #expect(difference == a &- b &- bit)
            let (low, high) = UInt64.multiplyAdding(a, b, c, carry: bit)
            #expect(UInt128(high) << 64 | UInt128(low) == UInt128(a) * UInt128(b) + UInt128(c) + UInt128(bit))
        }
    }
}
