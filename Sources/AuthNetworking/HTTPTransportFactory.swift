// How every client is given its transport (docs/design.md §1, layer 3): a factory that makes the
// transport for one base URL, and for the CM client one pin set (docs/protocols/cm-authenticator.md §6). A
// factory, not an instance, because three of the five clients send to more than one base URL or
// pin set — MIRACL MFA per origin (the landing page, the backend, an authorization URL), Salt Edge
// per provider (`sca_service_url`), CM per pin list — and each builds its send pipeline around
// the transport for that base URL. The clients with one base URL (PowerAuth, the networking
// service) take the same shape, so a caller learns one way to hand a transport over.

public import ProtocolSupport

/// Makes the transport a client sends through, for one base URL.
public struct HTTPTransportFactory: Sendable {
    private let make: @Sendable (_ baseURL: String, _ pins: CertificatePins?) throws(TransportError) -> any HTTPTransport

    /// A factory from a closure. `pins` is nil except for a client that pins (the CM client,
    /// docs/protocols/cm-authenticator.md §6): a transport made for pins must refuse, with
    /// ``TransportError/Kind/tls``, a TLS peer none of whose digests is pinned
    /// (``CertificatePins``), or the closure throws that error itself.
    public init(_ make: @escaping @Sendable (_ baseURL: String, _ pins: CertificatePins?) throws(TransportError) -> any HTTPTransport) {
        self.make = make
    }

    /// A factory that makes an unpinned transport per base URL (a `URLSessionTransport` for
    /// `baseURL`, say). Asked for pins, it fails closed with ``TransportError/Kind/tls``.
    public static func perBaseURL(_ make: @escaping @Sendable (_ baseURL: String) -> any HTTPTransport) -> HTTPTransportFactory {
        HTTPTransportFactory { (baseURL, pins) throws(TransportError) in
            guard pins == nil else { throw TransportError(.tls, underlying: "this transport cannot pin certificates") }
            return make(baseURL)
        }
    }

    /// One transport for every base URL (a test server, a replay). Asked for pins, it fails
    /// closed with ``TransportError/Kind/tls``.
    public static func single(_ transport: any HTTPTransport) -> HTTPTransportFactory {
        perBaseURL { _ in transport }
    }

    /// The transport for `baseURL`, pinned to `pins` when given.
    public func transport(baseURL: String, pins: CertificatePins? = nil) throws(TransportError) -> any HTTPTransport {
        try make(baseURL, pins)
    }
}
