// The vector table engine-check reads: one case per line, written by Embedded/vector-table from
// the third-party suites in ../shared/vectors (docs/static-and-embedded.md, "The engine on ARM
// Linux"). Plain text, so the same bytes feed x86-64, aarch64 and armv7 and a failure can be read
// by eye:
//
//     suite NAME                      the cases below belong to NAME (a path under ../shared/vectors)
//     key KIND HEX                    the key the following cases use (rsa-private: PKCS #8 DER,
//                                     rsa-public: SubjectPublicKeyInfo DER)
//     OP ID EXPECT FIELD...           one case; EXPECT is v (valid), i (invalid) or a (acceptable);
//                                     a field is hex, a decimal number or a word; "-" is empty

import CryptoPrimitives

/// A line the table does not describe correctly.
struct TableError: Error {
    let message: String
}

/// What the suite says a case must do.
enum Expectation {
    /// The operation succeeds and gives the recorded output (or the signature verifies).
    case valid
    /// The operation fails, or gives something other than the recorded output.
    case invalid
    /// Either outcome is allowed (Wycheproof's "acceptable"); counted apart, never as passed.
    case acceptable
}

/// One case line.
struct TableCase {
    let op: String
    let id: String
    let expectation: Expectation
    let fields: [[UInt8]]

    /// Reads `OP ID EXPECT FIELD...`.
    init(_ tokens: [[UInt8]]) throws(TableError) {
        guard tokens.count >= 3 else { throw TableError(message: "a case line has fewer than three words") }
        op = String(decoding: tokens[0], as: UTF8.self)
        id = String(decoding: tokens[1], as: UTF8.self)
        switch tokens[2] {
        case [0x76]: expectation = .valid
        case [0x69]: expectation = .invalid
        case [0x61]: expectation = .acceptable
        default: throw TableError(message: "case \(id): the expectation is not v, i or a")
        }
        fields = Array(tokens.dropFirst(3))
    }

    /// Field `index` as bytes from hex; "-" is empty.
    func bytes(_ index: Int) throws(TableError) -> [UInt8] {
        let token = try field(index)
        if token == [0x2d] { return [] }
        do throws(CryptoError) {
            return try Hex.decode(String(decoding: token, as: UTF8.self))
        } catch {
            throw TableError(message: "case \(id): field \(index) is not hex")
        }
    }

    /// Field `index` as a decimal number, optionally negative, that fits an `Int` of this
    /// architecture (32 bits on armv7).
    func number(_ index: Int) throws(TableError) -> Int {
        var digits = try field(index)[...]
        let negative = digits.first == 0x2d
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty else { throw TableError(message: "case \(id): field \(index) is not a number") }
        var value = 0
        for digit in digits {
            guard digit >= 0x30, digit <= 0x39 else { throw TableError(message: "case \(id): field \(index) is not a number") }
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = shifted.addingReportingOverflow(Int(digit - 0x30))
            guard !overflow, !carry else { throw TableError(message: "case \(id): field \(index) is out of range") }
            value = sum
        }
        return negative ? -value : value
    }

    /// Field `index` as a word.
    func word(_ index: Int) throws(TableError) -> String {
        String(decoding: try field(index), as: UTF8.self)
    }

    private func field(_ index: Int) throws(TableError) -> [UInt8] {
        guard index >= 0, index < fields.count else { throw TableError(message: "case \(id): field \(index) is missing") }
        return fields[index]
    }
}

/// The lines of `text`, each split at spaces; empty lines and `#` comments are dropped.
func tableLines(_ text: [UInt8]) -> [[[UInt8]]] {
    var lines = [[[UInt8]]]()
    var tokens = [[UInt8]]()
    var token = [UInt8]()
    for byte in text + [0x0a] {
        switch byte {
        case 0x20, 0x0d:
            if !token.isEmpty { tokens.append(token); token = [] }
        case 0x0a:
            if !token.isEmpty { tokens.append(token); token = [] }
            if let first = tokens.first, first.first != 0x23 { lines.append(tokens) }
            tokens = []
        default:
            token.append(byte)
        }
    }
    return lines
}

// The three system calls that read the table, declared straight from the C library so the same
// code builds with and without Glibc's module (Embedded Swift has none).

@_extern(c, "open")
private func systemOpen(_ path: UnsafePointer<CChar>, _ flags: Int32) -> Int32
@_extern(c, "read")
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int
@_extern(c, "close")
private func systemClose(_ descriptor: Int32) -> Int32

/// The whole of the file at `path`, at most `limit` bytes.
func readWholeFile(_ path: [UInt8], limit: Int = 256 << 20) throws(TableError) -> [UInt8] {
    let descriptor = (path + [0]).withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { $0.baseAddress.map { systemOpen($0, 0) } ?? -1 }  // O_RDONLY
    }
    guard descriptor >= 0 else { throw TableError(message: "\(String(decoding: path, as: UTF8.self)) cannot be opened") }
    defer { _ = systemClose(descriptor) }
    var contents = [UInt8]()
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
        if count == 0 { return contents }
        guard count > 0, count <= chunk.count else { throw TableError(message: "the table cannot be read") }
        guard contents.count + count <= limit else { throw TableError(message: "the table is larger than \(limit) bytes") }
        contents += chunk[..<count]
    }
}
