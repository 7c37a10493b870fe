// Constant-time equality of byte strings for protocol code above the engine, which compares
// MACs, digests and signature texts it received with the ones it computed (docs/design.md §2,
// habit 4). The engine's own `Choice` vocabulary stays `package` in CryptoCore.

import CryptoCore

/// Comparison of byte strings whose contents are secret, or whose mismatch position must not
/// leak (a forger learns a MAC byte by byte from an early-exit comparison).
public enum ConstantTimeComparison {
    /// Whether `a` and `b` hold the same bytes. The time depends only on the two lengths,
    /// which are public; different lengths compare unequal without reading the contents.
    public static func isEqual(_ a: some Sequence<UInt8>, _ b: some Sequence<UInt8>) -> Bool {
        ConstantTime.isEqual(a, b).isTrueVartime
    }
}
