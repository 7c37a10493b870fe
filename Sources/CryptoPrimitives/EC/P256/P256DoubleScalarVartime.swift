// u₁·G + u₂·Q for signature verification, where every input is public: interleaved wNAF with
// width 7 for G (odd multiples precomputed in the generated table) and width 5 for Q. The
// accumulator stays in Jacobian coordinates throughout: the doublings are the a = −3 Jacobian
// doubling (P256JacobianDoubling.swift), the additions of G's multiples the Jacobian-plus-affine
// madd-2007-bl and those of Q's the add-2007-bl (P256JacobianAddition.swift), with the
// exceptional cases (identity, P = ±Q) taken by branches, which is fine for public inputs.

import CryptoCore

extension P256 {
    /// u₁·G + u₂·Q by interleaved sliding windows. Leaks: u₁, u₂ and Q through the sequence of
    /// additions and the exceptional-case branches (all public in ECDSA verification).
    package static func doubleScalarMultiplyVartime(
        generatorScalar u1: FixedUInt<4>, point q: ProjectivePoint, scalar u2: FixedUInt<4>
    ) -> ProjectivePoint {
        ProjectivePoint(doubleScalarMultiplyJacobianVartime(generatorScalar: u1, point: q.jacobian, scalar: u2))
    }

    /// u₁·G + u₂·Q, in Jacobian coordinates. Leaks: u₁, u₂ and Q (see
    /// ``doubleScalarMultiplyVartime(generatorScalar:point:scalar:)``).
    package static func doubleScalarMultiplyJacobianVartime(
        generatorScalar u1: FixedUInt<4>, point q: JacobianPoint, scalar u2: FixedUInt<4>
    ) -> JacobianPoint {
        let gDigits = nonAdjacentFormVartime(u1, width: 7)
        let qDigits = nonAdjacentFormVartime(u2, width: 5)
        var qTable = [q]  // Q, 3Q, 5Q, …, 15Q
        let twoQ = q.doubled()
        for _ in 1..<8 { qTable.append(qTable[qTable.count - 1].addingVartime(twoQ)) }
        var accumulator = JacobianPoint.identity
        var i = gDigits.count - 1
        while i >= 0 && gDigits[i] == 0 && qDigits[i] == 0 { i -= 1 }
        var started = false  // the first digit lands on the identity, undoubled
        while i >= 0 {
            if started { accumulator = accumulator.doubled() }
            let g = gDigits[i], h = qDigits[i]
            if g != 0 {
                let multiple = tablePoint(generatorOddMultipleLimbs, (abs(g) - 1) / 2)
                accumulator = accumulator.addingVartime(g > 0 ? multiple : multiple.negated)
                started = true
            }
            if h != 0 {
                let multiple = qTable[(abs(h) - 1) / 2]
                accumulator = accumulator.addingVartime(h > 0 ? multiple : multiple.negated)
                started = true
            }
            i -= 1
        }
        return accumulator
    }
}
