// The hook for certificate pinning (docs/protocols/cm-authenticator.md §6). FoundationNetworking on Linux exposes no server-trust challenge, so URLSessionTransport
// cannot pin; a client that pins hands a `CertificatePins` to a transport factory, and a
// transport built on a TLS stack that shows the peer's certificate (SwiftNIO SSL, libcurl's
// CURLOPT_PINNEDPUBLICKEY) refuses a peer none of whose digests is in the set.

/// A set of acceptable server certificates, by digest: the SHA-256 of the leaf certificate's DER
/// (how CM's iOS SDK pins) or of its SubjectPublicKeyInfo (how OkHttp and libcurl pin). A
/// transport given pins must refuse, with ``TransportError/Kind/tls``, every TLS connection
/// whose leaf matches neither list, and must never send a request before that check.
public struct CertificatePins: Sendable, Hashable, CustomStringConvertible {
    /// SHA-256 digests of acceptable leaf certificates (DER), 32 bytes each.
    public let certificateSHA256: Set<[UInt8]>
    /// SHA-256 digests of acceptable SubjectPublicKeyInfo structures (DER), 32 bytes each.
    public let spkiSHA256: Set<[UInt8]>

    /// A pin set. Digests that are not 32 bytes long are dropped.
    public init(certificateSHA256: some Sequence<[UInt8]> = [], spkiSHA256: some Sequence<[UInt8]> = []) {
        self.certificateSHA256 = Set(certificateSHA256.filter { $0.count == 32 })
        self.spkiSHA256 = Set(spkiSHA256.filter { $0.count == 32 })
    }

    /// Whether nothing is pinned (a transport must then refuse every TLS connection).
    public var isEmpty: Bool { certificateSHA256.isEmpty && spkiSHA256.isEmpty }

    /// Whether a leaf with these digests is acceptable. Pins are public values, so the
    /// comparison need not be constant time.
    public func accepts(certificateSHA256 certificate: [UInt8], spkiSHA256 spki: [UInt8]?) -> Bool {
        certificateSHA256.contains(certificate) || spki.map(spkiSHA256.contains) == true
    }

    /// The digests, hex.
    public var description: String {
        let hex = { (digest: [UInt8]) in digest.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() }
        let certificates = certificateSHA256.map(hex).sorted().joined(separator: ",")
        let spkis = spkiSHA256.map(hex).sorted().joined(separator: ",")
        return "CertificatePins(certificate: [\(certificates)], spki: [\(spkis)])"
    }
}
