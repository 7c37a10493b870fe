// Regressions found by the arithmetic differential fuzz targets (diff-field, diff-bn254cx-tower,
// diff-bn254cx-curve in Fuzz/Sources/mfa-fuzz/Differential+*.swift): each case is an input on
// which the engine and the BigInt reference disagreed and the engine was judged wrong.

import CryptoPrimitives
import Testing

@Suite struct ArithmeticRegressionTests {
    /// `diff-bn254cx-curve`, G1 `multiplied(bySmall: 3967464952, bitCount: 23)`: 23 bits were
    /// recoded into ⌊(23 + 4)/4⌋ = 6 signed digits in [−8, 8), whose largest sum is
    /// 7·(16⁶ − 1)/15 = 7829367, below the masked value 0x7AB5F8 = 8041976; the top digit
    /// wrapped to −8 and the engine returned (−8735240)·P. Every bit count ≡ 3 (mod 4) from 7
    /// to 31 lost the carry for the largest values; the PIN path (20 bits) never did.
    @Test func smallMultipleKeepsTheTopCarry() {
        let p = BN254CX.G1.generator.multiplied(by: BN254CX.Scalar(0x1234_5678_9ABC))
        #expect(p.multiplied(bySmall: 3_967_464_952, bitCount: 23) == p.multipliedVartime(by: BN254CX.Scalar(8_041_976)))
        for bits in 0...32 {
            let k: UInt32 = bits >= 32 ? .max : UInt32((UInt64(1) << UInt64(bits)) - 1)
            #expect(p.multiplied(bySmall: .max, bitCount: bits) == p.multipliedVartime(by: BN254CX.Scalar(UInt64(k))),
                    "all ones over \(bits) bits")
        }
    }
}
