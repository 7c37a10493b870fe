// Logging for the transport and the SDKs (docs/protocols/powerauth.md §16 "Logging"; swift-log's shape: levels,
// a sink the user installs). Redaction follows the data (docs/design.md §2, habit 18): credential
// headers are always masked below `.debug`; bodies are never logged below `.debug`; at `.debug`
// both stay masked unless the logger was made with `revealingSecretsAtDebug: true`. A field held
// as a secret (`HTTPHeader(_:secret:)`) is masked whatever the switch.

import CryptoPrimitives
import ProtocolSupport

/// How much to log, from nothing to every exchange.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    /// Nothing.
    case off = 0
    /// Failures only.
    case errors
    /// Failures and warnings (plain `http://`, retries). The default.
    case warnings
    /// One line per exchange: method, URL, status, time.
    case info
    /// Headers too (masked), and bodies when the logger reveals them.
    case debug

    /// Orders levels by verbosity.
    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }
}

/// Where log lines go. The default writes to standard error.
public protocol LogSink: Sendable {
    /// Receives one finished line at `level`.
    func write(_ line: String, level: LogLevel)
}

/// A logger: a level, a sink, and the redaction rules.
public struct Logger: Sendable {
    /// The most verbose level that is written.
    public var level: LogLevel
    /// Where lines go.
    public let sink: any LogSink
    /// Whether `.debug` shows credential headers and bodies in clear. Never applies below `.debug`.
    public let revealsSecretsAtDebug: Bool
    /// Whether `.debug` shows request and response bodies (networking-apple's `logHttpTraffic`)
    /// with their secret members masked; bodies in clear and credential headers need
    /// ``revealsSecretsAtDebug``. Never applies below `.debug`.
    public let logsHTTPTraffic: Bool

    /// Header names whose values are credentials, compared case-insensitively.
    public static let credentialHeaders: Set<String> = [
        "x-powerauth-authorization", "x-powerauth-token", "x-powerauth-encryption", "authorization",
        "access-token", "cookie", "set-cookie", "x-jws-signature", "proxy-authorization",
    ]

    /// The longest line written; longer ones are cut (networking-apple uses 12 000 characters).
    public static let maximumLineLength = 12_000

    /// A logger at `level` writing to `sink` (standard error by default).
    public init(level: LogLevel = .warnings, sink: any LogSink = StandardErrorSink(), revealingSecretsAtDebug: Bool = false,
                loggingHTTPTraffic: Bool = false) {
        self.level = level
        self.sink = sink
        revealsSecretsAtDebug = revealingSecretsAtDebug
        logsHTTPTraffic = loggingHTTPTraffic
    }

    /// Nothing is ever written.
    public static let disabled = Logger(level: .off)

    /// Writes `message()` when `level` is enabled; the message is built only then.
    public func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard level != .off, level <= self.level else { return }
        let line = message()
        sink.write(line.count > Self.maximumLineLength ? String(line.prefix(Self.maximumLineLength)) + "…" : line, level: level)
    }

    /// Whether secrets may appear at this logger's level: only at `.debug` with the explicit switch.
    var revealsSecrets: Bool { level == .debug && revealsSecretsAtDebug }

    /// `Name: value` lines with credential values masked (unless ``revealsSecrets``); a secret
    /// field (`HTTPHeader.secret`) is masked always: its value never becomes text here.
    func describe(headers: [HTTPHeader]) -> String {
        headers.map { header in
            if let secret = header.secret { return "\(header.name): <redacted \(secret.count) bytes>" }
            let masked = !revealsSecrets && Self.credentialHeaders.contains(header.name.lowercased())
            return "\(header.name): " + (masked ? "<redacted \(header.value.utf8.count) bytes>" : header.value)
        }.joined(separator: "\n")
    }

    /// A body as text when secrets may be shown; with traffic logging at `.debug`, the JSON
    /// with its secret members masked (BodyRedaction.swift); else only its length: request and
    /// response bodies carry passwords, PUKs, client-secret shares, tokens and encrypted payloads.
    func describe(body: [UInt8]?) -> String {
        guard let body, !body.isEmpty else { return "(no body)" }
        if revealsSecrets { return String(decoding: body, as: UTF8.self) }
        if level == .debug && logsHTTPTraffic { return BodyRedaction.redacted(body) }
        return "<body redacted, \(body.count) bytes>"
    }
}

/// Writes each line, with its level, to standard error.
public struct StandardErrorSink: LogSink {
    /// The sink.
    public init() {}

    /// `[level] line` on standard error.
    public func write(_ line: String, level: LogLevel) {
        var stream = StandardError()
        print("[\(level)] \(line)", to: &stream)
    }
}

/// `TextOutputStream` over file descriptor 2.
struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        var bytes = Array(string.utf8)
        bytes.withUnsafeMutableBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = writeToStandardError(raw.baseAddress.map { $0 + offset }, raw.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
private func writeToStandardError(_ pointer: UnsafeMutableRawPointer?, _ count: Int) -> Int { Glibc.write(2, pointer, count) }
#else
private func writeToStandardError(_ pointer: UnsafeMutableRawPointer?, _ count: Int) -> Int { count }
#endif
