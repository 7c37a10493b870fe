// Reading a secret from a file for `mfa` (docs/design.md §3): like ssh with a private key, a file that
// its group or other users may read is refused — the secret is already exposed, and using it
// would hide that. The file is opened once and checked through that descriptor (no race between
// the check and the read). The bytes come back in an array the caller wraps and wipes.

import Glibc

/// Secret files for `mfa`.
public enum SecretFile {
    /// The largest secret file read (a PIN, a code, a token or a QR text is far smaller).
    public static let maximumSize = 64 * 1024

    /// The contents of `path` without its trailing line end. A file that group or others may
    /// read or write, that is not a regular file or a pipe, that is empty or larger than
    /// ``maximumSize``, or that cannot be read is a usage error naming it.
    public static func read(_ path: String) throws(UsageError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw UsageError(description: "cannot read \(path)") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw UsageError(description: "cannot read \(path)") }
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFREG || kind == S_IFIFO else { throw UsageError(description: "\(path) is not a regular file") }
        guard status.st_mode & 0o077 == 0 else {
            throw UsageError(description: "\(path) holds a secret but group or others may access it (mode \(String(status.st_mode & 0o777, radix: 8))): chmod 600 \(path)")
        }
        // One allocation for the whole secret: growing the array would free earlier copies unwiped.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(maximumSize)
        var chunk = [UInt8](repeating: 0, count: 4096)
        defer { wipe(&chunk) }
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else {
                wipe(&bytes)
                throw UsageError(description: "cannot read \(path)")
            }
            if count == 0 { break }
            guard bytes.count + count <= maximumSize else {
                wipe(&bytes)
                throw UsageError(description: "\(path) is larger than a secret can be")
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
        while let last = bytes.last, last == 0x0A || last == 0x0D { bytes.removeLast() }
        guard !bytes.isEmpty else { throw UsageError(description: "\(path) is empty") }
        return bytes
    }

    /// Overwrites `bytes` with zeros (the caller's copy is what stays).
    public static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { raw in
            if let base = raw.baseAddress { explicit_bzero(base, raw.count) }
        }
    }
}
