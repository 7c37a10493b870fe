// The system's trust anchors, read once per process: `$SSL_CERT_FILE` alone when it is set, else
// the first bundle of the places Linux distributions keep one (Debian and Ubuntu, Fedora and
// RHEL, Alpine, openSUSE), else every `.pem`/`.crt` of `$SSL_CERT_DIR`'s directories or
// `/etc/ssl/certs`.
// Files are read with Glibc (no Foundation) and bounded in size.

import AuthNetworking
import Glibc
import Synchronization
import TLS

/// The trust anchors of the system.
enum SystemTrustStore {
    /// The bundle files tried, in order.
    static let bundlePaths = ["/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt",
                              "/etc/ssl/cert.pem", "/etc/ssl/ca-bundle.pem", "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem"]
    /// The largest bundle read (Debian's is about 200 KiB).
    static let maximumFileBytes = 8 * 1024 * 1024

    private static let cache = Mutex<TrustAnchors?>(nil)

    /// The anchors, loaded on first use; an error when no bundle yields any certificate.
    static func anchors() throws(TransportError) -> TrustAnchors {
        if let cached = cache.withLock({ $0 }) { return cached }
        let loaded = try load()
        cache.withLock { $0 = loaded }
        return loaded
    }

    private static func load() throws(TransportError) -> TrustAnchors {
        // As OpenSSL: `$SSL_CERT_FILE`, when set, is the bundle; one that gives no certificate
        // is an error, not a reason to trust the distribution's instead.
        if let path = environment("SSL_CERT_FILE") {
            let anchors = readFile(path).map { TrustAnchors(pemBundle: $0) }
            guard let anchors, anchors.count > 0 else {
                throw TransportError(.tls, underlying: "no trust anchors: SSL_CERT_FILE=\(path) holds no readable certificate")
            }
            return anchors
        }
        let files = bundlePaths
        for path in files {
            if let text = readFile(path) {
                let anchors = TrustAnchors(pemBundle: text)
                if anchors.count > 0 { return anchors }
            }
        }
        // `$SSL_CERT_DIR` is a colon-separated list, as OpenSSL reads it.
        let directories = (environment("SSL_CERT_DIR") ?? "/etc/ssl/certs").split(separator: ":").map(String.init)
        var texts = ""
        for directory in directories {
            for name in listDirectory(directory) where name.hasSuffix(".pem") || name.hasSuffix(".crt") {
                if let text = readFile(directory + "/" + name) { texts += text + "\n" }
            }
        }
        let anchors = TrustAnchors(pemBundle: texts)
        guard anchors.count > 0 else {
            throw TransportError(.tls, underlying: "no trust anchors: none of \(files.joined(separator: ", ")) nor \(directories.joined(separator: ":")) holds a certificate")
        }
        return anchors
    }

    static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    /// The file's text, or nil when it cannot be read or passes the size bound.
    static func readFile(_ path: String, limit: Int = maximumFileBytes) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            bytes += chunk[0..<count]
            guard bytes.count <= limit else { return nil }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func listDirectory(_ path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}
