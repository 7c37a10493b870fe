// Splits the byte stream from the peer into records (RFC 8446 §5.1, RFC 5246 §6.2.1), keeping
// at most one incomplete record: a length field over the protocol's limit is refused as soon
// as the header arrives, so a peer cannot make the client buffer more than one record.

/// One record as received: its 5-byte header and fragment.
struct TLSRecord {
    let header: [UInt8]
    let fragment: [UInt8]
    var type: TLSContentType { TLSContentType(rawValue: header[0]) }
}

/// Reassembles records from bytes handed over in any split.
struct RecordFramer {
    private var buffer: [UInt8] = []
    private var start = 0
    /// The largest fragment accepted (TLS 1.2's bound until TLS 1.3 is negotiated).
    var maximumFragment = RecordCipher.maximumCiphertextTLS12

    /// Bytes held that do not yet form a record.
    var bufferedCount: Int { buffer.count - start }

    /// Takes bytes from the peer.
    mutating func append(_ bytes: some Collection<UInt8>) {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete record, or nil when more bytes are needed.
    mutating func next() throws(TLSError) -> TLSRecord? {
        guard buffer.count - start >= 5 else { return nil }
        let type = buffer[start]
        guard (20...23).contains(type) else { throw .unexpected("a record of unknown content type \(type)") }
        // RFC 8446 §5.1: legacy_record_version is 0x0301 or 0x0303 in practice; the major
        // version must be 3 (anything else is not TLS at all).
        guard buffer[start + 1] == 3 else { throw .violation(.protocolVersion, "a record of version \(buffer[start + 1]).\(buffer[start + 2])") }
        let length = Int(buffer[start + 3]) << 8 | Int(buffer[start + 4])
        guard length <= maximumFragment else { throw .violation(.recordOverflow, "a record of \(length) bytes (at most \(maximumFragment))") }
        guard buffer.count - start >= 5 + length else { return nil }
        let header = Array(buffer[start..<(start + 5)])
        let fragment = Array(buffer[(start + 5)..<(start + 5 + length)])
        start += 5 + length
        return TLSRecord(header: header, fragment: fragment)
    }
}

/// Reassembles handshake messages from the handshake records' contents (RFC 8446 §5.1:
/// messages may be split over records and several may share one), bounded per message.
struct HandshakeReassembler {
    private var buffer: [UInt8] = []
    /// The largest message accepted: a certificate chain of a few large certificates fits.
    static let maximumMessage = 64 * 1024

    /// Whether part of a message is waiting (not allowed at a key change, RFC 8446 §5.1).
    var isEmpty: Bool { buffer.isEmpty }

    mutating func append(_ bytes: [UInt8]) { buffer += bytes }

    /// The next whole message (header included), or nil when more is needed.
    mutating func next() throws(TLSError) -> [UInt8]? {
        guard buffer.count >= 4 else { return nil }
        let length = Int(buffer[1]) << 16 | Int(buffer[2]) << 8 | Int(buffer[3])
        guard length <= Self.maximumMessage else {
            throw .violation(.unexpectedMessage, "a handshake message of \(length) bytes (at most \(Self.maximumMessage))")
        }
        guard buffer.count >= 4 + length else { return nil }
        let message = Array(buffer[0..<(4 + length)])
        buffer.removeFirst(4 + length)
        return message
    }
}
