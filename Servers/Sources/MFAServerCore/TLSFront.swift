// TLS for mfa-server from nginx, a real server written apart from this project: nginx on the
// requested host and port terminates TLS 1.2 and 1.3 with a TestTLSIdentity's certificate and
// passes every request, unchanged and unbuffered, to the plain-HTTP Hummingbird server on a
// loopback port of its own. The tests' TLS peer is thus the server a deployment would put in
// front of a back end; nginx is the one program this needs (CI installs it).

import Foundation
import Glibc
public import ServiceLifecycle

/// nginx terminating TLS for a plain-HTTP server on this machine, until ``stop()`` (or the
/// process) ends it.
public final class TLSFront: @unchecked Sendable {
    /// The URL clients use: `https://host:port`.
    public let url: String
    /// The loopback port the plain-HTTP server must listen on.
    public let upstreamPort: Int
    private let process: Process
    private let directory: String
    private let lock = NSLock()
    private var stopped = false

    /// Starts nginx on `host:port` (port 0: a free one) with `identity`, passing requests to
    /// `127.0.0.1:upstreamPort` (0: a free one, read back from ``upstreamPort``), and waits until
    /// it has bound its socket.
    public init(identity: TestTLSIdentity, host: String = "127.0.0.1", port: Int = 0, upstreamPort: Int = 0) throws {
        let listenPort = port == 0 ? try Self.freePort() : port
        self.upstreamPort = upstreamPort == 0 ? try Self.freePort() : upstreamPort
        let directory = NSTemporaryDirectory() + "mfa-server-tls-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        self.directory = directory
        var started = false
        // Whatever fails below, the key does not stay behind in /tmp.
        defer { if !started { try? FileManager.default.removeItem(atPath: directory) } }
        try FileManager.default.createDirectory(atPath: directory + "/logs", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try identity.leafPEM.write(toFile: directory + "/leaf.pem", atomically: true, encoding: .utf8)
        guard FileManager.default.createFile(atPath: directory + "/leaf.key", contents: Data(identity.leafKeyPEM.utf8),
                                             attributes: [.posixPermissions: 0o600]) else {
            throw TLSFrontError(description: "the key file cannot be written in \(directory)")
        }
        let hostInURL = host.contains(":") ? "[\(host)]" : host
        let configuration = """
        daemon off;
        master_process off;
        error_log \(directory)/error.log warn;
        pid \(directory)/nginx.pid;
        events { worker_connections 256; }
        http {
            access_log off;
            client_body_temp_path \(directory)/body; proxy_temp_path \(directory)/proxy; fastcgi_temp_path \(directory)/fastcgi;
            uwsgi_temp_path \(directory)/uwsgi; scgi_temp_path \(directory)/scgi;
            client_max_body_size 2m;
            server {
                listen \(hostInURL):\(listenPort) ssl;
                ssl_certificate \(directory)/leaf.pem;
                ssl_certificate_key \(directory)/leaf.key;
                ssl_protocols TLSv1.2 TLSv1.3;
                location / {
                    proxy_pass http://127.0.0.1:\(self.upstreamPort);
                    proxy_http_version 1.1;
                    proxy_set_header Host $http_host;
                    proxy_set_header Connection "";
                    proxy_buffering off;
                    proxy_request_buffering off;
                    proxy_redirect off;
                    proxy_read_timeout 120s;
                }
            }
        }
        """
        try configuration.write(toFile: directory + "/nginx.conf", atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["nginx", "-e", directory + "/error.log", "-p", directory, "-c", directory + "/nginx.conf"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // nginx writes its pid file once its socket is bound, whatever the address family.
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: directory + "/nginx.pid") {
            guard Date() < deadline, process.isRunning else {
                kill(process.processIdentifier, SIGKILL)
                let said = (try? String(contentsOfFile: directory + "/error.log", encoding: .utf8)) ?? "no error log"   // best effort: for the message
                throw TLSFrontError(description: "nginx did not start on \(host):\(listenPort): \(said)")
            }
            usleep(20_000)
        }
        // nginx holds the key in memory now; the file goes.
        try? FileManager.default.removeItem(atPath: directory + "/leaf.key")   // best effort: the directory goes at stop
        started = true
        url = "https://\(hostInURL):\(listenPort)"
    }

    /// Stops nginx and removes its files.
    public func stop() {
        let first = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        // SIGKILL, not a wait: Foundation reaps the child on its own thread.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(atPath: directory)   // best effort: a temporary directory
    }

    deinit { stop() }

    /// A port free on 127.0.0.1 now (bound, read back, released).
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TLSFrontError(description: "no socket (errno \(errno))") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(descriptor, raw, length) == 0 && getsockname(descriptor, raw, &length) == 0
            }
        }
        guard bound else { throw TLSFrontError(description: "no free port (errno \(errno))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

}

/// Stops a ``TLSFront`` when the service group it runs in shuts down: listed among an
/// application's services, nginx lives exactly as long as the application.
public struct TLSFrontStopper: Service {
    /// The front to stop.
    public let front: TLSFront

    /// A stopper for `front`.
    public init(front: TLSFront) { self.front = front }

    /// Waits for the group's shutdown, then stops nginx.
    public func run() async throws {
        defer { front.stop() }
        // Returns at a graceful shutdown and throws when the group is cancelled: either way the
        // front stops, so the error carries nothing to report.
        try? await gracefulShutdown()
    }
}

/// Why nginx could not be started in front of the server.
public struct TLSFrontError: Error, CustomStringConvertible {
    /// What failed.
    public let description: String
}
