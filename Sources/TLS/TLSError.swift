// The one error type of the TLS client (docs/design.md §1, "TLS of our own"): every refusal is a
// `TLSError` whose `alert` is the only thing the peer is told; `detail` is for our logs and
// never leaves the process.

/// A TLS alert description (RFC 8446 §6, RFC 5246 §7.2).
public struct TLSAlert: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The code point.
    public let rawValue: UInt8
    /// An alert from its code point.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The sender is closing the connection (not an error).
    public static let closeNotify = Self(rawValue: 0)
    /// A message arrived out of order or was not expected.
    public static let unexpectedMessage = Self(rawValue: 10)
    /// A record could not be deprotected.
    public static let badRecordMAC = Self(rawValue: 20)
    /// A record was longer than the protocol allows.
    public static let recordOverflow = Self(rawValue: 22)
    /// No acceptable set of security parameters.
    public static let handshakeFailure = Self(rawValue: 40)
    /// A certificate was corrupt or its signature did not verify.
    public static let badCertificate = Self(rawValue: 42)
    /// A certificate is of an unsupported type or algorithm.
    public static let unsupportedCertificate = Self(rawValue: 43)
    /// A certificate has expired or is not yet valid.
    public static let certificateExpired = Self(rawValue: 45)
    /// Another certificate problem (host name, usage, constraints).
    public static let certificateUnknown = Self(rawValue: 46)
    /// A field was out of range or inconsistent.
    public static let illegalParameter = Self(rawValue: 47)
    /// No chain to a trusted anchor.
    public static let unknownCA = Self(rawValue: 48)
    /// A message could not be parsed.
    public static let decodeError = Self(rawValue: 50)
    /// A handshake signature or Finished did not verify.
    public static let decryptError = Self(rawValue: 51)
    /// The peer chose a version we do not speak.
    public static let protocolVersion = Self(rawValue: 70)
    /// The negotiated parameters are below our minimum.
    public static let insufficientSecurity = Self(rawValue: 71)
    /// A failure unrelated to the peer.
    public static let internalError = Self(rawValue: 80)
    /// The user cancelled the handshake.
    public static let userCanceled = Self(rawValue: 90)
    /// Renegotiation is refused (RFC 5746).
    public static let noRenegotiation = Self(rawValue: 100)
    /// A required extension is missing.
    public static let missingExtension = Self(rawValue: 109)
    /// The peer sent an extension we did not offer.
    public static let unsupportedExtension = Self(rawValue: 110)
    /// No application protocol in common.
    public static let noApplicationProtocol = Self(rawValue: 120)

    /// The RFC name, or the number.
    public var description: String {
        let names: [UInt8: String] = [
            0: "close_notify", 10: "unexpected_message", 20: "bad_record_mac", 22: "record_overflow", 40: "handshake_failure",
            42: "bad_certificate", 43: "unsupported_certificate", 45: "certificate_expired", 46: "certificate_unknown",
            47: "illegal_parameter", 48: "unknown_ca", 50: "decode_error", 51: "decrypt_error", 70: "protocol_version",
            71: "insufficient_security", 80: "internal_error", 90: "user_canceled", 100: "no_renegotiation",
            109: "missing_extension", 110: "unsupported_extension", 120: "no_application_protocol",
        ]
        return names[rawValue] ?? "alert \(rawValue)"
    }
}

/// Why a TLS connection was refused or ended.
public struct TLSError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure, for callers to switch on.
    public enum Kind: Sendable, Equatable {
        /// The peer broke the protocol; we sent ``TLSError/alert`` and closed.
        case protocolViolation
        /// The peer sent a fatal alert (``TLSError/alert`` is the peer's).
        case peerAlert
        /// The server's certificate chain was refused.
        case certificate(X509ValidationError)
        /// The server's key matched none of the pinned keys.
        case pinMismatch
        /// The peer asked to renegotiate, which this client never does (RFC 5746).
        case renegotiationRefused
        /// The connection ended without a close_notify (possible truncation).
        case connectionClosed
        /// The caller used the connection in a state that does not allow it.
        case invalidState
    }

    /// The kind.
    public let kind: Kind
    /// The alert sent to the peer, or received from it for ``Kind/peerAlert``; nil when none.
    public let alert: TLSAlert?
    /// What happened, for logs; never sent to the peer.
    public let detail: String

    /// An error.
    public init(_ kind: Kind, alert: TLSAlert?, _ detail: String) {
        self.kind = kind
        self.alert = alert
        self.detail = detail
    }

    /// A protocol violation answered with `alert`.
    static func violation(_ alert: TLSAlert, _ detail: String) -> TLSError { TLSError(.protocolViolation, alert: alert, detail) }

    /// A message that could not be parsed.
    static func decode(_ detail: String) -> TLSError { violation(.decodeError, detail) }

    /// A message that was not expected here.
    static func unexpected(_ detail: String) -> TLSError { violation(.unexpectedMessage, detail) }

    /// `kind: detail (alert)`.
    public var description: String {
        let alertText = alert.map { " (\(kind == .peerAlert ? "peer sent" : "sent") \($0))" } ?? ""
        return "\(kind): \(detail)\(alertText)"
    }

    /// Errors are equal when their kinds and alerts are.
    public static func == (a: TLSError, b: TLSError) -> Bool { a.kind == b.kind && a.alert == b.alert }
}
