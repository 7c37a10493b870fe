// The Salt Edge Authenticator API v2 client (docs/protocols/saltedge-v2.md), sans-I/O: every step takes the
// random source and the current time as parameters and returns requests to send or values to
// persist; the caller owns the transport and the storage.

package import FoundationEssentials
public import ProtocolSupport

/// The Salt Edge Authenticator API v2 ("SCA Service") client.
///
/// The flow (docs/protocols/saltedge-v2.md §1): parse a ``DeepLink``, fetch and parse the
/// ``ProviderConfiguration``, generate a ``ConnectionKey``, send
/// ``Enrollment/createConnection(configuration:connectionKey:client:connectQuery:pushToken:returnURL:platform:using:)``,
/// open the authentication URL, decrypt the ``AccessTokenRedirect``, then list, decrypt and
/// confirm or deny authorizations with signed requests.
public enum SaltEdge {
    /// The API namespace below `sca_service_url` (docs/protocols/saltedge-v2.md §6).
    public static let apiPath = "api/authenticator/v2"

    /// The default `return_url` of create-connection (docs/protocols/saltedge-v2.md §4, §13).
    public static let defaultReturnURL = "authenticator://oauth/redirect"

    /// Lifetime of a signed request body: `exp` = now + 300 s (docs/protocols/saltedge-v2.md §5.2).
    public static let signedRequestLifetime: Int64 = 300

    /// Recommended polling interval of the authorization list, in seconds (docs/protocols/saltedge-v2.md §9).
    public static let pollingInterval: Double = 3.0
}

extension ProtocolError.Code {
    /// A deep link or QR code is not a Salt Edge link we understand (docs/protocols/saltedge-v2.md §11).
    public static let invalidDeepLink = Self(rawValue: "invalidDeepLink")
    /// The redirect after web authentication carried an error, or no token (docs/protocols/saltedge-v2.md §4).
    public static let authenticationFailed = Self(rawValue: "authenticationFailed")
}

/// Unix time in whole seconds, as the `exp` field and the local expiry checks use it.
package func unixSeconds(_ date: Date) -> Int64 {
    // Clamped to ±2⁶² s (NaN is 0): a broken clock never traps in `Int64(_:)`, and adding
    // ``SaltEdge/signedRequestLifetime`` never overflows.
    let seconds = date.timeIntervalSince1970.rounded(.down)
    guard !seconds.isNaN else { return 0 }
    let limit = Double(Int64(1) << 62)
    return Int64(max(-limit, min(limit, seconds)))
}
