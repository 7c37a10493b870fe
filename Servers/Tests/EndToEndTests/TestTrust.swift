// The roots of every TLS identity the end-to-end tests start a server with, so the helpers that
// talk to a stand-in's integration API (outside the client under test) reach it over https as
// over http: through the package's TLSTransport, trusting those roots, or URLSessionTransport
// for plain http.

import AuthNetworking
import Foundation
import MFAServerCore
import TLS
import TLSTransport
import URLSessionTransport

enum TestTrust {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var roots: [String] = []

    /// A new identity whose root the helpers will trust.
    static func identity() throws -> TestTLSIdentity {
        let identity = try TestTLSIdentity()
        lock.withLock { roots.append(identity.rootPEM) }
        return identity
    }

    /// The anchors of every identity made so far.
    static var anchors: TrustAnchors { TrustAnchors(pemBundle: lock.withLock { roots.joined(separator: "\n") }) }

    /// A transport to `url`: TLSTransport trusting the test roots for https, quiet
    /// URLSessionTransport for http.
    static func transport(_ url: String) -> any HTTPTransport {
        guard url.hasPrefix("https://") else { return URLSessionTransport(configuration: ActivatedClient.quiet(url)) }
        var configuration = TLSTransport.Configuration(baseURL: url)
        configuration.trust = .anchors(anchors)
        return TLSTransport(configuration: configuration)
    }

    /// A PEM file holding `identity`'s root, for `mfa --ca-file`; removed by the caller.
    static func caFile(_ identity: TestTLSIdentity) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mfa-ca-\(UUID().uuidString).pem").path
        try identity.rootPEM.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
