// Which URLs a client may be sent to by data it received (a deep link, a QR code, a provider's
// configuration): https to a real host name, unless the caller opts out — loudly — for a test
// server on this machine.

/// The rule a client applies to URLs that come from outside (saltedge-v2.md §11 and §6.1:
/// the provider's public key arrives from the configuration URL, so a plain-HTTP URL would let
/// anyone on the path substitute it).
public struct URLPolicy: Sendable, Equatable {
    private enum Kind: Sendable, Equatable { case httpsOnly, loopbackHTTPAllowed, plainHTTPAllowed }
    private let kind: Kind

    /// `https://` to a host whose name contains a dot (not a bare intranet name). The default.
    public static let httpsOnly = URLPolicy(kind: .httpsOnly)

    /// Also accepts `http://` and dot-less names, but only for the loopback host (`localhost`,
    /// `127.0.0.0/8`, `[::1]`): for stand-in servers in tests and demos. Never in production —
    /// a plain-HTTP configuration hands the provider key to whoever is on the path.
    public static let insecureAllowingPlainHTTPToLoopback = URLPolicy(kind: .loopbackHTTPAllowed)

    /// Also accepts `http://` to any host: only for this package's own tests that replay
    /// recorded traffic of servers reached over plain HTTP on a lab network (the 2016 M-Pin
    /// recordings). Not offered to users: the one opt-out they have is loopback.
    package static let insecureAllowingPlainHTTPForReplayTests = URLPolicy(kind: .plainHTTPAllowed)

    /// Whether `url` may be used under this policy.
    public func permits(_ url: String) -> Bool {
        guard let components = URLText.components(of: url) else { return false }
        let host = Self.hostName(components.host)
        if kind == .plainHTTPAllowed { return components.scheme == "https" || components.scheme == "http" }
        if kind == .loopbackHTTPAllowed, Self.isLoopback(host) {
            return components.scheme == "https" || components.scheme == "http"
        }
        return components.scheme == "https" && host.contains(".") && !host.hasPrefix(".") && !host.hasSuffix(".")
    }

    /// An authority without its `user:password@` part (for error messages and logs).
    public static func displayHost(_ authority: String) -> String {
        guard let at = authority.lastIndex(of: "@") else { return authority }
        return String(authority[authority.index(after: at)...])
    }

    /// The host name of an authority (`user@host:port`, `[v6]:port`), lower-cased.
    static func hostName(_ authority: String) -> String {
        var host = Substring(authority)
        if let at = host.lastIndex(of: "@") { host = host[host.index(after: at)...] }
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            return String(host[host.startIndex...close]).lowercased()
        }
        if let colon = host.firstIndex(of: ":") { host = host[..<colon] }
        return host.lowercased()
    }

    /// `localhost`, any `127.x.y.z`, or `[::1]`.
    static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "[::1]" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}
