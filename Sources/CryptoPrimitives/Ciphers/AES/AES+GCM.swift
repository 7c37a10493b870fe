// AES-GCM (NIST SP 800-38D), shaped like CryptoKit's `AES.GCM`: nonces, sealed boxes, and
// one-shot seal and open. The work is done by AESGCMContext.

import CryptoCore

extension AES {
    /// AES in Galois/Counter Mode: authenticated encryption with associated data, 16-byte
    /// tags, constant time (bitsliced AES and a multiplication-based GHASH).
    public enum GCM {
        /// The length of the tag every box carries.
        public static let tagByteCount = 16

        /// A GCM nonce (IV). Twelve bytes is the usual length and the default; any non-empty
        /// length is accepted (SP 800-38D §5.2.1.1), longer ones are hashed into the counter.
        /// A nonce must never repeat under one key.
        public struct Nonce: Sendable, Equatable {
            /// The nonce bytes.
            public let bytes: [UInt8]

            /// A random 12-byte nonce from the system source.
            public init() throws(CryptoError) {
                var random = SystemRandomSource()
                bytes = try random.bytes(count: 12)
            }

            /// `nonce`, or a fresh random one when it is nil.
            static func given(_ nonce: Nonce?) throws(CryptoError) -> Nonce {
                if let nonce { return nonce }
                return try Nonce()
            }

            /// A nonce from `data`; an empty one throws `CryptoError.incorrectLength`.
            public init(data: some Sequence<UInt8>) throws(CryptoError) {
                bytes = Array(data)
                guard !bytes.isEmpty else { throw .incorrectLength }
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
                guard self.tag.count == GCM.tagByteCount else { throw .incorrectLength }
            }

            /// A box from nonce ‖ ciphertext ‖ tag with a 12-byte nonce (CryptoKit's
            /// `combined`); fewer than 28 bytes throw `CryptoError.incorrectLength`.
            public init(combined: some Sequence<UInt8>) throws(CryptoError) {
                let bytes = Array(combined)
                guard bytes.count >= 12 + GCM.tagByteCount else { throw .incorrectLength }
                try self.init(nonce: Nonce(data: bytes[0..<12]), ciphertext: bytes[12..<(bytes.count - GCM.tagByteCount)],
                              tag: bytes.suffix(GCM.tagByteCount))
            }

            /// nonce ‖ ciphertext ‖ tag, or nil when the nonce is not 12 bytes long.
            public var combined: [UInt8]? { nonce.bytes.count == 12 ? nonce.bytes + ciphertext + tag : nil }
        }

        /// Encrypts and authenticates `message`, and authenticates `authenticatedData`, under
        /// `key` (16, 24 or 32 bytes). A random 12-byte nonce is drawn when none is given.
        public static func seal(_ message: some Sequence<UInt8>, using key: SymmetricKey, nonce: Nonce? = nil,
                                authenticating authenticatedData: some Sequence<UInt8>) throws(CryptoError) -> SealedBox {
            let context = try AESGCMContext(key: key)
            let nonce = try Nonce.given(nonce)
            var text = Array(message)
            let aad = Array(authenticatedData)
            let tag = try context.seal(&text, nonce: nonce.bytes, authenticating: aad)
            return try SealedBox(nonce: nonce, ciphertext: text, tag: tag)
        }

        /// Encrypts and authenticates `message` with no associated data.
        public static func seal(_ message: some Sequence<UInt8>, using key: SymmetricKey, nonce: Nonce? = nil) throws(CryptoError) -> SealedBox {
            try seal(message, using: key, nonce: nonce, authenticating: [UInt8]())
        }

        /// The message of `sealedBox`, after its tag is checked against `key` and
        /// `authenticatedData`. Any mismatch throws `CryptoError.authenticationFailure` and
        /// returns nothing.
        public static func open(_ sealedBox: SealedBox, using key: SymmetricKey,
                                authenticating authenticatedData: some Sequence<UInt8>) throws(CryptoError) -> [UInt8] {
            let context = try AESGCMContext(key: key)
            var text = sealedBox.ciphertext
            let aad = Array(authenticatedData)
            try context.open(&text, nonce: sealedBox.nonce.bytes, authenticating: aad, tag: sealedBox.tag)
            return text
        }

        /// The message of `sealedBox` with no associated data.
        public static func open(_ sealedBox: SealedBox, using key: SymmetricKey) throws(CryptoError) -> [UInt8] {
            try open(sealedBox, using: key, authenticating: [UInt8]())
        }
    }
}
