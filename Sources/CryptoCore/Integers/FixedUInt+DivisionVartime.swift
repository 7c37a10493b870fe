// Long division of fixed-width integers, for generators and tests that derive constants
// (Babai rounding constants of the BN254CX endomorphisms). Never on secrets.

extension FixedUInt {
    /// (⌊self / divisor⌋, self mod divisor) by binary long division. Leaks: both operands
    /// (the loop follows their bits); public values only. The divisor must not be zero.
    package func quotientAndRemainderVartime(dividingBy divisor: FixedUInt) -> (quotient: FixedUInt, remainder: FixedUInt) {
        var quotient = FixedUInt.zero, remainder = FixedUInt.zero
        for i in stride(from: bitLengthVartime - 1, through: 0, by: -1) {
            let (shifted, overflow) = (remainder.shiftedLeft(by: 1), remainder.bit(limbCount * 64 - 1))
            remainder = shifted
            remainder.limbs[0] |= bit(i)
            if overflow == 1 || remainder.compareVartime(divisor) >= 0 {
                remainder = remainder.subtractingReportingBorrow(divisor).difference
                quotient.limbs[i / 64] |= 1 << UInt64(i % 64)
            }
        }
        return withExtendedLifetime((quotient, remainder)) { (quotient, remainder) }  // see addingReportingCarry
    }
}
