// The deliberate leak: a branch on a secret bit and a table read at a secret index. The run
// script requires memcheck to report it (the proof that secrets really are tracked: a run
// that marks nothing would otherwise pass with zero reports). Triage sorts its reports apart.

/// A 256-entry table read at a secret index (a cache-timing leak).
nonisolated(unsafe) private var canaryTable = (0..<256).map { UInt64($0) &* 0x9E37_79B9 }

@inline(never)
private func canaryBranchTaken() { Secret.checksum &+= 1 }

extension Check {
    static let canary = Check(name: "canary-leak") {
        // Derived from the command line so the optimiser cannot fold it into a constant.
        let secret = Secret.value(UInt8(truncatingIfNeeded: CommandLine.arguments.count &* 0x2D))
        Secret.checksum &+= canaryTable[Int(secret)]  // memory index on a secret
        if secret & 1 == 0 { canaryBranchTaken() }    // branch on a secret
        Secret.publish(true)
    }
}
