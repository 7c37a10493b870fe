// The divstep (safegcd) inverse against the reference integer: x · x⁻¹ ≡ 1 and x⁻¹ = x^(m−2)
// (Fermat, computed by the reference's own square-and-multiply) for the engine's four moduli
// and for other primes up to 256 bits whose top limbs stress the signed-62 representation.

import CryptoCore
import Testing
import TestSupport

@Suite struct DivstepInverseTests {
    /// Odd primes: P-256 p and n, BN254CX p and r, secp256k1's p, 2²⁵⁵ − 19, the largest
    /// 256-bit prime 2²⁵⁶ − 189, and a one-limb prime.
    static let moduli: [(String, String)] = [
        ("P-256 p", "FFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF"),
        ("P-256 n", "FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551"),
        ("BN254CX p", "2400000008702A0DB0BDDF647A6366D3243FD6EE18093EE1BE6623EF5C1B55B3"),
        ("BN254CX r", "2400000008702A0DB0BDDF647A6366D2C43FD6EE0CC906CEBE11C0A636EB1F6D"),
        ("secp256k1 p", "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFFC2F"),
        ("2^255-19", "7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFED"),
        ("2^256-189", "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF43"),
        ("65537", "10001"),
    ]

    @Test(arguments: moduli)
    func inverseMatchesFermatOnTheReference(name: String, hex: String) {
        let m = ReferenceInteger(hex: hex)
        let modulus = FixedUInt<4>(m)
        let prepared = DivstepModulus(modulus)
        var random = TestRandom("divstep inverse \(name)")
        var values: [ReferenceInteger] = [.zero, .one, ReferenceInteger(2), m - .one, m - ReferenceInteger(2)]
        for _ in 0..<150 { values.append(edgyValue(&random, FixedUInt<4>.self).reference % m) }
        for _ in 0..<150 { values.append(FixedUInt<4>.random(using: &random).reference % m) }
        for x in values {
            let inverse = FixedUInt<4>.divstepInverse(FixedUInt<4>(x), modulus: prepared).reference
            if x == .zero {
                #expect(inverse == .zero, "\(name): 0⁻¹")
                continue
            }
            #expect(inverse < m, "\(name): not reduced")
            #expect(x * inverse % m == .one, "\(name): x · x⁻¹ ≠ 1")
            #expect(inverse == x.power(m - ReferenceInteger(2), modulo: m), "\(name): ≠ x^(m−2)")
        }
    }

    /// The Montgomery-form wrapper: a⁻¹ in Montgomery form from aR, checked by a · a⁻¹ = 1 in
    /// the residue ring and against the generic Fermat power.
    @Test func montgomeryWrapperReturnsTheResidueInverse() {
        typealias Residue = MontgomeryResidue<4, TestP256Prime>
        let prepared = DivstepModulus(TestP256Prime.modulus)
        var random = TestRandom("divstep residue")
        let exponent = FixedUInt<4>(TestP256Prime.modulus.reference - ReferenceInteger(2))
        for _ in 0..<50 {
            let a = Residue(reducing: FixedUInt<4>.random(using: &random))
            let inverse = a.invertedByDivsteps(prepared)
            #expect((a * inverse).isEqual(to: .one).isTrueVartime)
            #expect(inverse.isEqual(to: a.power(exponent)).isTrueVartime)
        }
        #expect(Residue.zero.invertedByDivsteps(prepared).isZero.isTrueVartime)
    }
}
