// ChaCha20-Poly1305 (RFC 8439 §2.8), shaped like CryptoKit's `ChaChaPoly`, and the in-place
// context TLS seals and opens records with.

import CryptoCore

/// The ChaCha20-Poly1305 AEAD: 32-byte keys, 12-byte nonces, 16-byte tags, constant time.
public enum ChaChaPoly {
    /// The tag length.
    public static let tagByteCount = 16

    /// A 12-byte nonce; it must never repeat under one key.
    public struct Nonce: Sendable, Equatable {
        /// The nonce bytes.
        public let bytes: [UInt8]

        /// A random nonce from the system source.
        public init() throws(CryptoError) {
            var random = SystemRandomSource()
            bytes = try random.bytes(count: 12)
        }

        /// `nonce`, or a fresh random one when it is nil.
        static func given(_ nonce: Nonce?) throws(CryptoError) -> Nonce {
            if let nonce { return nonce }
            return try Nonce()
        }

        /// A nonce from `data`; any length but 12 throws `CryptoError.incorrectLength`.
        public init(data: some Sequence<UInt8>) throws(CryptoError) {
            bytes = Array(data)
            guard bytes.count == 12 else { throw .incorrectLength }
        }
    }

    /// A sealed message: nonce, ciphertext and tag.
    public struct SealedBox: Sendable, Equatable {
        /// The nonce it was sealed with.
        public let nonce: Nonce
        /// The ciphertext, as long as the message.
        public let ciphertext: [UInt8]
        /// The 16-byte tag.
        public let tag: [UInt8]

        /// A box from its parts; a tag that is not 16 bytes throws `CryptoError.incorrectLength`.
        public init(nonce: Nonce, ciphertext: some Sequence<UInt8>, tag: some Sequence<UInt8>) throws(CryptoError) {
            self.nonce = nonce
            self.ciphertext = Array(ciphertext)
            self.tag = Array(tag)
            guard self.tag.count == ChaChaPoly.tagByteCount else { throw .incorrectLength }
        }

        /// nonce ‖ ciphertext ‖ tag.
        public var combined: [UInt8] { nonce.bytes + ciphertext + tag }
    }

    /// Encrypts and authenticates `message`, and authenticates `authenticatedData`, under a
    /// 32-byte `key`. A random nonce is drawn when none is given.
    public static func seal(_ message: some Sequence<UInt8>, using key: SymmetricKey, nonce: Nonce? = nil,
                            authenticating authenticatedData: some Sequence<UInt8>) throws(CryptoError) -> SealedBox {
        let context = try ChaChaPolyContext(key: key)
        let nonce = try Nonce.given(nonce)
        var text = Array(message)
        let aad = Array(authenticatedData)
        let tag = try context.seal(&text, nonce: nonce.bytes, authenticating: aad)
        return try SealedBox(nonce: nonce, ciphertext: text, tag: tag)
    }

    /// The message of `sealedBox` after its tag is checked; any mismatch throws
    /// `CryptoError.authenticationFailure`.
    public static func open(_ sealedBox: SealedBox, using key: SymmetricKey,
                            authenticating authenticatedData: some Sequence<UInt8>) throws(CryptoError) -> [UInt8] {
        let context = try ChaChaPolyContext(key: key)
        var text = sealedBox.ciphertext
        let aad = Array(authenticatedData)
        try context.open(&text, nonce: sealedBox.nonce.bytes, authenticating: aad, tag: sealedBox.tag)
        return text
    }
}

/// A ChaCha20-Poly1305 key held for many messages (a TLS connection direction), in memory
/// that is wiped when the context is released.
package final class ChaChaPolyContext {
    /// The longest message RFC 8439 §2.8 allows: 2³² − 1 blocks of 64 bytes after the one
    /// that makes the Poly1305 key.
    static let maximumTextByteCount = 64 * (Int(UInt32.max) - 1)

    private let key: SecretBytes

    /// A context for a 32-byte key; other lengths throw `CryptoError.incorrectLength`.
    package init(key: SymmetricKey) throws(CryptoError) {
        guard key.byteCount == 32 else { throw .incorrectLength }
        self.key = key.secret
    }

    /// Encrypts `text` in place and writes the 16-byte tag (§2.8).
    package func seal(_ text: UnsafeMutableRawBufferPointer, nonce: UnsafeRawBufferPointer,
                      authenticating aad: UnsafeRawBufferPointer, tag: UnsafeMutableRawBufferPointer) throws(CryptoError) {
        guard nonce.count == 12, tag.count == ChaChaPoly.tagByteCount else { throw .incorrectLength }
        guard text.count <= Self.maximumTextByteCount else { throw .invalidParameter }
        var cipher = key.withUnsafeBytes { ChaCha20(key: $0, nonce: nonce) }
        var mac = Self.oneTimeAuthenticator(cipher)
        cipher.apply(to: text, counter: 1)
        cipher.wipe()
        Self.authenticate(&mac, aad: aad, ciphertext: UnsafeRawBufferPointer(text), into: tag)
    }

    /// Checks the tag and only then decrypts `text` in place; a mismatch throws
    /// `CryptoError.authenticationFailure` and leaves `text` as it was.
    package func open(_ text: UnsafeMutableRawBufferPointer, nonce: UnsafeRawBufferPointer,
                      authenticating aad: UnsafeRawBufferPointer, tag: UnsafeRawBufferPointer) throws(CryptoError) {
        guard nonce.count == 12, tag.count == ChaChaPoly.tagByteCount, text.count <= Self.maximumTextByteCount else {
            throw .authenticationFailure
        }
        var cipher = key.withUnsafeBytes { ChaCha20(key: $0, nonce: nonce) }
        defer { cipher.wipe() }
        var mac = Self.oneTimeAuthenticator(cipher)
        var expected = InlineArray<16, UInt8>(repeating: 0)
        let matches = withUnsafeMutableBytes(of: &expected) { raw in
            Self.authenticate(&mac, aad: aad, ciphertext: UnsafeRawBufferPointer(text), into: raw)
            let equal = ConstantTime.isEqual(UnsafeRawBufferPointer(raw), tag)
            SecretBytes.wipe(raw)
            return equal
        }
        guard matches.isTrueVartime else { throw .authenticationFailure }  // public: the verdict
        cipher.apply(to: text, counter: 1)
    }

    /// The Poly1305 key: the first 32 bytes of block 0 (§2.6).
    private static func oneTimeAuthenticator(_ cipher: ChaCha20) -> Poly1305 {
        var block = InlineArray<8, UInt64>(repeating: 0)
        return withUnsafeMutableBytes(of: &block) { raw in
            cipher.block(counter: 0, into: raw)
            let mac = Poly1305(key: UnsafeRawBufferPointer(raw))
            SecretBytes.wipe(raw)
            return mac
        }
    }

    /// Poly1305 over aad ‖ pad16 ‖ ciphertext ‖ pad16 ‖ le64(len aad) ‖ le64(len ct) (§2.8).
    private static func authenticate(_ mac: inout Poly1305, aad: UnsafeRawBufferPointer, ciphertext: UnsafeRawBufferPointer,
                                     into tag: UnsafeMutableRawBufferPointer) {
        mac.update(aad)
        mac.updateWithZeros(count: (16 - aad.count % 16) % 16)
        mac.update(ciphertext)
        mac.updateWithZeros(count: (16 - ciphertext.count % 16) % 16)
        let lengths = (UInt64(aad.count).littleEndian, UInt64(ciphertext.count).littleEndian)
        withUnsafeBytes(of: lengths) { mac.update($0) }
        if let base = tag.baseAddress { mac.finalize(into: base) }
    }
}
