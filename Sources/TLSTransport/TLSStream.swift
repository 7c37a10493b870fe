// A TLS connection over a TCP socket, as the byte stream HTTP/1.1 runs over: the handshake
// driven to completion within the exchange's deadline, application data sealed on the way out
// and opened on the way in, and every TLS failure turned into `TransportError.Kind.tls` after
// the peer is told the alert (never more).

import AuthNetworking
import CryptoPrimitives
import PlainHTTPTransport
import TLS

/// A TLS client connection on a socket. Unchecked Sendable: one exchange owns it at a time,
/// and the connection pool hands it from one to the next under its lock.
struct TLSStream: HTTP1Stream, @unchecked Sendable {
    private let socket: TCPConnection
    private var client: TLSClient
    /// Application data received and not yet handed out.
    private var pending: [UInt8] = []
    private var peerClosed = false

    /// Connects to `host:port` and completes the handshake before `deadline`.
    init(host: String, port: UInt16, configuration: TLSConfiguration, deadline: Deadline, idleTimeout: Double) throws(TransportError) {
        socket = try TCPConnection(host: host, port: port, deadline: deadline)
        client = TLSClient(configuration: configuration)
        do throws(TransportError) {
            try socket.write(try Self.mapping { () throws(TLSError) in try client.start() }, deadline: deadline)
            var received: [UInt8] = []
            while !client.isConnected {
                received.removeAll(keepingCapacity: true)
                let closed = try socket.read(into: &received, deadline: deadline.capped(atMost: idleTimeout))
                guard !closed else { throw TransportError(.tls, underlying: "the server closed the connection during the handshake") }
                let output = try receive(received, deadline: deadline)
                pending += output.applicationData
                if output.peerClosed { throw TransportError(.tls, underlying: "the server closed the connection during the handshake") }
            }
        } catch {
            socket.close()
            throw error
        }
    }

    /// The negotiated version.
    var version: TLSVersion? { client.version }

    mutating func write(_ request: SecretBytes, deadline: Deadline) throws(TransportError) {
        let records = try Self.mapping { () throws(TLSError) in try request.withUnsafeBytes { bytes throws(TLSError) in try client.seal(bytes) } }
        try socket.write(records, deadline: deadline)
    }

    /// Application data; true at the peer's close_notify. A close of the socket without
    /// close_notify is an error: the answer may have been cut short (RFC 8446 §6.1).
    mutating func read(into buffer: inout [UInt8], deadline: Deadline) throws(TransportError) -> Bool {
        var received: [UInt8] = []
        while pending.isEmpty && !peerClosed {
            received.removeAll(keepingCapacity: true)
            guard !(try socket.read(into: &received, deadline: deadline)) else {
                throw TransportError(.badResponse, underlying: "the server closed the connection without close_notify")
            }
            let output = try receive(received, deadline: deadline)
            pending += output.applicationData
            peerClosed = output.peerClosed
        }
        buffer += pending
        pending.removeAll(keepingCapacity: true)
        return peerClosed
    }

    /// Whether the connection can carry another exchange: records that arrived while it sat
    /// idle are read first (a TLS 1.3 server's NewSessionTicket often comes after the answer);
    /// a close, application data nobody asked for, or any error means it cannot.
    mutating func isReusable() -> Bool {
        guard !peerClosed, pending.isEmpty else { return false }
        var received: [UInt8] = []
        while socket.isStale {
            received.removeAll(keepingCapacity: true)
            do throws(TransportError) {
                // Readable now, so the read does not wait; the deadline only has to outlast a
                // busy machine's scheduling delay (a tenth of a second was not always enough).
                guard !(try socket.read(into: &received, deadline: Deadline(seconds: 2))) else { return false }
                let output = try receive(received, deadline: Deadline(seconds: 2))
                guard output.applicationData.isEmpty, !output.peerClosed else { return false }
            } catch {
                return false
            }
        }
        return true
    }

    /// Sends close_notify and closes the socket.
    mutating func close() {
        let alert = client.close()
        try? socket.write(alert, deadline: Deadline(seconds: 0.2))  // a courtesy to the peer; the socket closes anyway
        socket.close()
    }

    /// Feeds the TLS client and writes what it answers (KeyUpdate, alerts).
    private mutating func receive(_ bytes: [UInt8], deadline: Deadline) throws(TransportError) -> TLSClient.Output {
        let output: TLSClient.Output
        do throws(TLSError) {
            output = try client.receive(bytes)
        } catch {
            let alert = client.alertRecord(for: error)
            if !alert.isEmpty { try? socket.write(alert, deadline: Deadline(seconds: 0.2)) }  // best effort: the error is what counts
            throw TransportError(.tls, underlying: error.description)
        }
        if !output.bytesToSend.isEmpty { try socket.write(output.bytesToSend, deadline: deadline) }
        return output
    }

    private static func mapping<T>(_ body: () throws(TLSError) -> T) throws(TransportError) -> T {
        do throws(TLSError) { return try body() } catch { throw TransportError(.tls, underlying: error.description) }
    }
}
