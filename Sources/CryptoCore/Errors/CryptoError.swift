// The one error type of the two crypto layers (docs/design.md §2, habit 9): small and oracle-free.

/// Why a cryptographic operation or a decoder refused its input.
///
/// Every decryption, unpadding and authentication failure is the single case
/// ``authenticationFailure``, so that no failure mode can serve as an oracle.
public enum CryptoError: Error, Equatable, Sendable {
    /// Decryption, unpadding or tag verification failed. Deliberately carries no detail.
    case authenticationFailure
    /// An input had the wrong length for the operation.
    case incorrectLength
    /// A key, point or parameter was not acceptable (off the curve, out of range, too small).
    case invalidKey
    /// A parameter of the operation was out of its allowed range.
    case invalidParameter
    /// Encoded input (hex, Base64, Base32, DER, PEM) was malformed or not canonical.
    case invalidEncoding
    /// The random source failed to deliver bytes.
    case randomSourceFailure
}
