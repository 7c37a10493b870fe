// The CM Authenticator device API client (docs/protocols/cm-authenticator.md), sans-I/O: request builders and
// response parsers; the clock and the transport belong to the caller.

package import FoundationEssentials
public import ProtocolSupport

/// The CM.com Authenticator device API client: phone registration, push token, environments
/// linked by QR code, instant and OTP authentication requests, and the signed certificate list.
///
/// Device-level calls carry no authentication; environment calls carry an HS256 bearer JWT keyed
/// with the environment secret (docs/protocols/cm-authenticator.md §5).
public enum CMAuthenticator {
    /// The service's base URL; every path is appended to it (docs/protocols/cm-authenticator.md §1).
    public static let defaultBaseURL = "https://api.auth.cmtelecom.com/authenticator/v1.0"

    /// Lifetime of a bearer JWT, in seconds (§5).
    public static let tokenLifetime: Int64 = 60

    /// Default `expiry` of an authentication request when the server omits it (§4, as Android).
    public static let defaultRequestExpiry: Int64 = 60

    /// How often the certificate list may be refreshed, in seconds (§6).
    public static let certificateRefreshInterval: Int64 = 3600

    /// The longest `expiry` taken from a server, in seconds (§4: a duration of about a minute);
    /// a longer one is clamped to it, so a request never stays answerable for years.
    public static let maximumRequestExpiry: Int64 = 86_400

    /// Whole Unix seconds of `date`, clamped to ±2⁶² s (far beyond any real clock; NaN is 0), so
    /// a broken clock never traps in `Int64(_:)` and a few seconds more never overflow.
    package static func unixSeconds(_ date: Date) -> Int64 {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard !seconds.isNaN else { return 0 }
        let limit = Double(Int64(1) << 62)
        return Int64(Swift.max(-limit, Swift.min(limit, seconds)))
    }
}

extension ProtocolError.Code {
    /// The QR code is not `<36-character environment id>,<secret>` (§3.1).
    public static let invalidQRCode = Self(rawValue: "invalidQRCode")
    /// A register call answered 401: the environment id or secret is wrong (§3, as Android).
    public static let environmentInvalid = Self(rawValue: "environmentInvalid")
    /// The authentication request has expired (HTTP 410, §4).
    public static let requestExpired = Self(rawValue: "requestExpired")
}
