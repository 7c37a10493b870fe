// The one store for secret bytes (docs/design.md §2, habit 3).

#if canImport(Glibc)
import Glibc
#endif

/// A buffer of secret bytes: wiped with `explicit_bzero` when its last copy is released,
/// redacted in `description`, `debugDescription` and `dump`, compared in constant time, and
/// neither `Hashable` nor `Codable`.
///
/// Copies share storage until one of them is mutated (copy on write); every storage is wiped
/// on release.
public struct SecretBytes: Sendable {
    @usableFromInline
    final class Storage: @unchecked Sendable {
        @usableFromInline let bytes: UnsafeMutableRawBufferPointer

        @usableFromInline
        init(count: Int) {
            bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: Swift.max(count, 1), alignment: 16)
            bytes.initializeMemory(as: UInt8.self, repeating: 0)
            self.count = count
        }

        @usableFromInline let count: Int

        deinit {
            SecretBytes.wipe(bytes)
            bytes.deallocate()
        }
    }

    @usableFromInline var storage: Storage

    /// Secret bytes copied from `bytes`. The caller remains responsible for its own copy.
    ///
    /// Contiguous input (an array, an array slice, a buffer) is copied straight into the wiped
    /// storage; any other sequence goes through a temporary array that is wiped before return.
    public init(_ bytes: some Sequence<UInt8>) {
        let copied: Storage? = bytes.withContiguousStorageIfAvailable { source in
            let storage = Storage(count: source.count)
            if let base = source.baseAddress, source.count > 0 {
                storage.bytes.baseAddress?.copyMemory(from: base, byteCount: source.count)
            }
            return storage
        }
        if let copied {
            storage = copied
        } else {
            var array = Array(bytes)
            defer { Self.wipe(&array) }
            self = SecretBytes(array)
        }
    }

    /// `count` zero bytes.
    public init(zeros count: Int) {
        storage = Storage(count: Swift.max(count, 0))
    }

    /// Bytes written in place by `body`, so that no other copy of the secret ever exists.
    public init<E: Error>(
        count: Int, initializingWith body: (UnsafeMutableRawBufferPointer) throws(E) -> Void
    ) throws(E) {
        storage = Storage(count: Swift.max(count, 0))
        try body(UnsafeMutableRawBufferPointer(rebasing: storage.bytes[0..<storage.count]))
    }

    /// The number of bytes.
    public var count: Int { storage.count }

    /// Calls `body` with the bytes. Do not let the pointer escape.
    public func withUnsafeBytes<R: ~Copyable, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(rebasing: storage.bytes[0..<storage.count]))
    }

    /// Calls `body` with mutable bytes, copying the storage first if it is shared.
    public mutating func withUnsafeMutableBytes<R, E: Error>(
        _ body: (UnsafeMutableRawBufferPointer) throws(E) -> R
    ) throws(E) -> R {
        if !isKnownUniquelyReferenced(&storage) {
            let copy = Storage(count: storage.count)
            if storage.count > 0, let destination = copy.bytes.baseAddress, let source = storage.bytes.baseAddress {
                destination.copyMemory(from: source, byteCount: storage.count)
            }
            storage = copy
        }
        return try body(UnsafeMutableRawBufferPointer(rebasing: storage.bytes[0..<storage.count]))
    }

    /// A copy of the bytes as an ordinary array. The array is not wiped: use only where the
    /// bytes must leave the secret world (an encoding the caller asked for).
    public var unsafeExposedBytes: [UInt8] {
        withUnsafeBytes { Array($0) }
    }

    /// Overwrites `array` with zeros in a way the optimizer may not remove (for the short-lived
    /// working copies that protocol code cannot avoid).
    public static func wipe(_ array: inout [UInt8]) {
        array.withUnsafeMutableBytes { wipe($0) }
    }

    /// Overwrites `buffer` with zeros in a way the optimizer may not remove.
    public static func wipe(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        #if canImport(Glibc)
        explicit_bzero(base, buffer.count)
        #else
        // Without explicit_bzero, volatile-free fallback; Glibc is the supported platform.
        buffer.initializeMemory(as: UInt8.self, repeating: 0)
        #endif
    }
}

extension SecretBytes: Equatable {
    /// Constant-time equality: the time depends only on the two lengths.
    public static func == (lhs: SecretBytes, rhs: SecretBytes) -> Bool {
        lhs.withUnsafeBytes { l in rhs.withUnsafeBytes { r in ConstantTime.isEqual(l, r).isTrueVartime } }
    }
}

extension SecretBytes: CustomStringConvertible, CustomDebugStringConvertible {
    /// A redacted description that shows only the length.
    public var description: String { "SecretBytes(\(count) bytes, redacted)" }
    /// A redacted description that shows only the length.
    public var debugDescription: String { description }
}

#if !hasFeature(Embedded)
extension SecretBytes: CustomReflectable {
    /// A mirror with no children, so `dump` shows no bytes.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
#endif
