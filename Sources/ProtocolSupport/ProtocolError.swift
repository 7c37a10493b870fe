// The rich error of the protocol layer (DESIGN.md §2, habit 9): an extensible code, a reason for
// people, and where it was raised; two errors are equal when their codes are.

/// Why a protocol step refused its input or state.
///
/// Compare errors by ``code``; ``reason`` is for logs and never carries secret material.
/// Every decryption failure has the code ``Code/decryptionFailed`` and one fixed reason, so the
/// error cannot serve as an oracle.
public struct ProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure. Protocol targets add their own codes as static members.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's name.
        public let rawValue: String
        /// Creates a code.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// A link, QR code, response or other external input was malformed.
        public static let malformedInput = Code(rawValue: "malformedInput")
        /// Something encrypted to us did not decrypt (one code, one reason, for every cause).
        public static let decryptionFailed = Code(rawValue: "decryptionFailed")
        /// A signature did not verify.
        public static let invalidSignature = Code(rawValue: "invalidSignature")
        /// An argument was outside what the protocol allows.
        public static let invalidArgument = Code(rawValue: "invalidArgument")
        /// The object has expired.
        public static let expired = Code(rawValue: "expired")
        /// A value uses a feature or version we do not support.
        public static let unsupported = Code(rawValue: "unsupported")
        /// The server answered with an error body or status.
        public static let serverError = Code(rawValue: "serverError")
        /// The random source or another primitive failed.
        public static let cryptoFailure = Code(rawValue: "cryptoFailure")
        /// The name.
        public var description: String { rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// A human-readable explanation.
    public let reason: String
    /// The source file that raised the error.
    public let file: String
    /// The line that raised the error.
    public let line: UInt

    /// Creates an error at the caller's location.
    public init(_ code: Code, _ reason: String, file: String = #fileID, line: UInt = #line) {
        self.code = code
        self.reason = reason
        self.file = file
        self.line = line
    }

    /// The error every decryption failure raises.
    public static func decryptionFailure(file: String = #fileID, line: UInt = #line) -> ProtocolError {
        ProtocolError(.decryptionFailed, "decryption failed", file: file, line: line)
    }

    /// `code: reason (file:line)`.
    public var description: String { "\(code): \(reason) (\(file):\(line))" }

    /// Errors are equal when their codes are.
    public static func == (lhs: ProtocolError, rhs: ProtocolError) -> Bool { lhs.code == rhs.code }
}
