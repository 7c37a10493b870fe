// AES: FIPS 197 examples, the S-box circuit against the S-box's definition, the modes, and
// the padding check against a plain implementation.

import CryptoPrimitives
import Testing
import TestSupport

@Suite struct AESTests {
    /// FIPS 197 Appendix C.
    @Test func fips197Examples() throws {
        let plaintext = TestHex.bytes("00112233445566778899aabbccddeeff")
        let cases = [("000102030405060708090a0b0c0d0e0f", "69c4e0d86a7b0430d8cdb78070b4c55a"),
                     ("000102030405060708090a0b0c0d0e0f1011121314151617", "dda97ca4864cdfe06eaf70a0ec0d7191"),
                     ("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "8ea2b7ca516745bfeafc49904b496089")]
        for (key, ciphertext) in cases {
            let symmetricKey = SymmetricKey(data: TestHex.bytes(key))
            #expect(try AES.encryptBlock(plaintext, using: symmetricKey) == TestHex.bytes(ciphertext))
            #expect(try AES.decryptBlock(TestHex.bytes(ciphertext), using: symmetricKey) == plaintext)
        }
        #expect(throws: CryptoError.incorrectLength) { try AES.encryptBlock(plaintext, using: SymmetricKey(data: [1, 2, 3])) }
        #expect(throws: CryptoError.incorrectLength) { try AES.encryptBlock([1], using: SymmetricKey(data: [UInt8](repeating: 0, count: 16))) }
    }

    /// The S-box from its definition: the inverse in GF(2⁸) mod x⁸+x⁴+x³+x+1, then the affine map.
    static let definedSbox: [UInt8] = (0..<256).map { x in
        func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
            var a = a, b = b, product: UInt8 = 0
            for _ in 0..<8 {
                if b & 1 == 1 { product ^= a }
                a = (a << 1) ^ (a & 0x80 != 0 ? 0x1B : 0)
                b >>= 1
            }
            return product
        }
        var inverse: UInt8 = 1  // x^254
        for _ in 0..<254 { inverse = multiply(inverse, UInt8(x)) }
        if x == 0 { inverse = 0 }
        var result: UInt8 = 0x63
        for i in 0..<8 {
            let bit = (inverse >> i ^ inverse >> ((i + 4) % 8) ^ inverse >> ((i + 5) % 8) ^ inverse >> ((i + 6) % 8) ^ inverse >> ((i + 7) % 8)) & 1
            result ^= bit << i
        }
        return result
    }

    @Test func sboxCircuitEqualsTheDefinitionOnAllInputs() {
        #expect(Self.definedSbox[0] == 0x63 && Self.definedSbox[0x53] == 0xED)  // FIPS 197 Figure 7
        // The circuit works bit position by bit position, so 64 inputs fit in one state.
        for chunk in 0..<4 {
            let inputs = (0..<64).map { UInt8(64 * chunk + $0) }
            var state = Self.bitsliced(inputs)
            state.substituteBytes()
            #expect(Self.bytes(state) == inputs.map { Self.definedSbox[Int($0)] }, "chunk \(chunk)")
            var inverse = Self.bitsliced(inputs.map { Self.definedSbox[Int($0)] })
            inverse.inverseSubstituteBytes()
            #expect(Self.bytes(inverse) == inputs, "inverse chunk \(chunk)")
            // The rounds' variants, whose constant 0x63 the round keys carry.
            var lessConstant = Self.bitsliced(inputs)
            lessConstant.substituteBytes(addingConstant: false)
            #expect(Self.bytes(lessConstant) == inputs.map { Self.definedSbox[Int($0)] ^ 0x63 }, "less constant, chunk \(chunk)")
            var merged = Self.bitsliced(inputs.map { Self.definedSbox[Int($0)] ^ 0x63 })
            merged.inverseSubstituteBytesLessConstant()
            #expect(Self.bytes(merged) == inputs, "merged inverse, chunk \(chunk)")
            var mergedWide = AESBitslicedState<AESTwoLanes>()
            let narrowInput = Self.bitsliced(inputs.map { Self.definedSbox[Int($0)] ^ 0x63 })
            mergedWide.q0 = AESTwoLanes(broadcasting: narrowInput.q0); mergedWide.q1 = AESTwoLanes(broadcasting: narrowInput.q1)
            mergedWide.q2 = AESTwoLanes(broadcasting: narrowInput.q2); mergedWide.q3 = AESTwoLanes(broadcasting: narrowInput.q3)
            mergedWide.q4 = AESTwoLanes(broadcasting: narrowInput.q4); mergedWide.q5 = AESTwoLanes(broadcasting: narrowInput.q5)
            mergedWide.q6 = AESTwoLanes(broadcasting: narrowInput.q6); mergedWide.q7 = AESTwoLanes(broadcasting: narrowInput.q7)
            mergedWide.inverseSubstituteBytesLessConstant()
            #expect(mergedWide.q0.lane(1) == merged.q0 && mergedWide.q3.lane(0) == merged.q3 && mergedWide.q7.lane(1) == merged.q7)
        }
        // The two-lane engine computes the same thing as the one-lane engine.
        var wide = AESBitslicedState<AESTwoLanes>()
        let narrow = Self.bitsliced((0..<64).map { UInt8($0 * 3) })
        wide.q0 = AESTwoLanes(broadcasting: narrow.q0); wide.q1 = AESTwoLanes(broadcasting: narrow.q1)
        wide.q2 = AESTwoLanes(broadcasting: narrow.q2); wide.q3 = AESTwoLanes(broadcasting: narrow.q3)
        wide.q4 = AESTwoLanes(broadcasting: narrow.q4); wide.q5 = AESTwoLanes(broadcasting: narrow.q5)
        wide.q6 = AESTwoLanes(broadcasting: narrow.q6); wide.q7 = AESTwoLanes(broadcasting: narrow.q7)
        var narrowResult = narrow
        narrowResult.substituteBytes()
        wide.substituteBytes()
        #expect(wide.q0.lane(0) == narrowResult.q0 && wide.q7.lane(1) == narrowResult.q7)
    }

    @Test func cbcRoundTripsEveryKeySizeAndLength() throws {
        var random = TestRandom("cbc round trips")
        for keySize in [16, 24, 32] {
            let key = SymmetricKey(data: random.bytes(keySize))
            for length in 0..<150 {
                let plaintext = random.bytes(length), iv = random.bytes(16)
                let ciphertext = try AES.UnauthenticatedCBC.encrypt(plaintext, using: key, iv: iv)
                #expect(ciphertext.count == (length / 16 + 1) * 16)
                #expect(try AES.UnauthenticatedCBC.decrypt(ciphertext, using: key, iv: iv) == plaintext)
            }
        }
    }

    @Test func everyCBCDecryptionFailureIsTheSameError() throws {
        let key = SymmetricKey(data: [UInt8](repeating: 1, count: 16))
        let iv = [UInt8](repeating: 2, count: 16)
        let good = try AES.UnauthenticatedCBC.encrypt(Array("attack at dawn".utf8), using: key, iv: iv)
        var failures: [[UInt8]] = [[], Array(good.prefix(15)), good + [0], Array(good.dropLast(16))]
        for position in 0..<16 {
            var tampered = good
            tampered[position] ^= 0x01  // flips a bit of the padding byte it chains into
            failures.append(tampered)
        }
        var rejected = 0
        for ciphertext in failures {
            do {
                _ = try AES.UnauthenticatedCBC.decrypt(ciphertext, using: key, iv: iv)
            } catch {
                #expect(error == .authenticationFailure)
                rejected += 1
            }
        }
        #expect(rejected >= failures.count - 2)  // two tampered message bytes leave the padding intact
        #expect(throws: CryptoError.authenticationFailure) { try AES.UnauthenticatedCBC.decrypt(good, using: key, iv: [1]) }
        #expect(throws: CryptoError.authenticationFailure) { try AES.UnauthenticatedCBC.decrypt(good, using: SymmetricKey(data: [1]), iv: iv) }
        #expect(throws: CryptoError.incorrectLength) { try AES.UnauthenticatedCBC.encrypt([1], using: key, iv: iv, padding: .none) }
    }

    @Test func paddingCheckMatchesAPlainImplementation() {
        func plain(_ block: [UInt8]) -> Int? {
            guard let last = block.last, last >= 1, last <= 16 else { return nil }
            return block.suffix(Int(last)).allSatisfy { $0 == last } ? Int(last) : nil
        }
        var random = TestRandom("pkcs7")
        var blocks: [[UInt8]] = []
        for length in 0...17 {
            for value in [UInt8(length), UInt8(length &+ 1), 0, 0xFF] {
                var block = random.bytes(16)
                for i in 0..<min(length, 16) { block[15 - i] = value }
                blocks.append(block)
            }
        }
        for _ in 0..<200 { blocks.append(random.bytes(16)) }
        for block in blocks {
            let (length, valid) = PKCS7.paddingLength(of: block)
            #expect(valid.isTrueVartime == (plain(block) != nil))
            if let expected = plain(block) { #expect(Int(length) == expected) }
        }
    }

    @Test func ctrCounterWrapsAt2To128AndStreamsInPieces() throws {
        // pyca/cryptography: key 00…0f, counter 2¹²⁸ − 2, 64 zero bytes.
        let key = SymmetricKey(data: Array(0...15))
        let counter = [UInt8](repeating: 0xFF, count: 15) + [0xFE]
        let expected = TestHex.bytes("b6b5c2d82d8bd40fcf4ed8f4ae6e97ee3c441f32ce07822364d7a2990e50bb13"
                                     + "c6a13b37878f5b826f4f8162a1c8d8797346139595c0b41e497bbde365f42d0a")
        #expect(try AES.UnauthenticatedCTR.encrypt([UInt8](repeating: 0, count: 64), using: key, counterBlock: counter) == expected)
        var random = TestRandom("ctr pieces")
        let message = random.bytes(1000)
        let whole = try AES.UnauthenticatedCTR.encrypt(message, using: key, counterBlock: counter)
        var stream = try AES.UnauthenticatedCTR.Stream(key: key, counterBlock: counter)
        var pieces: [UInt8] = []
        var offset = 0
        while offset < message.count {
            let end = min(message.count, offset + Int(random.next() % 300))
            pieces += stream.process(message[offset..<end])
            offset = end
        }
        #expect(pieces == whole)
        #expect(try AES.UnauthenticatedCTR.decrypt(whole, using: key, counterBlock: counter) == message)
        #expect(throws: CryptoError.incorrectLength) { try AES.UnauthenticatedCTR.encrypt([1], using: key, counterBlock: [1]) }
    }

    /// Inputs long enough for the cached first round (AESCTRFirstRound, from 4 KiB), against a
    /// keystream of single-block encryptions (FIPS 197): every key size, counters whose last
    /// byte is aligned, misaligned (chunks that straddle a last-byte carry take the plain path)
    /// or near the 2¹²⁸ wrap, lengths that are not whole chunks, and a stream fed in pieces.
    @Test func ctrCachedFirstRoundMatchesSingleBlockKeystream() throws {
        var random = TestRandom("ctr first-round cache")
        let counters: [[UInt8]] = [
            [UInt8](repeating: 0, count: 16),
            random.bytes(15) + [0xF5],
            [UInt8](repeating: 0xFF, count: 15) + [0x03],
            random.bytes(14) + [0xFF, 0x00],
        ]
        for keySize in [16, 24, 32] {
            let key = SymmetricKey(data: random.bytes(keySize))
            for counterBlock in counters {
                let message = random.bytes(4096 + 128 * 40 + 77)
                var counter = counterBlock.reduce(UInt128(0)) { ($0 << 8) | UInt128($1) }
                var expected: [UInt8] = []
                while expected.count < message.count {
                    let block = (0..<16).map { UInt8(truncatingIfNeeded: counter >> UInt128(8 * (15 - $0))) }
                    expected += try AES.encryptBlock(block, using: key)
                    counter &+= 1
                }
                expected = zip(message, expected).map { $0 ^ $1 }
                #expect(try AES.UnauthenticatedCTR.encrypt(message, using: key, counterBlock: counterBlock) == expected)
                var stream = try AES.UnauthenticatedCTR.Stream(key: key, counterBlock: counterBlock)
                let split = 13 + Int(random.next() % 100)
                let pieces = stream.process(message[..<split]) + stream.process(message[split..<(split + 5000)]) + stream.process(message[(split + 5000)...])
                #expect(pieces == expected)
            }
        }
    }

    /// Fixslicing (AESBitslicedRounds): the conjugated MixColumns and InvMixColumns equal
    /// ShiftRows^−i ∘ (Inv)MixColumns ∘ ShiftRows^i built from the plain layers, for offsets of
    /// every residue and sign, on random, all-zero and all-one states; ShiftRows^n composes;
    /// and the two-lane word (SIMDMask gates, 16-bit-piece rotations) matches `UInt64` lane by lane.
    @Test func fixslicedLayersAreConjugatesOfThePlainOnes() {
        var random = TestRandom("aes fixslicing")
        func state(_ planes: [UInt64]) -> AESBitslicedState<UInt64> {
            AESBitslicedState(q0: planes[0], q1: planes[1], q2: planes[2], q3: planes[3],
                              q4: planes[4], q5: planes[5], q6: planes[6], q7: planes[7])
        }
        func planes<W: AESBitslicedWord>(_ s: AESBitslicedState<W>, lane: Int) -> [UInt64] {
            [s.q0, s.q1, s.q2, s.q3, s.q4, s.q5, s.q6, s.q7].map { $0.lane(lane) }
        }
        func wide(_ a: AESBitslicedState<UInt64>, _ b: AESBitslicedState<UInt64>) -> AESBitslicedState<AESTwoLanes> {
            let x = planes(a, lane: 0), y = planes(b, lane: 0)
            func w(_ i: Int) -> AESTwoLanes { AESTwoLanes(lanes: { $0 == 0 ? x[i] : y[i] }) }
            return AESBitslicedState(q0: w(0), q1: w(1), q2: w(2), q3: w(3), q4: w(4), q5: w(5), q6: w(6), q7: w(7))
        }
        var inputs = [state([UInt64](repeating: 0, count: 8)), state([UInt64](repeating: ~0, count: 8))]
        for _ in 0..<6 { inputs.append(state((0..<8).map { _ in random.next() })) }
        for (n, input) in inputs.enumerated() {
            for offset in -5...5 {
                var expected = input, expectedInverse = input
                expected.shiftRows(times: offset); expected.mixColumns(); expected.shiftRows(times: -offset)
                expectedInverse.shiftRows(times: offset); expectedInverse.inverseMixColumns(); expectedInverse.shiftRows(times: -offset)
                var actual = input, actualInverse = input
                actual.mixColumns(fixslicedBy: offset)
                actualInverse.inverseMixColumns(fixslicedBy: offset)
                #expect(planes(actual, lane: 0) == planes(expected, lane: 0), "input \(n) offset \(offset)")
                #expect(planes(actualInverse, lane: 0) == planes(expectedInverse, lane: 0), "inverse, input \(n) offset \(offset)")
                // And the inverse undoes the forward layer.
                var roundTrip = input
                roundTrip.mixColumns(fixslicedBy: offset)
                roundTrip.inverseMixColumns(fixslicedBy: offset)
                #expect(planes(roundTrip, lane: 0) == planes(input, lane: 0), "round trip, input \(n) offset \(offset)")
                // The same on two lanes, the second lane holding another input.
                let other = inputs[(n + 3) % inputs.count]
                var otherExpected = other
                otherExpected.mixColumns(fixslicedBy: offset)
                var two = wide(input, other)
                two.mixColumns(fixslicedBy: offset)
                #expect(planes(two, lane: 0) == planes(expected, lane: 0) && planes(two, lane: 1) == planes(otherExpected, lane: 0),
                        "two lanes, input \(n) offset \(offset)")
                var twoInverse = wide(input, input)
                twoInverse.inverseMixColumns(fixslicedBy: offset)
                #expect(planes(twoInverse, lane: 1) == planes(expectedInverse, lane: 0), "two lanes inverse, input \(n) offset \(offset)")
            }
            // ShiftRows^n: n = 2 is two ShiftRows, −1 is InvShiftRows, 4 is the identity.
            var twice = input, byTwo = input, inverse = input, byMinusOne = input, four = input
            twice.shiftRows(); twice.shiftRows(); byTwo.shiftRows(times: 2)
            inverse.inverseShiftRows(); byMinusOne.shiftRows(times: -1)
            four.shiftRows(times: 4)
            #expect(planes(byTwo, lane: 0) == planes(twice, lane: 0) && planes(byMinusOne, lane: 0) == planes(inverse, lane: 0))
            #expect(planes(four, lane: 0) == planes(input, lane: 0))
            var twoByTwo = wide(input, input)
            twoByTwo.shiftRows(times: 2)
            #expect(planes(twoByTwo, lane: 1) == planes(twice, lane: 0))
        }
        // The gates and rotations of the two-lane word, lane by lane.
        for _ in 0..<16 {
            let a = (random.next(), random.next()), b = (random.next(), random.next())
            let x = AESTwoLanes(lanes: { $0 == 0 ? a.0 : a.1 }), y = AESTwoLanes(lanes: { $0 == 0 ? b.0 : b.1 })
            for lane in 0..<2 {
                let u = lane == 0 ? a.0 : a.1, v = lane == 0 ? b.0 : b.1
                #expect((x & y).lane(lane) == u & v && (x | y).lane(lane) == u | v && (x ^ y).lane(lane) == u ^ v)
                #expect((~x).lane(lane) == ~u && x.rotatedRight16().lane(lane) == u.rotatedRight16())
                #expect(x.rotatedColumns1().lane(lane) == u.rotatedColumns1() && x.rotatedColumns2().lane(lane) == u.rotatedColumns2())
                #expect(x.rotatedColumns3().lane(lane) == u.rotatedColumns3() && x.rotatedRight32().lane(lane) == u.rotatedRight32())
            }
        }
    }

    /// Bytes into bitsliced planes: bit i of byte j goes to bit j of plane i.
    static func bitsliced(_ bytes: [UInt8]) -> AESBitslicedState<UInt64> {
        var planes = [UInt64](repeating: 0, count: 8)
        for (j, byte) in bytes.enumerated() {
            for i in 0..<8 where byte >> i & 1 == 1 { planes[i] |= 1 << UInt64(j) }
        }
        return AESBitslicedState(q0: planes[0], q1: planes[1], q2: planes[2], q3: planes[3],
                                 q4: planes[4], q5: planes[5], q6: planes[6], q7: planes[7])
    }

    static func bytes(_ state: AESBitslicedState<UInt64>) -> [UInt8] {
        let planes = [state.q0, state.q1, state.q2, state.q3, state.q4, state.q5, state.q6, state.q7]
        return (0..<64).map { j in
            (0..<8).reduce(UInt8(0)) { $0 | UInt8((planes[$1] >> UInt64(j)) & 1) << UInt8($1) }
        }
    }
}
