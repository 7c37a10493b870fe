// What a TLS connection is configured with: the host it is for, where trust comes from (a set
// of anchors, pins, or both), and the versions, groups and suites it offers. Values only; the
// system's trust store is read by the transport, which does I/O.

#if canImport(Glibc)
import Glibc
#endif

/// Certificates trusted to issue server certificates.
public struct TrustAnchors: Sendable, Equatable {
    /// The anchors.
    public let certificates: [X509Certificate]

    /// Anchors from certificates already parsed.
    public init(certificates: [X509Certificate]) { self.certificates = certificates }

    /// Anchors from a PEM bundle (every `CERTIFICATE` block). A block that does not parse as a
    /// certificate is skipped, as a system bundle may hold forms this parser refuses; `count`
    /// says how many were kept.
    public init(pemBundle: String) {
        var certificates: [X509Certificate] = []
        for der in PEMBundle.certificates(in: pemBundle) {
            do throws(X509ValidationError) { certificates.append(try X509Certificate(derRepresentation: der)) } catch { continue }
        }
        self.certificates = certificates
    }

    /// The number of anchors.
    public var count: Int { certificates.count }
}

/// Pins on the server's key or certificate: SHA-256 digests of the leaf's
/// SubjectPublicKeyInfo (as curl's `--pinnedpubkey sha256//…` and OkHttp pin) or of the whole
/// leaf certificate.
public struct TLSPins: Sendable, Hashable {
    /// SHA-256 digests of acceptable SubjectPublicKeyInfo structures, 32 bytes each.
    public var spkiSHA256: Set<[UInt8]>
    /// SHA-256 digests of acceptable leaf certificates, 32 bytes each.
    public var certificateSHA256: Set<[UInt8]>

    /// A pin set; digests that are not 32 bytes long are dropped.
    public init(spkiSHA256: some Sequence<[UInt8]> = [], certificateSHA256: some Sequence<[UInt8]> = []) {
        self.spkiSHA256 = Set(spkiSHA256.filter { $0.count == 32 })
        self.certificateSHA256 = Set(certificateSHA256.filter { $0.count == 32 })
    }

    /// Whether nothing is pinned.
    public var isEmpty: Bool { spkiSHA256.isEmpty && certificateSHA256.isEmpty }

    /// Whether `leaf` matches a pin.
    public func accepts(_ leaf: X509Certificate) -> Bool {
        spkiSHA256.contains(leaf.subjectPublicKeyInfoSHA256) || certificateSHA256.contains(leaf.sha256)
    }
}

/// How the server is authenticated.
public struct TLSTrust: Sendable, Equatable {
    /// The anchors a chain must lead to; nil when the pins alone authenticate.
    public let anchors: TrustAnchors?
    /// Pins the leaf must match, in addition to the chain when there are anchors.
    public let pins: TLSPins?

    /// A chain to one of `anchors`, naming the host, valid now; and a pin match when `pins`
    /// is given (both must hold). A given pin set that is empty — every digest dropped for
    /// not being 32 bytes — matches no leaf: a mistyped pin fails closed.
    public static func certificateAuthorities(_ anchors: TrustAnchors, pins: TLSPins? = nil) -> TLSTrust {
        TLSTrust(anchors: anchors, pins: pins)
    }

    /// The leaf's key or certificate matches a pin; no chain, dates or host are checked (the
    /// pin names the exact key, as for a device's private server). The handshake signature
    /// still proves the server holds that key. Empty pins trust nothing.
    public static func pinnedKeys(_ pins: TLSPins) -> TLSTrust { TLSTrust(anchors: nil, pins: pins) }
}

/// A client connection's settings.
public struct TLSConfiguration: Sendable {
    /// The host connected to: sent as SNI (a DNS name) and matched against the certificate.
    public var serverIdentity: ServerIdentity
    /// How the server is authenticated.
    public var trust: TLSTrust
    /// ALPN protocols offered (RFC 7301); the server must pick one of them or none.
    public var applicationProtocols: [String] = ["http/1.1"]
    /// The versions offered: TLS 1.2 and 1.3 by default.
    public var versions: [TLSVersion] = [.tls13, .tls12]
    /// The groups offered, in order of preference.
    public var groups: [TLSNamedGroup] = [.x25519, .secp256r1, .secp384r1]
    /// The groups a TLS 1.3 key share is sent for at once (others cost a HelloRetryRequest).
    public var keyShareGroups: [TLSNamedGroup] = [.x25519]
    /// The suites offered, in order of preference.
    public var cipherSuites: [TLSCipherSuite] = TLSCipherSuite.tls13 + TLSCipherSuite.tls12
    /// The time certificates are checked at, seconds since 1970 (the system clock by default).
    public var validationTime: @Sendable () -> Int64 = { TLSConfiguration.systemTime() }

    /// A configuration for `serverIdentity` trusting `trust`.
    public init(serverIdentity: ServerIdentity, trust: TLSTrust) {
        self.serverIdentity = serverIdentity
        self.trust = trust
    }

    /// The system's real-time clock, in seconds since 1970.
    public static func systemTime() -> Int64 {
        #if canImport(Glibc)
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec)
        #else
        return 0
        #endif
    }
}
