// HMAC (RFC 2104, FIPS 198-1) over any of our hash functions.

import CryptoCore

/// A keyed-hash message authentication code, shaped like CryptoKit's `HMAC`.
///
/// `init(key:)` absorbs the padded key into the inner and outer states once, so a long-lived
/// `HMAC` value (or a copy of it) authenticates many messages without re-hashing the key.
///
/// The keying and per-message methods are inlinable, so callers in other modules specialise
/// them for their hash: an unspecialised call looked up `HMAC<SHA256>`'s metadata in the
/// runtime's shared cache on every call, and threads signing at once met there.
public struct HMAC<H: HashFunction>: Sendable {
    @usableFromInline var inner: H
    @usableFromInline var outer: H

    /// A MAC state keyed with `key` (RFC 2104 §2: keys longer than a block are hashed first).
    @inlinable
    public init(key: SymmetricKey) {
        self = key.withUnsafeBytes { HMAC(keyBytes: $0) }
    }

    /// A MAC state keyed with raw key bytes (for protocol code that chains MACs without
    /// wrapping every intermediate key in a `SymmetricKey`).
    @inlinable
    package init(keyBytes key: UnsafeRawBufferPointer) {
        let blockSize = H.blockByteCount
        var innerPad = InlineArray<128, UInt8>(repeating: 0x36)
        var outerPad = InlineArray<128, UInt8>(repeating: 0x5C)
        if key.count > blockSize {
            var hasher = H()
            hasher.update(bufferPointer: key)
            hasher.finalize().withUnsafeBytes { digest in
                for i in 0..<digest.count { innerPad[i] ^= digest[i]; outerPad[i] ^= digest[i] }
            }
        } else {
            for i in 0..<key.count { innerPad[i] ^= key[i]; outerPad[i] ^= key[i] }
        }
        inner = H()
        outer = H()
        withUnsafeMutableBytes(of: &innerPad) { pad in
            inner.update(bufferPointer: UnsafeRawBufferPointer(rebasing: pad[0..<blockSize]))
            SecretBytes.wipe(pad)
        }
        withUnsafeMutableBytes(of: &outerPad) { pad in
            outer.update(bufferPointer: UnsafeRawBufferPointer(rebasing: pad[0..<blockSize]))
            SecretBytes.wipe(pad)
        }
    }

    /// Absorbs message bytes.
    @inlinable
    public mutating func update(data: some Sequence<UInt8>) {
        inner.update(data: data)
    }

    /// Absorbs message bytes from a buffer.
    @inlinable
    public mutating func update(bufferPointer: UnsafeRawBufferPointer) {
        inner.update(bufferPointer: bufferPointer)
    }

    /// The authentication code of everything absorbed so far; the state is unchanged.
    @inlinable
    public func finalize() -> HashDigest<H> {
        var outer = outer
        inner.finalize().withUnsafeBytes { outer.update(bufferPointer: $0) }
        return outer.finalize()
    }

    /// The authentication code of `data` under `key`.
    public static func authenticationCode(for data: some Sequence<UInt8>, using key: SymmetricKey) -> HashDigest<H> {
        var mac = HMAC(key: key)
        mac.update(data: data)
        return mac.finalize()
    }

    /// Whether `code` is the full authentication code of `data` under `key` (all
    /// `H.byteCount` bytes), compared in constant time. Any other length is invalid, as
    /// RFC 7518 §3.2 requires for JWT `HS256` and as every protocol here uses HMAC.
    public static func isValidAuthenticationCode(
        _ code: some Sequence<UInt8>, authenticating data: some Sequence<UInt8>, using key: SymmetricKey
    ) -> Bool {
        let code = Array(code)
        guard code.count == H.byteCount else { return false }
        let full = authenticationCode(for: data, using: key).bytes
        return ConstantTime.isEqual(full, code).isTrueVartime
    }

    /// Whether `code` is a truncation of the authentication code of `data` under `key`,
    /// compared in constant time: a prefix of the full code at least half the digest and at
    /// least 10 bytes long (RFC 2104 §5); any other length is invalid. Only for protocols
    /// that define a truncated tag; a shorter tag is easier to forge.
    public static func isValidTruncatedAuthenticationCode(
        _ code: some Sequence<UInt8>, authenticating data: some Sequence<UInt8>, using key: SymmetricKey
    ) -> Bool {
        let code = Array(code)
        guard code.count <= H.byteCount, code.count >= max(10, H.byteCount / 2) else { return false }
        let full = authenticationCode(for: data, using: key).bytes
        return ConstantTime.isEqual(full.prefix(code.count), code).isTrueVartime
    }
}
