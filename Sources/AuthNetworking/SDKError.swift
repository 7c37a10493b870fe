// The one error type of the SDKs (docs/design.md §1 "Layer 3 has one shape", §2 habit 9): every
// client's error is `SDKError<ItsDomain>` under the client's own name
// (`public typealias PowerAuthSDKError = SDKError<PowerAuthErrorDomain>`), so the stored shape —
// code, message, cause, HTTP status, file and line — is written once, here. A domain adds what
// only its errors carry (a blocked flag, a recovery PUK index) as its `Extra`, reads its server
// code from the error, and may compare or print its errors its own way.

package import ProtocolSupport

/// One client's errors: an empty enum per client that names what that client's
/// ``SDKError`` carries beyond the shared shape and how it reads, compares and prints.
public protocol ClientErrorDomain: Sendable {
    /// What this client's errors carry besides the shared shape (`Void` when nothing).
    associatedtype Extra: Sendable = Void

    /// The server's own error code of `error`, when a server sent one. By default the protocol
    /// core's code, when there was an HTTP answer.
    static func serverCode(of error: SDKError<Self>) -> String?

    /// Whether two errors are equal. By default when their codes are.
    static func areEqual(_ a: SDKError<Self>, _ b: SDKError<Self>) -> Bool

    /// The text of `error` for logs. By default `code: message [HTTP n] [server code] (cause)`.
    static func description(of error: SDKError<Self>) -> String

    /// The code of a call that got no HTTP answer. By default the one mapping every client
    /// shares: a URL the policy refuses is `urlRefused`, a cancelled task `cancelled`, anything
    /// else `transport`. A domain may name the last group more finely (the networking layer
    /// keeps `WPNErrorReason`'s codes), never the first two.
    static func code(forNoAnswer error: TransportError) -> SDKError<Self>.Code

    /// The ``Extra`` of an error that carries nothing beyond the shared shape.
    static var noExtra: Extra { get }
}

extension ClientErrorDomain where Extra == Void {
    /// Nothing.
    public static var noExtra: Void { () }
}

extension ClientErrorDomain where Extra: ExpressibleByNilLiteral {
    /// `nil`.
    public static var noExtra: Extra { nil }
}

extension ClientErrorDomain {
    /// The protocol core's code, when there was an HTTP answer.
    public static func serverCode(of error: SDKError<Self>) -> String? {
        error.httpStatus == nil ? nil : error.protocolError.map { $0.code.rawValue }
    }

    /// Equal when the codes are (the message, cause and place may differ).
    public static func areEqual(_ a: SDKError<Self>, _ b: SDKError<Self>) -> Bool { a.code == b.code }

    /// `code: message [HTTP n] [server code] (cause)`.
    public static func description(of error: SDKError<Self>) -> String { error.standardDescription }

    /// `urlRefused`, `cancelled`, else `transport` (docs/design.md "Transport and policy failures").
    public static func code(forNoAnswer error: TransportError) -> SDKError<Self>.Code { sharedCode(forNoAnswer: error) }

    /// The shared part of the mapping: `urlRefused`, `cancelled`, else `transport`.
    public static func sharedCode(forNoAnswer error: TransportError) -> SDKError<Self>.Code {
        switch error.kind {
        case .urlRefused: .urlRefused
        case .cancelled: .cancelled
        default: .transport
        }
    }
}

/// Why an operation of the client whose domain is `Domain` failed: a code a caller switches on,
/// a message for logs, the error behind it kept whole, the HTTP status and server code when a
/// server answered, and where it was raised.
public struct SDKError<Domain: ClientErrorDomain>: ClientError {
    /// What went wrong, for callers to switch on.
    public typealias Code = ClientErrorCodeOf<SDKError<Domain>>

    /// What went wrong.
    public let code: Code
    /// The message, cause, HTTP status and place.
    public let details: ClientErrorDetails
    /// What only this domain's errors carry; its client reads it through named properties.
    package var extra: Domain.Extra

    /// An error raised at `file`:`line`, with `cause` behind it and the domain's `extra`.
    public init(_ code: Code, _ message: String, cause: (any Error & Sendable)?, httpStatus: Int?, extra: Domain.Extra,
                file: String, line: UInt) {
        self.code = code
        details = ClientErrorDetails(message, cause: cause, httpStatus: httpStatus, file: file, line: line)
        self.extra = extra
    }

    /// The server's own error code, as ``ClientErrorDomain/serverCode(of:)`` of the domain reads it.
    public var serverCode: String? { Domain.serverCode(of: self) }

    /// Equal as ``ClientErrorDomain/areEqual(_:_:)`` of the domain says (by default by code).
    public static func == (a: SDKError, b: SDKError) -> Bool { Domain.areEqual(a, b) }

    /// The text for logs, as ``ClientErrorDomain/description(of:)`` of the domain writes it.
    public var description: String { Domain.description(of: self) }

    /// The error of a call that got no HTTP answer, its code from the one mapping
    /// (``ClientErrorDomain/code(forNoAnswer:)``), `error` its cause. A refused URL's message is
    /// the refusal's; otherwise `message`.
    package init(noAnswer error: TransportError, _ message: String, file: String = #fileID, line: UInt = #line) {
        self.init(Domain.code(forNoAnswer: error), error.urlRefusal.map(\.description) ?? message, cause: error, httpStatus: nil,
                  extra: Domain.noExtra, file: file, line: line)
    }

    /// The error of a URL the policy refuses before anything is sent (a configured base URL):
    /// `urlRefused`, its cause a ``TransportError/Kind/urlRefused`` carrying the refusal of `url`.
    package init(refusing url: String, file: String = #fileID, line: UInt = #line) {
        self.init(noAnswer: TransportError(refusing: URLPolicy.Refusal(of: url)), "", file: file, line: line)
    }

    /// `urlRefused` when `error` is the protocol layer's refusal of a URL inside received data
    /// (`ProtocolError.Code.insecureURL`: a link's configuration URL, a URL in an answer), its
    /// message and cause `error`'s; nil for any other protocol error.
    package init?(urlRefusalIn error: ProtocolError, file: String = #fileID, line: UInt = #line) {
        guard error.code == .insecureURL else { return nil }
        self.init(.urlRefused, error.message, cause: error, httpStatus: nil, extra: Domain.noExtra, file: file, line: line)
    }
}
