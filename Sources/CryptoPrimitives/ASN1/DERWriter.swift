// The DER writer: definite minimal lengths and minimal INTEGERs by construction.

import CryptoCore

extension DER {
    /// Builds DER bytes. Nested structures are written with closures:
    /// `writer.sequence { $0.integer(...); $0.octetString(...) }`.
    package struct Writer {
        /// The bytes written so far.
        package private(set) var bytes: [UInt8] = []

        /// An empty writer.
        package init() {}

        /// Appends an element with `tag` and `content`.
        package mutating func element(tag: UInt8, content: some Collection<UInt8>) {
            bytes.append(tag)
            let length = content.count
            if length < 0x80 {
                bytes.append(UInt8(length))
            } else {
                var lengthBytes: [UInt8] = []
                var remaining = length
                while remaining > 0 {
                    lengthBytes.insert(UInt8(remaining & 0xFF), at: 0)
                    remaining >>= 8
                }
                bytes.append(0x80 | UInt8(lengthBytes.count))
                bytes.append(contentsOf: lengthBytes)
            }
            bytes.append(contentsOf: content)
        }

        /// Appends a constructed element whose contents `body` writes.
        package mutating func constructed(tag: UInt8, _ body: (inout Writer) -> Void) {
            var inner = Writer()
            body(&inner)
            element(tag: tag, content: inner.bytes)
        }

        /// Appends a SEQUENCE.
        package mutating func sequence(_ body: (inout Writer) -> Void) {
            constructed(tag: Tag.sequence, body)
        }

        /// Appends a non-negative INTEGER from big-endian magnitude bytes (leading zeros are
        /// removed and a zero byte is added when the top bit is set).
        package mutating func unsignedInteger(_ magnitude: some Sequence<UInt8>) {
            var content = Array(magnitude.drop { $0 == 0 })
            if content.isEmpty || content[0] & 0x80 != 0 {
                content.insert(0, at: 0)
            }
            element(tag: Tag.integer, content: content)
        }

        /// Appends a small non-negative INTEGER.
        package mutating func integer(_ value: Int) {
            precondition(value >= 0, "internal error: negative DER integer")
            unsignedInteger((0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) })
        }

        /// Appends an OCTET STRING.
        package mutating func octetString(_ content: some Collection<UInt8>) {
            element(tag: Tag.octetString, content: content)
        }

        /// Appends a BIT STRING of whole bytes.
        package mutating func bitString(_ content: some Collection<UInt8>) {
            element(tag: Tag.bitString, content: [0] + Array(content))
        }

        /// Appends a NULL.
        package mutating func null() {
            element(tag: Tag.null, content: [])
        }

        /// Appends an OBJECT IDENTIFIER.
        package mutating func objectIdentifier(_ oid: ObjectIdentifier) {
            element(tag: Tag.objectIdentifier, content: oid.derContent)
        }
    }
}
