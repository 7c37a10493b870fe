// M-Pin and DVS of the MIRACL MFA platform on BN254CX (docs/protocols/mpin.md §3–§5), sans-I/O: every random
// value comes from an injected `RandomSource` and every date or time is a parameter, so each
// flow is a deterministic transcript under a seeded source.

import CryptoPrimitives

/// The M-Pin authentication protocol and DVS document signatures of Apache Milagro and the
/// MIRACL MFA platform (docs/protocols/mpin.md). Steps are named after the spec: the issuing authorities
/// (``Issuer``), the client (``Client``), the verifier (``Server``), PIN-error recovery
/// (``Server/pinError(_:)``) and designated-verifier signatures (``DVS``).
public enum MPin {
    /// The PIN range of the MFA platform: PINs are reduced mod 10⁶ and multiplied in over 20
    /// bits (`MAXPIN` 1 000 000, `PBLEN` 20; docs/protocols/mpin.md §3). Milagro's default build uses 10⁴ and
    /// 14 bits and gives other tokens for PINs from 10 000 up.
    public static let maximumPIN: UInt32 = 1_000_000
    /// The bits of the PIN ladder (`PBLEN`).
    public static let pinBitCount = 20

    /// The result code Milagro's verifier returns for a wrong PIN (`MPIN_BAD_PIN`, −19).
    public static let badPINCode = -19
}
