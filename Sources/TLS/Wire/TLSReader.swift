// Bounded reading of TLS's presentation language (RFC 8446 §3): integers and vectors with
// 8-, 16- and 24-bit length prefixes. Every read checks what is left; a short or overlong
// field is `decode_error`, never a trap.

/// Reads a byte slice front to back.
struct TLSReader {
    private let bytes: [UInt8]
    private(set) var position: Int
    private let end: Int

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        position = 0
        end = bytes.count
    }

    private init(bytes: [UInt8], range: Range<Int>) {
        self.bytes = bytes
        position = range.lowerBound
        end = range.upperBound
    }

    /// Bytes not yet read.
    var remaining: Int { end - position }
    var isAtEnd: Bool { position == end }

    /// Throws `decode_error` unless every byte was read.
    func finish(_ what: String) throws(TLSError) {
        guard isAtEnd else { throw .decode("\(remaining) trailing bytes after \(what)") }
    }

    mutating func readUInt8(_ what: String) throws(TLSError) -> UInt8 {
        guard remaining >= 1 else { throw .decode("\(what) is cut short") }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func readUInt16(_ what: String) throws(TLSError) -> UInt16 {
        guard remaining >= 2 else { throw .decode("\(what) is cut short") }
        defer { position += 2 }
        return UInt16(bytes[position]) << 8 | UInt16(bytes[position + 1])
    }

    mutating func readUInt24(_ what: String) throws(TLSError) -> Int {
        guard remaining >= 3 else { throw .decode("\(what) is cut short") }
        defer { position += 3 }
        return Int(bytes[position]) << 16 | Int(bytes[position + 1]) << 8 | Int(bytes[position + 2])
    }

    /// Exactly `count` bytes.
    mutating func readBytes(_ count: Int, _ what: String) throws(TLSError) -> [UInt8] {
        guard count >= 0, remaining >= count else { throw .decode("\(what) is cut short") }
        defer { position += count }
        return Array(bytes[position..<(position + count)])
    }

    /// A vector with a `lengthBytes`-byte length prefix, as bytes; its length must lie in `allowed`.
    mutating func readVector(lengthBytes: Int, _ what: String, allowed: ClosedRange<Int> = 0...Int.max) throws(TLSError) -> [UInt8] {
        let length = try readLength(lengthBytes, what)
        guard allowed.contains(length) else { throw .decode("\(what) has length \(length), outside \(allowed)") }
        return try readBytes(length, what)
    }

    /// A vector with a length prefix, as a reader over its contents.
    mutating func readNested(lengthBytes: Int, _ what: String, allowed: ClosedRange<Int> = 0...Int.max) throws(TLSError) -> TLSReader {
        let length = try readLength(lengthBytes, what)
        guard allowed.contains(length) else { throw .decode("\(what) has length \(length), outside \(allowed)") }
        guard remaining >= length else { throw .decode("\(what) is cut short") }
        defer { position += length }
        return TLSReader(bytes: bytes, range: position..<(position + length))
    }

    private mutating func readLength(_ lengthBytes: Int, _ what: String) throws(TLSError) -> Int {
        switch lengthBytes {
        case 1: Int(try readUInt8(what))
        case 2: Int(try readUInt16(what))
        default: try readUInt24(what)
        }
    }
}

/// Writes TLS's presentation language.
struct TLSWriter {
    private(set) var bytes: [UInt8] = []

    mutating func writeUInt8(_ value: UInt8) { bytes.append(value) }

    mutating func writeUInt16(_ value: UInt16) {
        bytes.append(UInt8(value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    mutating func writeUInt24(_ value: Int) {
        bytes.append(UInt8(truncatingIfNeeded: value >> 16))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    mutating func writeBytes(_ data: some Sequence<UInt8>) { bytes.append(contentsOf: data) }

    /// A vector whose `lengthBytes`-byte length prefix is filled in after `body` writes it.
    mutating func writeVector(lengthBytes: Int, _ body: (inout TLSWriter) -> Void) {
        var inner = TLSWriter()
        body(&inner)
        let count = inner.bytes.count
        switch lengthBytes {
        case 1: writeUInt8(UInt8(truncatingIfNeeded: count))
        case 2: writeUInt16(UInt16(truncatingIfNeeded: count))
        default: writeUInt24(count)
        }
        bytes += inner.bytes
    }

    /// A handshake message: type, 24-bit length, body (RFC 8446 §4).
    static func handshakeMessage(_ type: TLSHandshakeType, _ body: (inout TLSWriter) -> Void) -> [UInt8] {
        var writer = TLSWriter()
        writer.writeUInt8(type.rawValue)
        writer.writeVector(lengthBytes: 3, body)
        return writer.bytes
    }
}
