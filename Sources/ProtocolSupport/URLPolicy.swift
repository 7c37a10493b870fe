// Which URLs a client may be sent to by data it received (a deep link, a QR code, a provider's
// configuration): https to a real host name, unless the caller opts out — loudly — for a test
// server on this machine.

/// The rule a client applies to URLs that come from outside (docs/protocols/saltedge-v2.md §11 and §6.1:
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

    /// Whether `url` may be used under this policy. A URL with user information
    /// (`user:password@host`) is refused under every policy: RFC 9110 §4.2.4 forbids it in an
    /// http(s) target, and a password in a configured URL would reach status lines and logs.
    public func permits(_ url: String) -> Bool {
        guard let components = URLText.components(of: url), !Self.hasUserInformation(components.host) else { return false }
        let host = Self.hostName(components.host)
        if kind == .plainHTTPAllowed { return components.scheme == "https" || components.scheme == "http" }
        if kind == .loopbackHTTPAllowed, Self.isLoopback(host) {
            return components.scheme == "https" || components.scheme == "http"
        }
        return components.scheme == "https" && host.contains(".") && !host.hasPrefix(".") && !host.hasSuffix(".")
    }

    /// Whether the URL's authority carries user information (`user@` or `user:password@`);
    /// false for text that is not an absolute URL (which no policy permits either).
    public static func hasUserInformation(url: String) -> Bool {
        URLText.components(of: url).map { hasUserInformation($0.host) } ?? false
    }

    static func hasUserInformation(_ authority: String) -> Bool { authority.contains("@") }

    /// `url` with the `user:password@` part of its authority removed, nothing else changed
    /// (for a configured URL shown whole, as `status --json` does).
    public static func withoutUserInformation(_ url: String) -> String {
        guard let authorityStart = startOfAuthority(url) else { return url }
        let rest = url[authorityStart...]
        let authorityEnd: String.Index = rest.firstIndex { (c: Character) in c == "/" || c == "?" || c == "#" } ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@") else { return url }
        let scheme = String(url[..<authorityStart])
        return scheme + String(rest[rest.index(after: at)...])
    }

    /// Where the authority begins: just after the first `://`; nil when there is none.
    static func startOfAuthority(_ url: String) -> String.Index? {
        var index = url.startIndex
        while index < url.endIndex {
            if url[index...].hasPrefix("://") { return url.index(index, offsetBy: 3) }
            index = url.index(after: index)
        }
        return nil
    }

    /// `url` as a message may show it: no `user:password@`, no query or fragment (they may carry
    /// data from a server or a QR code), cut to 200 characters.
    public static func displayURL(_ url: String) -> String {
        var shown = withoutUserInformation(url)
        if let end = shown.firstIndex(where: { $0 == "?" || $0 == "#" }) { shown = String(shown[..<end]) }
        return shown.count > 200 ? String(shown.prefix(200)) + "…" : shown
    }

    /// The one message of every client that refuses a URL by its policy: the URL as
    /// ``displayURL(_:)`` shows it, and the rule it broke (``Refusal/description``).
    public static func refusal(of url: String) -> String { Refusal(of: url).description }

    /// Why a policy refused a URL: the error every client keeps as the cause of its
    /// `urlRefused` code, so a caller can tell, without reading the message, whether the
    /// loopback opt-out (``insecureAllowingPlainHTTPToLoopback``) would have accepted it.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// The rule the URL broke.
        public enum Reason: Sendable, Equatable {
            /// The text is not an absolute URL (`scheme://host/…`).
            case notAbsolute
            /// The authority carries `user:password@`, refused under every policy.
            case userInformation
            /// Not https to a named host, and the policy allows nothing else for this host.
            case insecure
        }

        /// The rule the URL broke.
        public let reason: Reason
        /// The URL as ``URLPolicy/displayURL(_:)`` shows it; empty for text that is not a URL,
        /// which is never repeated (it could be anything, a password included).
        public let url: String
        /// Whether the URL is plain `http://` or a dot-less name on the loopback host, which
        /// ``URLPolicy/insecureAllowingPlainHTTPToLoopback`` accepts.
        public let loopbackOptOutWouldAccept: Bool

        /// The refusal of `url` under a policy that does not permit it.
        public init(of url: String) {
            guard let components = URLText.components(of: url) else {
                reason = .notAbsolute
                self.url = ""
                loopbackOptOutWouldAccept = false
                return
            }
            self.url = URLPolicy.displayURL(url)
            if URLPolicy.hasUserInformation(components.host) {
                reason = .userInformation
                loopbackOptOutWouldAccept = false
            } else {
                reason = .insecure
                loopbackOptOutWouldAccept = URLPolicy.insecureAllowingPlainHTTPToLoopback.permits(url)
            }
        }

        /// The URL and the rule it broke.
        public var description: String {
            switch reason {
            case .notAbsolute: "a URL that is not absolute (scheme://host/…) is refused by the URL policy"
            case .userInformation: "\(url) is refused by the URL policy: it carries a user:password@ part"
            case .insecure: "\(url) is refused by the URL policy (\(URLPolicy.httpsRule))"
            }
        }
    }

    /// The rule of ``httpsOnly`` as ``refusal(of:)`` words it.
    public static let httpsRule = "https to a named host only"

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
