// The rich error of the protocol layer (docs/design.md §2, habit 9): an extensible code, a message for
// people, and where it was raised; two errors are equal when their codes are.

public import CryptoPrimitives

/// Why a protocol step refused its input or state.
///
/// Compare errors by ``code``; ``message`` is for logs and never carries secret material.
/// Every decryption failure has the code ``Code/decryptionFailed`` and one fixed message, so the
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
        /// Something encrypted to us did not decrypt (one code, one message, for every cause).
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
        /// A URL received from outside is not one the client's ``URLPolicy`` accepts.
        public static let insecureURL = Code(rawValue: "insecureURL")
        /// A private key kept outside the process (a PKCS #11 token) could not be used: no
        /// token, a refused PIN, a key that is not there. The key store's error is
        /// ``ProtocolError/keyError``.
        public static let keyUnavailable = Code(rawValue: "keyUnavailable")
        /// The name.
        public var description: String { rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// A human-readable explanation (never a secret), as every client error's `message`.
    public let message: String
    /// The source file that raised the error.
    public let file: String
    /// The line that raised the error.
    public let line: UInt
    /// The engine's error this one was converted from, when there was one (kept, never
    /// turned into a default value: docs/design.md §2, habit 17).
    public let cryptoError: CryptoError?
    /// The key store's error behind ``Code/keyUnavailable`` (a `DeviceKeyError`), kept whole.
    public let keyError: (any Error & Sendable)?
    /// Why the URL policy refused a URL, behind ``Code/insecureURL``.
    public let urlRefusal: URLPolicy.Refusal?

    /// Creates an error at the caller's location.
    public init(_ code: Code, _ message: String, cause: CryptoError? = nil, file: String = #fileID, line: UInt = #line) {
        self.code = code
        self.message = message
        self.cryptoError = cause
        self.keyError = nil
        self.urlRefusal = nil
        self.file = file
        self.line = line
    }

    /// ``Code/keyUnavailable``: a key held outside the process could not be used; `error` is
    /// the key store's own error, kept as ``keyError``.
    public init(keyUnavailable error: any Error & Sendable, _ message: String, file: String = #fileID, line: UInt = #line) {
        self.code = .keyUnavailable
        self.message = message
        self.cryptoError = nil
        self.keyError = error
        self.urlRefusal = nil
        self.file = file
        self.line = line
    }

    /// ``Code/insecureURL``: the URL policy refused `url`, found in `context` (a link's
    /// configuration URL, a field of an answer); the refusal is kept as ``urlRefusal``.
    public init(refusing url: String, in context: String, file: String = #fileID, line: UInt = #line) {
        let refusal = URLPolicy.Refusal(of: url)
        self.code = .insecureURL
        self.message = "\(context): \(refusal)"
        self.cryptoError = nil
        self.keyError = nil
        self.urlRefusal = refusal
        self.file = file
        self.line = line
    }

    /// Converts an engine error, keeping it as ``cryptoError``. The code follows the cause:
    /// `CryptoError.authenticationFailure` becomes the one decryption error (its fixed message,
    /// whatever `context` says), a failed random source ``Code/cryptoFailure``, a malformed
    /// encoding, length or key ``Code/malformedInput``, a bad parameter ``Code/invalidArgument``.
    public init(_ error: CryptoError, _ context: String, file: String = #fileID, line: UInt = #line) {
        switch error {
        case .authenticationFailure:
            self.init(.decryptionFailed, "decryption failed", cause: error, file: file, line: line)
        case .randomSourceFailure:
            self.init(.cryptoFailure, "\(context): random source failed", cause: error, file: file, line: line)
        case .invalidEncoding, .incorrectLength, .invalidKey:
            self.init(.malformedInput, "\(context): \(error)", cause: error, file: file, line: line)
        case .invalidParameter:
            self.init(.invalidArgument, "\(context): \(error)", cause: error, file: file, line: line)
        }
    }

    /// Runs `body`, converting an engine error it throws with ``init(_:_:file:line:)``.
    public static func converting<T>(_ context: String, file: String = #fileID, line: UInt = #line,
                                     _ body: () throws(CryptoError) -> T) throws(ProtocolError) -> T {
        do {
            return try body()
        } catch {
            throw ProtocolError(error, context, file: file, line: line)
        }
    }

    /// The error every decryption failure raises: one code and one message, whatever the cause.
    public static func decryptionFailure(file: String = #fileID, line: UInt = #line) -> ProtocolError {
        ProtocolError(.decryptionFailed, "decryption failed", file: file, line: line)
    }

    /// `code: message`. The place it was raised stays in ``file`` and ``line`` for a debugger or
    /// a log that wants it; text a user reads carries no Swift source location.
    public var description: String { "\(code): \(message)" }

    /// Errors are equal when their codes are.
    public static func == (lhs: ProtocolError, rhs: ProtocolError) -> Bool { lhs.code == rhs.code }
}
