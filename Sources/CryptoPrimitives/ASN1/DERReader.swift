// A strict DER reader (ITU-T X.690 §8 and §10): definite minimal lengths, low tag numbers,
// minimal INTEGERs, no trailing bytes. Anything BER-only is an error.

import CryptoCore

/// The DER toolkit: a strict reader, a writer and object identifiers.
package enum DER {
    /// Universal tags used by key and signature encodings.
    package enum Tag {
        package static let integer: UInt8 = 0x02
        package static let bitString: UInt8 = 0x03
        package static let octetString: UInt8 = 0x04
        package static let null: UInt8 = 0x05
        package static let objectIdentifier: UInt8 = 0x06
        package static let sequence: UInt8 = 0x30

        /// A context-specific tag `[number]`, constructed or primitive (number < 31).
        package static func context(_ number: UInt8, constructed: Bool) -> UInt8 {
            0x80 | (constructed ? 0x20 : 0) | number
        }
    }

    /// Reads DER elements from a byte buffer, front to back.
    ///
    /// Every method throws `CryptoError.invalidEncoding` on malformed input, so a caller never
    /// traps on data from outside.
    package struct Reader {
        private let bytes: [UInt8]
        private var position: Int
        private let end: Int

        /// A reader over all of `bytes`.
        package init(_ bytes: some Sequence<UInt8>) {
            self.bytes = Array(bytes)
            position = 0
            end = self.bytes.count
        }

        private init(bytes: [UInt8], range: Range<Int>) {
            self.bytes = bytes
            position = range.lowerBound
            end = range.upperBound
        }

        /// Whether every byte has been read.
        package var isAtEnd: Bool { position == end }

        /// The tag of the next element, without consuming it (nil at the end).
        package var nextTag: UInt8? { position < end ? bytes[position] : nil }

        /// Throws unless every byte has been read (no trailing data).
        package func finish() throws(CryptoError) {
            guard isAtEnd else { throw .invalidEncoding }
        }

        /// Reads one element with `tag` and returns its content bytes.
        package mutating func read(tag: UInt8) throws(CryptoError) -> ArraySlice<UInt8> {
            let range = try readElement(tag: tag)
            return bytes[range]
        }

        /// Reads the next element, whatever its tag, and returns its whole encoding (header
        /// included) — for skipping fields and for signed structures such as a TBSCertificate.
        package mutating func readElement() throws(CryptoError) -> [UInt8] {
            guard let tag = nextTag else { throw .invalidEncoding }
            let start = position
            _ = try readElement(tag: tag)
            return Array(bytes[start..<position])
        }

        /// Reads a constructed element with `tag` and returns a reader over its contents.
        package mutating func readConstructed(tag: UInt8) throws(CryptoError) -> Reader {
            Reader(bytes: bytes, range: try readElement(tag: tag))
        }

        /// Reads a SEQUENCE and returns a reader over its contents.
        package mutating func readSequence() throws(CryptoError) -> Reader {
            try readConstructed(tag: Tag.sequence)
        }

        /// Reads a non-negative INTEGER and returns its magnitude without leading zeros
        /// (zero is an empty array). Negative and non-minimal encodings throw.
        package mutating func readUnsignedInteger() throws(CryptoError) -> [UInt8] {
            let content = try read(tag: Tag.integer)
            guard let first = content.first else { throw .invalidEncoding }
            guard first & 0x80 == 0 else { throw .invalidEncoding }  // negative
            if content.count > 1 && first == 0 && content[content.startIndex + 1] & 0x80 == 0 {
                throw .invalidEncoding  // a leading zero that is not needed
            }
            return Array(content.drop { $0 == 0 })
        }

        /// Reads a small non-negative INTEGER (up to 63 bits).
        package mutating func readSmallInteger() throws(CryptoError) -> Int {
            let magnitude = try readUnsignedInteger()
            guard magnitude.count <= 8 else { throw .invalidEncoding }
            let value = magnitude.reduce(UInt64(0)) { ($0 << 8) | UInt64($1) }
            guard value <= UInt64(Int.max) else { throw .invalidEncoding }
            return Int(value)
        }

        /// Reads an OCTET STRING.
        package mutating func readOctetString() throws(CryptoError) -> [UInt8] {
            Array(try read(tag: Tag.octetString))
        }

        /// Reads a BIT STRING whose bit count is a multiple of eight (as keys are) and returns
        /// its bytes; a non-zero unused-bits count throws.
        package mutating func readBitString() throws(CryptoError) -> [UInt8] {
            let content = try read(tag: Tag.bitString)
            guard let unused = content.first, unused == 0 else { throw .invalidEncoding }
            return Array(content.dropFirst())
        }

        /// Reads a NULL.
        package mutating func readNull() throws(CryptoError) {
            guard try read(tag: Tag.null).isEmpty else { throw .invalidEncoding }
        }

        /// Reads an OBJECT IDENTIFIER.
        package mutating func readObjectIdentifier() throws(CryptoError) -> ObjectIdentifier {
            try ObjectIdentifier(derContent: read(tag: Tag.objectIdentifier))
        }

        /// The content range of the next element, which must carry `tag`.
        private mutating func readElement(tag: UInt8) throws(CryptoError) -> Range<Int> {
            guard position < end, bytes[position] == tag else { throw .invalidEncoding }
            guard tag & 0x1F != 0x1F else { throw .invalidEncoding }  // high tag numbers: not used
            position += 1
            guard position < end else { throw .invalidEncoding }
            let first = bytes[position]
            position += 1
            var length = 0
            if first < 0x80 {
                length = Int(first)
            } else {
                let count = Int(first & 0x7F)
                // 0x80 is BER's indefinite length; more than 4 length bytes is never needed here.
                guard count >= 1, count <= 4, end - position >= count else { throw .invalidEncoding }
                guard bytes[position] != 0 else { throw .invalidEncoding }  // non-minimal
                for _ in 0..<count {
                    length = (length << 8) | Int(bytes[position])
                    position += 1
                }
                guard length >= 0x80 else { throw .invalidEncoding }  // short form was required
            }
            guard length <= end - position else { throw .invalidEncoding }
            let range = position..<(position + length)
            position += length
            return range
        }
    }
}

extension DER {
    /// The magnitudes of r and s of an ECDSA signature in strict DER (RFC 3279 §2.2.3:
    /// SEQUENCE { INTEGER r, INTEGER s }), minimal, positive, nothing trailing; BER variants
    /// throw ``CryptoError/invalidEncoding``.
    package static func ecdsaSignature(_ der: some Sequence<UInt8>) throws(CryptoError) -> (r: [UInt8], s: [UInt8]) {
        var reader = Reader(der)
        var sequence = try reader.readSequence()
        try reader.finish()
        let r = try sequence.readUnsignedInteger(), s = try sequence.readUnsignedInteger()
        try sequence.finish()
        return (r, s)
    }
}
