// The three system calls engine-check needs to read its table, declared straight from the C
// library so the same code builds with and without Foundation and Glibc's module (Embedded Swift
// has neither).

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
