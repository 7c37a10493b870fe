// u₁·G + u₂·Q for signature verification, where every input is public: interleaved wNAF with
// width 7 for G (odd multiples precomputed in the generated table) and width 5 for Q.

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
        while i >= 0 {
            accumulator = accumulator.doubled()
            let g = gDigits[i], h = qDigits[i]
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
        return accumulator
    }
}
