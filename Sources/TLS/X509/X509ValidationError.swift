// Why a server's certificate chain was refused (RFC 5280 §6 as the WebPKI applies it, RFC 6125
// for names). Each case maps to the one alert the peer is told (RFC 8446 §6.2).

/// A refusal of the server's certificate chain.
public enum X509ValidationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A certificate in the chain has expired at the validation time.
    case expired
    /// A certificate in the chain is not yet valid.
    case notYetValid
    /// The leaf names neither the host nor the address connected to.
    case hostnameMismatch
    /// No chain leads from the leaf to a trust anchor.
    case unknownIssuer
    /// A signature in the chain does not verify.
    case badSignature
    /// An issuer is not a CA (basicConstraints), or the leaf is one.
    case notCA
    /// A CA's path length constraint is exceeded.
    case pathLengthExceeded
    /// A name lies outside a CA's permitted subtrees or inside its excluded ones.
    case nameConstraints
    /// The leaf's extended key usage does not include server authentication.
    case extendedKeyUsage
    /// A key usage forbids the use (an issuer without keyCertSign).
    case keyUsage
    /// A certificate carries a critical extension this validator does not understand.
    case unknownCriticalExtension
    /// An RSA key shorter than 2048 bits, or a curve other than P-256 and P-384.
    case weakKey
    /// SHA-1 or another refused signature algorithm.
    case weakSignatureAlgorithm
    /// A certificate is not well-formed DER, or a field is out of range.
    case malformed(String)

    /// The alert the peer is sent (RFC 8446 §6.2).
    public var alert: TLSAlert {
        switch self {
        case .expired, .notYetValid: .certificateExpired
        case .unknownIssuer: .unknownCA
        case .badSignature, .malformed: .badCertificate
        case .weakKey, .weakSignatureAlgorithm: .unsupportedCertificate
        default: .certificateUnknown
        }
    }

    /// A short description.
    public var description: String {
        switch self {
        case .expired: "a certificate has expired"
        case .notYetValid: "a certificate is not yet valid"
        case .hostnameMismatch: "the certificate does not name the host"
        case .unknownIssuer: "no chain to a trusted certificate authority"
        case .badSignature: "a certificate signature does not verify"
        case .notCA: "a certificate is used as a CA without being one, or the leaf is a CA"
        case .pathLengthExceeded: "a CA's path length constraint is exceeded"
        case .nameConstraints: "a name violates a CA's name constraints"
        case .extendedKeyUsage: "the certificate is not for server authentication"
        case .keyUsage: "a key usage forbids this use"
        case .unknownCriticalExtension: "a critical extension is not understood"
        case .weakKey: "a key is too weak or of an unsupported kind"
        case .weakSignatureAlgorithm: "a signature algorithm is refused"
        case .malformed(let detail): "a certificate is malformed (\(detail))"
        }
    }
}
