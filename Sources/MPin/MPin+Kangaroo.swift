// PIN-error recovery with Pollard's kangaroos, as Milagro's `MPIN_KANGAROO` runs it for
// MAXPIN = 10⁶ (docs/protocols/mpin.md §4): a 14-entry jump table F^(2^m), a trap of 2000 tame jumps, up to
// 8000 wild jumps, jumps chosen by Milagro's internal limb of the first coefficient. The same
// choices give the same answers, including the cases where it gives up.

import CryptoPrimitives

extension MPin.Server {
    /// Jump-table size (`MR_TS`) and trap length (`TRAP`) for MAXPIN 10⁶.
    private static let tableSize = 14
    private static let trapLength = 2000

    /// The PIN error δ = entered − registered with E = F^(−δ), or nil when the kangaroos give
    /// up (which Milagro's also do for some errors; the vectors record both outcomes). Leaks:
    /// the evidence values (public, sent by the verifier to itself) and δ through its running
    /// time.
    public static func pinError(_ evidence: PINErrorEvidence) -> Int? {
        var table: [BN254CX.GT] = []
        var distance: [Int] = []
        var t = evidence.f
        for m in 0..<tableSize {
            distance.append(1 << m)
            table.append(t)
            t = t.squared()
        }
        t = .one
        var dn = 0
        for _ in 0..<trapLength {
            let i = Int(t.milagroFirstLimbVartime % UInt64(tableSize))
            t = t * table[i]
            dn += distance[i]
        }
        let trapInverse = t.inverse
        var ge = evidence.e
        var dm = 0
        var steps = 0
        while dm - dn < Int(MPin.maximumPIN) {
            steps += 1
            if steps > 4 * trapLength { return nil }
            let i = Int(ge.milagroFirstLimbVartime % UInt64(tableSize))
            ge = ge * table[i]
            dm += distance[i]
            if ge == t { return dm - dn }
            if ge == trapInverse { return dn - dm }
        }
        return nil
    }
}
