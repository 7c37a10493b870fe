// The differential targets: each decodes the fuzzer's bytes into an operation and its inputs,
// runs the engine and an independent reference on them, and traps on any difference of result,
// error or accepted/refused verdict. Their names start with "diff-" (`Fuzz/run --targets differential`).
//   primitives  against BoringSSL through swift-crypto and _CryptoExtras (Differential+*.swift)
//   arithmetic  FixedUInt, Montgomery fields and BN254CX against attaswift/BigInt
//   protocols   each client half against the server half in this repository

extension FuzzTarget {
    /// Every differential target, in the order `mfa-fuzz list` prints them.
    static let differential: [FuzzTarget] = differentialPrimitives + differentialArithmetic + differentialProtocols

    /// Stops the process so libFuzzer keeps the input: the engine and the reference disagree.
    static func mismatch(_ what: String, _ input: [UInt8]) -> Never {
        violated("engine and reference disagree: \(what)", input)
    }
}
