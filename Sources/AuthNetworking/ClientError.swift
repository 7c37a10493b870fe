// The one shape of the SDKs' errors (docs/design.md §1 "Layer 3 has one shape", §2 habit 9; the
// shape of swift-asn1's `ASN1Error` and our `ProtocolError`): an extensible code with static
// members, a human message, the HTTP status and the server's own code when a server answered,
// the error behind it kept whole, and where it was raised. Errors are equal when their codes are.
// Each client keeps its own type and codes (`PowerAuthSDKError.Code.missingActivation`,
// `CMClientError.Code.pinning`, …); the shape and the behaviour come from here.

public import ProtocolSupport

/// The code of a client error: a string-backed value with one static member per known code, so
/// new codes never break a caller's `switch` (which has a `default`).
public protocol ClientErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible where RawValue == String {}

extension ClientErrorCode {
    /// The code's name, as callers and logs see it.
    public var description: String { rawValue }
}

/// A code of the client error type `Client`: each client declares its codes as static members
/// in `extension ClientErrorCodeOf where Client == ItsError`.
public struct ClientErrorCodeOf<Client>: ClientErrorCode {
    /// The code's name.
    public let rawValue: String
    /// A code named `rawValue` (a client may define more).
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// The codes every client shares, which the one mapping of transport and policy failures gives
/// (``ClientErrorDomain/code(forNoAnswer:)``, docs/design.md "Transport and policy failures").
extension ClientErrorCodeOf {
    /// A URL the client's `URLPolicy` refuses, whether configured or received (from a server, a
    /// link, a QR code); nothing was sent to it. The cause says why: a
    /// ``TransportError/Kind/urlRefused`` with its ``TransportError/urlRefusal``, or, for a URL
    /// inside a link or an answer, the protocol layer's `insecureURL` with its `urlRefusal`.
    public static var urlRefused: Self { Self(rawValue: "urlRefused") }
    /// The call's task was cancelled; nothing more is sent.
    public static var cancelled: Self { Self(rawValue: "cancelled") }
    /// No HTTP answer arrived: unreachable, timed out, TLS refused, a malformed answer, a
    /// refused redirect or an answer over the size limit (see the error's `transportError`).
    public static var transport: Self { Self(rawValue: "transport") }
}

/// What every client error carries besides its code.
public struct ClientErrorDetails: Sendable {
    /// A human-readable explanation (never a secret).
    public let message: String
    /// The error behind this one (a transport, store, protocol or crypto error), kept whole.
    public let cause: (any Error & Sendable)?
    /// The HTTP status, when a server answered.
    public let httpStatus: Int?
    /// The file that raised the error (`#fileID`).
    public let file: String
    /// The line that raised the error.
    public let line: UInt

    /// Details of an error raised at `file`:`line`.
    public init(_ message: String, cause: (any Error & Sendable)?, httpStatus: Int?, file: String, line: UInt) {
        self.message = message
        self.cause = cause
        self.httpStatus = httpStatus
        self.file = file
        self.line = line
    }
}

/// What every SDK error offers (``ClientErrorCode``, message, cause, HTTP status, server code,
/// file and line).
public protocol ClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of code this client uses.
    associatedtype Code: ClientErrorCode
    /// What went wrong, for callers to switch on.
    var code: Code { get }
    /// The message, cause, HTTP status and place.
    var details: ClientErrorDetails { get }
    /// The server's own error code (a PowerAuth `ERR_…`, a Salt Edge `error_class`, a MIRACL
    /// Trust code), when a server sent one.
    var serverCode: String? { get }
}

extension ClientError {
    /// A human-readable explanation (never a secret).
    public var message: String { details.message }
    /// The error behind this one, kept whole.
    public var cause: (any Error & Sendable)? { details.cause }
    /// The HTTP status, when a server answered.
    public var httpStatus: Int? { details.httpStatus }
    /// The file that raised the error.
    public var file: String { details.file }
    /// The line that raised the error.
    public var line: UInt { details.line }

    /// Errors are equal when their codes are (the message, cause and place may differ).
    public static func == (a: Self, b: Self) -> Bool { a.code == b.code }

    /// `code: message [HTTP n] [server code] (cause)`.
    public var description: String { standardDescription }

    /// `code: message [HTTP n] [server code] (cause)`: the text every client error prints unless
    /// its domain writes its own.
    public var standardDescription: String {
        var text = "\(code): \(message)"
        if let httpStatus { text += " [HTTP \(httpStatus)]" }
        if let serverCode { text += " [\(serverCode)]" }
        // A refused URL's message is the refusal, which its cause would only repeat.
        if let cause, (cause as? TransportError)?.urlRefusal == nil, (cause as? ProtocolError)?.urlRefusal == nil { text += " (\(cause))" }
        return text
    }

    /// The transport's error, when no HTTP answer arrived.
    public var transportError: TransportError? { cause as? TransportError }

    /// The protocol core's error (with a server's code when a server answered).
    public var protocolError: ProtocolError? { cause as? ProtocolError }
}

/// The first of `causes` that is not nil: an error's cause, from an initializer that accepts one
/// of several kinds.
public func firstCause(_ causes: (any Error & Sendable)?...) -> (any Error & Sendable)? {
    for cause in causes { if let cause { return cause } }
    return nil
}
