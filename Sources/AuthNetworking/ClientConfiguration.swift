// The one configuration convention of layer 3 (docs/design.md §1: "`Configuration` nested in each
// client: URL policy, clock, random source, logger — same names, same defaults everywhere").
// Every client's nested `Configuration` conforms to `ClientConfiguration`, so the compiler holds
// the names and types in step; every initialiser takes its defaults from `ClientDefaults`, so
// the defaults cannot drift either. `SharedRandomSource` is how a client draws from the
// configured source: one stream for the client's whole life, never a fresh system source inline.

public import CryptoPrimitives
public import FoundationEssentials
public import ProtocolSupport
import Synchronization

/// What every client's `Configuration` carries, under the same names and types
/// (`PowerAuthClient.Configuration`, `NetworkingService.Configuration`, `MPinClient.Configuration`,
/// `SaltEdgeAuthenticatorClient.Configuration`, `CMAuthenticatorClient.Configuration`).
public protocol ClientConfiguration: Sendable {
    /// Which URLs the client may send to: `https://` to a named host by default
    /// (``ClientDefaults/urlPolicy``); plain `http://` only to loopback, and only when the caller
    /// says so (`URLPolicy.insecureAllowingPlainHTTPToLoopback`).
    var urlPolicy: URLPolicy { get set }
    /// The local wall clock (``ClientDefaults/clock``: the system's). Tests inject a fixed one.
    var clock: @Sendable () -> Date { get set }
    /// Where every key, nonce and ephemeral value of the client comes from
    /// (``ClientDefaults/random``: the kernel's CSPRNG). Tests inject a `SeededRandomSource`.
    var random: any RandomSource & Sendable { get set }
    /// When set, the client installs ``LoggingMiddleware`` with it in its send pipeline
    /// (credential headers and secret body members redacted by the logger). Nil by default
    /// (``ClientDefaults/logger``): nothing is logged.
    var logger: Logger? { get set }
}

extension ClientConfiguration {
    /// Sets the four members every client shares, in one place: a client's initialiser takes
    /// them as arguments defaulting to ``ClientDefaults`` and hands them on here.
    package mutating func setClientMembers(urlPolicy: URLPolicy, clock: @escaping @Sendable () -> Date,
                                           random: any RandomSource & Sendable, logger: Logger?) {
        self.urlPolicy = urlPolicy
        self.clock = clock
        self.random = random
        self.logger = logger
    }
}

/// The defaults of the ``ClientConfiguration`` members, the same for every client.
public enum ClientDefaults {
    /// `https://` to a named host only.
    public static let urlPolicy: URLPolicy = .httpsOnly
    /// The system's wall clock.
    public static let clock: @Sendable () -> Date = { Date() }
    /// The kernel's CSPRNG (`SystemRandomSource`).
    public static var random: any RandomSource & Sendable { SystemRandomSource() }
    /// No logger: nothing is logged.
    public static let logger: Logger? = nil

    /// Milliseconds since 1970 of `date` (for protocols that count time in milliseconds, such as
    /// PowerAuth's timestamps), rounded to the nearest millisecond. A date before 1970, NaN or
    /// beyond `UInt64` clamps to 0 or `UInt64.max`: a broken clock never traps.
    public static func milliseconds(since1970 date: Date) -> UInt64 {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        guard milliseconds.isFinite, milliseconds > 0 else { return milliseconds == .infinity ? .max : 0 }
        guard milliseconds < 18_446_744_073_709_551_615.0 else { return .max }
        return UInt64(milliseconds)
    }
}

/// A random source shared by every copy: each copy draws from one underlying stream under a
/// lock, so a client that hands `var random = source` to each operation advances the configured
/// source instead of replaying it (a copied ``CryptoPrimitives/SeededRandomSource`` would repeat
/// its bytes — a repeated nonce).
package struct SharedRandomSource: RandomSource, Sendable {
    private final class Storage: Sendable {
        let source: Mutex<any RandomSource & Sendable>
        init(_ source: any RandomSource & Sendable) { self.source = Mutex(source) }
    }

    private let storage: Storage

    /// Shares `source`.
    package init(_ source: any RandomSource & Sendable) { storage = Storage(source) }

    /// Fills `buffer` from the shared source, under its lock.
    package mutating func fill(_ buffer: UnsafeMutableRawBufferPointer) throws(CryptoError) {
        try storage.source.withLock { (source: inout any RandomSource & Sendable) throws(CryptoError) in try source.fill(buffer) }
    }
}
