// Real TLS servers on 127.0.0.1 for the interop tests: OpenSSL's `s_server`, GnuTLS's
// `gnutls-serv`, and the hostile server of Tests/TLSPeers, started as child processes on a free
// port and stopped when the test ends; certificates made by OpenSSL's CLI
// (Tests/TLSPeers/make-certificates). A peer whose program is missing makes the test say so:
// under CI (`CI=true`) that is a failure, elsewhere the test is skipped with the reason.

import Foundation
import Glibc
import TestSupport

/// A server process and the port it listens on.
final class TLSPeer: @unchecked Sendable {
    let port: UInt16
    private let process: Process
    private let errors: Pipe
    /// Standard output, drained by a readability handler while the server runs (nil when it is
    /// not read).
    private var drained: FileHandle?

    /// Where the test certificates live (made once per run).
    static let certificates: String = {
        let directory = NSTemporaryDirectory() + "swiftmfa-tls-certificates-\(getpid())"
        let maker = Process()
        maker.executableURL = URL(fileURLWithPath: SharedVectors.packageRoot + "/Tests/TLSPeers/make-certificates")
        maker.arguments = [directory]
        try? maker.run()  // a failure shows as missing files in the test that needs them
        maker.waitUntilExit()
        return directory
    }()

    /// Whether `program` is on the PATH.
    static func isInstalled(_ program: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(program)")
        }
    }

    /// Whether missing peers fail the run (CI) rather than skip.
    static let isRequired = ProcessInfo.processInfo.environment["CI"] == "true"

    /// Starts `arguments` (the first the program) and waits for the line holding the port,
    /// found by `portFrom`, on standard output.
    init(_ arguments: [String], directory: String? = nil, portFrom: @escaping (String) -> UInt16?) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let output = Pipe()
        errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = Pipe()
        try process.run()
        let handle = output.fileHandleForReading
        var text = ""
        let deadline = Date().addingTimeInterval(20)
        var found: UInt16?
        while found == nil, Date() < deadline {
            var entry = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 200) >= 0 else { break }
            guard entry.revents != 0 else { continue }
            let data = handle.availableDataNonBlocking
            if data.isEmpty && !process.isRunning { break }
            text += String(decoding: data, as: UTF8.self)
            found = text.split(separator: "\n").lazy.compactMap { portFrom(String($0)) }.first
        }
        guard let found else {
            process.terminate()
            throw PeerError.noPort(arguments.joined(separator: " ") + ": " + text)
        }
        port = found
        // Keep draining standard output so a chatty server never blocks on a full pipe; at its
        // end the handler removes itself, so no dispatch source outlives the pipe.
        handle.readabilityHandler = { handle in
            if handle.availableData.isEmpty { handle.readabilityHandler = nil }
        }
        drained = handle
    }

    enum PeerError: Error { case noPort(String) }

    /// What the server wrote to standard error so far.
    var errorOutput: String {
        String(decoding: errors.fileHandleForReading.availableDataNonBlocking, as: UTF8.self)
    }

    /// Sends a line to the server's standard input (s_server's commands, such as `R`).
    func command(_ line: String) {
        (process.standardInput as? Pipe)?.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    deinit {
        // The handler goes first: a dispatch source still watching the pipe when the handle is
        // freed can crash libdispatch's event loop. Then SIGKILL, not a wait:
        // Foundation reaps the child on its own thread, and waiting for it from a test's
        // executor can hang on Linux.
        drained?.readabilityHandler = nil
        kill(process.processIdentifier, SIGKILL)
    }

    /// `openssl s_server` with `kind`'s chain (`leaf` names another leaf of the kind), serving
    /// the files of `directory` (-WWW) when one is given, else interactive (commands on stdin).
    static func openSSL(_ kind: String, _ options: [String], serving directory: String?, leaf: String = "leaf") throws -> TLSPeer {
        let base = certificates + "/" + kind
        return try TLSPeer(["stdbuf", "-oL", "openssl", "s_server", "-accept", "127.0.0.1:0", "-cert", base + "/\(leaf).pem",
                            "-key", base + "/leaf.key", "-cert_chain", base + "/intermediate.pem"]
                           + (directory == nil ? [] : ["-WWW"]) + options, directory: directory) { line in
            line.hasPrefix("ACCEPT ") ? line.split(separator: ":").last.flatMap { UInt16($0) } : nil
        }
    }

    /// A port free on 127.0.0.1 now (bound, read back, released).
    static func freePort() -> UInt16 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(descriptor, raw, length) == 0 ? getsockname(descriptor, raw, &length) : -1
            }
        }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Whether something accepts connections on `port`.
    static func isListening(_ port: UInt16) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// Starts a server that prints nothing useful, on a port chosen here, and waits until it
    /// accepts connections.
    init(_ arguments: [String], listeningOn port: UInt16) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        process.standardInput = Pipe()
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while !Self.isListening(port) {
            guard Date() < deadline, process.isRunning else {
                process.terminate()
                throw PeerError.noPort(arguments.joined(separator: " ") + ": " + String(decoding: errors.fileHandleForReading.availableDataNonBlocking, as: UTF8.self))
            }
            usleep(50_000)
        }
        self.port = port
    }

    /// nginx serving `root` over TLS 1.2 and 1.3 with `kind`'s chain, keeping connections
    /// alive; each answer names its connection (`X-Connection`) and its number on it
    /// (`X-Connection-Requests`).
    static func nginx(_ kind: String, root: String) throws -> TLSPeer {
        let base = certificates + "/" + kind
        let prefix = NSTemporaryDirectory() + "swiftmfa-nginx-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: prefix + "/logs", withIntermediateDirectories: true)
        let port = freePort()
        let configuration = """
        daemon off;
        master_process off;
        error_log stderr warn;
        pid \(prefix)/nginx.pid;
        events { worker_connections 64; }
        http {
            access_log off;
            client_body_temp_path \(prefix)/body; proxy_temp_path \(prefix)/proxy; fastcgi_temp_path \(prefix)/fastcgi;
            uwsgi_temp_path \(prefix)/uwsgi; scgi_temp_path \(prefix)/scgi;
            keepalive_timeout 30s;
            server {
                listen 127.0.0.1:\(port) ssl;
                ssl_certificate \(base)/chain.pem;
                ssl_certificate_key \(base)/leaf.key;
                ssl_protocols TLSv1.2 TLSv1.3;
                root \(root);
                add_header X-Connection $connection always;
                add_header X-Connection-Requests $connection_requests always;
                add_header X-Echo-Access-Token $http_access_token always;
                add_header X-Echo-Query $args always;
            }
        }
        """
        try configuration.write(toFile: prefix + "/nginx.conf", atomically: true, encoding: .utf8)
        return try TLSPeer(["nginx", "-p", prefix, "-c", prefix + "/nginx.conf"], listeningOn: port)
    }

    /// The hostile server of Tests/TLSPeers in `mode`, with the P-256 chain of the test
    /// certificates.
    static func hostile(_ mode: String, _ extra: [String] = []) throws -> TLSPeer {
        let base = certificates + "/p256"
        return try TLSPeer(["python3", SharedVectors.packageRoot + "/Tests/TLSPeers/hostile_tls_server.py", "--mode", mode,
                            "--cert", base + "/chain.pem", "--key", base + "/leaf.key"] + extra) { line in
            line.hasPrefix("PORT ") ? UInt16(line.dropFirst(5)) : nil
        }
    }

    /// The SHA-256 of a certificate's SubjectPublicKeyInfo, computed by OpenSSL's CLI.
    static func spkiPin(_ certificate: String) throws -> [UInt8] {
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "openssl x509 -in '\(certificate)' -pubkey -noout | openssl pkey -pubin -outform DER | openssl dgst -sha256 -binary"]
        let output = Pipe()
        shell.standardOutput = output
        try shell.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        return Array(data)
    }

    /// `gnutls-serv --http` with `kind`'s chain and a GnuTLS priority string (it listens on
    /// every interface: the tool has no address option).
    static func gnuTLS(_ kind: String, priority: String) throws -> TLSPeer {
        let base = certificates + "/" + kind
        let port = freePort()
        return try TLSPeer(["gnutls-serv", "--http", "--port", String(port), "--x509certfile", base + "/chain.pem",
                            "--x509keyfile", base + "/leaf.key", "--priority", priority], listeningOn: port)
    }
}

extension FileHandle {
    /// What can be read now without waiting.
    var availableDataNonBlocking: Data {
        let descriptor = fileDescriptor
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        defer { _ = fcntl(descriptor, F_SETFL, flags) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = Glibc.read(descriptor, &buffer, buffer.count)
            guard count > 0 else { break }
            data.append(contentsOf: buffer[0..<count])
        }
        return data
    }
}
