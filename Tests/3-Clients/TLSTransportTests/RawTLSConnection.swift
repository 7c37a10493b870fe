// Our TLSClient on a blocking socket to 127.0.0.1, for the tests that look at the connection
// itself (version, suite, HelloRetryRequest, the alert a refusal sends) rather than at HTTP.

import Foundation
import Glibc
import TLS

/// A TLS connection driven by a test.
struct RawTLSConnection {
    private let descriptor: Int32
    var client: TLSClient

    /// Connects and runs the handshake to its end; throws the client's error on a refusal.
    init(port: UInt16, configuration: TLSConfiguration, timeout: Int32 = 10_000) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw RawError.connect(errno) }
        client = TLSClient(configuration: configuration)
        try write(try client.start())
        while !client.isConnected {
            guard let bytes = try read(timeout: timeout) else { throw RawError.closed }
            _ = try feed(bytes)
        }
    }

    enum RawError: Error { case connect(Int32), closed, timedOut }

    /// Feeds bytes to the client, writes its answer, returns its output; on a refusal the
    /// alert is written first.
    mutating func feed(_ bytes: [UInt8]) throws -> TLSClient.Output {
        do {
            let output = try client.receive(bytes)
            if !output.bytesToSend.isEmpty { try write(output.bytesToSend) }
            return output
        } catch let error as TLSError {
            try? write(client.alertRecord(for: error))
            throw error
        }
    }

    /// Application data until `count` bytes arrived or the peer closed.
    mutating func receiveApplicationData(atLeast count: Int, timeout: Int32 = 10_000) throws -> [UInt8] {
        var data: [UInt8] = []
        while data.count < count {
            guard let bytes = try read(timeout: timeout) else { break }
            let output = try feed(bytes)
            data += output.applicationData
            if output.peerClosed { break }
        }
        return data
    }

    mutating func send(_ data: [UInt8]) throws { try write(try client.seal(data)) }

    func write(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw RawError.closed }
            sent += count
        }
    }

    /// The next bytes, or nil when the peer closed.
    func read(timeout: Int32) throws -> [UInt8]? {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, timeout) > 0 else { throw RawError.timedOut }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = Glibc.recv(descriptor, &buffer, buffer.count, 0)
        return count > 0 ? Array(buffer[0..<count]) : nil
    }

    func close() { Glibc.close(descriptor) }
}
