// u₁·G + u₂·Q for signature verification, where every input is public: interleaved wNAF with
// width 7 for G (odd multiples precomputed in the generated table) and width 5 for Q; the
// doublings between two additions run in Jacobian coordinates (P256JacobianDoubling.swift).

import CryptoCore

extension P256 {
    /// u₁·G + u₂·Q by interleaved sliding windows. Leaks: u₁, u₂ and Q through the sequence of
    /// additions (all public in ECDSA verification).
    package static func doubleScalarMultiplyVartime(
        generatorScalar u1: FixedUInt<4>, point q: ProjectivePoint, scalar u2: FixedUInt<4>
    ) -> ProjectivePoint {
        let gDigits = nonAdjacentFormVartime(u1, width: 7)
        let qDigits = nonAdjacentFormVartime(u2, width: 5)
        var qTable = [q]  // Q, 3Q, 5Q, …, 15Q
        let twoQ = q.doubled()
        for _ in 1..<8 { qTable.append(qTable[qTable.count - 1] + twoQ) }
        var accumulator = ProjectivePoint.identity
        var top = gDigits.count - 1
        while top >= 0 && gDigits[top] == 0 && qDigits[top] == 0 { top -= 1 }
        var i = top
        var owed = -1  // doublings not yet done; the first digit lands on the identity, undoubled
        while i >= 0 {
            owed += 1
            let g = gDigits[i], h = qDigits[i]
            if g == 0 && h == 0 {
                i -= 1
                continue
            }
            // A run of two or more doublings is cheaper in Jacobian coordinates.
            accumulator = owed > 1 ? accumulator.doubled(repeatedly: owed) : owed == 1 ? accumulator.doubled() : accumulator
            owed = 0
            if g != 0 {
                let multiple = tablePoint(generatorOddMultipleLimbs, (abs(g) - 1) / 2)
                accumulator = accumulator.adding(g > 0 ? multiple : multiple.negated)
            }
            if h != 0 {
                let multiple = qTable[(abs(h) - 1) / 2]
                accumulator = accumulator + (h > 0 ? multiple : multiple.negated)
            }
            i -= 1
        }
        if owed > 0 { accumulator = accumulator.doubled(repeatedly: owed) }
        return accumulator
    }
}
