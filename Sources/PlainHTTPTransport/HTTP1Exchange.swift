// One HTTP/1.1 exchange over any connected byte stream — a plain TCP socket here, TLS in
// TLSTransport — so both transports write, read, bound and refuse answers the same way: the
// request bytes out, then the response read incrementally (HTTP1ResponseReader) within an
// overall deadline and an idle timeout, a redirect refused before its body is read, every
// limit checked as the answer grows.

package import AuthNetworking
package import CryptoPrimitives
package import ProtocolSupport

/// A connected stream of bytes an HTTP/1.1 exchange runs over.
package protocol HTTP1Stream {
    /// Writes all of `request` before `deadline`; a copy the stream makes on the way is wiped.
    mutating func write(_ request: SecretBytes, deadline: Deadline) throws(TransportError)
    /// Appends what arrives next to `buffer`; true when the peer has closed.
    mutating func read(into buffer: inout [UInt8], deadline: Deadline) throws(TransportError) -> Bool
}

extension TCPConnection: HTTP1Stream {
    package func write(_ request: SecretBytes, deadline: Deadline) throws(TransportError) {
        try request.withUnsafeBytes { bytes throws(TransportError) in try write(bytes, deadline: deadline) }
    }
}

/// Runs one request and reads its answer.
package enum HTTP1Exchange {
    /// The answer to `requestBytes`, and whether the connection may carry another request
    /// (a length-delimited body, no `Connection: close`). `deadline` bounds the whole
    /// exchange; no read may wait longer than `idleTimeout` seconds for its next byte.
    package static func run(_ requestBytes: SecretBytes, over stream: inout some HTTP1Stream, hasNoBody: Bool, limits: ResponseLimits,
                            deadline: Deadline, idleTimeout: Double) throws(TransportError) -> (response: HTTPResponse, reusable: Bool) {
        try stream.write(requestBytes, deadline: deadline)
        var reader = HTTP1ResponseReader(hasNoBody: hasNoBody, limits: limits)
        var received: [UInt8] = []
        received.reserveCapacity(TCPConnection.readSize)
        var headChecked = false
        while true {
            received.removeAll(keepingCapacity: true)
            let closed: Bool
            do throws(TransportError) {
                closed = try stream.read(into: &received, deadline: deadline.capped(atMost: idleTimeout))
            } catch where error.kind == .timedOut && !deadline.hasPassed {
                throw TransportError(.timedOut, underlying: "no data for \(idleTimeout) s")
            }
            let response: HTTPResponse?
            do throws(HTTP1Message.ParseError) {
                // A stream may hand over its last bytes with its close (TLS: data, then close_notify).
                var consumed: HTTPResponse?
                if !received.isEmpty { consumed = try reader.consume(received) }
                if consumed == nil && closed { consumed = try reader.finish() }
                response = consumed
            } catch {
                try refuseRedirect(reader.head)
                throw error == .tooLarge
                    ? TransportError(.responseTooLarge, underlying: "the answer passed the head, chunk-line or \(limits.bodyBytes)-byte body limit")
                    : TransportError(.badResponse, underlying: "\(error)")
            }
            if !headChecked, let head = reader.head {
                // docs/design.md §1: a 3xx is an error, never followed — refused before its body is read.
                try refuseRedirect(head)
                // Identity was asked for (Accept-Encoding); a compressed body is refused, not inflated.
                if let coding = head.header("Content-Encoding"), coding.lowercased() != "identity" {
                    throw TransportError(.badResponse, underlying: "the answer is \(coding)-encoded; only identity is accepted")
                }
                headChecked = true
            }
            if let response {
                let closes = response.header("Connection")?.lowercased().contains("close") == true
                return (response, !closed && !closes && !reader.isCloseDelimited)
            }
        }
    }

    private static func refuseRedirect(_ head: HTTPResponse?) throws(TransportError) {
        guard let head else { return }
        try HTTPSendPolicy.refuseRedirect(status: head.status, location: head.header("Location"))
    }
}
