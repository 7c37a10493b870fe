// OBJECT IDENTIFIER values (X.690 §8.19) and the ones our key formats use.

import CryptoCore

extension DER {
    /// An object identifier as its arcs.
    package struct ObjectIdentifier: Equatable, Sendable, CustomStringConvertible {
        /// The arcs, e.g. `[1, 2, 840, 10045, 2, 1]`.
        package let arcs: [UInt64]

        /// An identifier from its arcs (at least two; the first 0, 1 or 2).
        package init(_ arcs: [UInt64]) {
            self.arcs = arcs
        }

        /// Parses DER content octets strictly: minimal base-128 arcs, nothing truncated.
        package init(derContent content: some Collection<UInt8>) throws(CryptoError) {
            var values: [UInt64] = []
            var current: UInt64 = 0
            var started = false
            for byte in content {
                if !started && byte == 0x80 { throw .invalidEncoding }  // non-minimal arc
                started = true
                guard current >> 57 == 0 else { throw .invalidEncoding }  // overflow
                current = (current << 7) | UInt64(byte & 0x7F)
                if byte & 0x80 == 0 {
                    values.append(current)
                    current = 0
                    started = false
                }
            }
            guard !values.isEmpty, !started else { throw .invalidEncoding }
            let first = values[0]
            let head: [UInt64] = first < 40 ? [0, first] : first < 80 ? [1, first - 40] : [2, first - 80]
            arcs = head + values.dropFirst()
        }

        /// The DER content octets.
        package var derContent: [UInt8] {
            var out: [UInt8] = []
            let values = [arcs[0] * 40 + (arcs.count > 1 ? arcs[1] : 0)] + arcs.dropFirst(2)
            for value in values {
                var chunk: [UInt8] = [UInt8(value & 0x7F)]
                var rest = value >> 7
                while rest > 0 {
                    chunk.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
                    rest >>= 7
                }
                out.append(contentsOf: chunk)
            }
            return out
        }

        /// Dotted notation.
        package var description: String { arcs.map(String.init).joined(separator: ".") }

        /// id-ecPublicKey (RFC 5480 §2.1.1).
        package static let ecPublicKey = ObjectIdentifier([1, 2, 840, 10045, 2, 1])
        /// secp256r1 / prime256v1 (RFC 5480 §2.1.1.1).
        package static let secp256r1 = ObjectIdentifier([1, 2, 840, 10045, 3, 1, 7])
        /// secp384r1 (RFC 5480 §2.1.1.1).
        package static let secp384r1 = ObjectIdentifier([1, 3, 132, 0, 34])
        /// rsaEncryption (RFC 8017 Appendix A.1).
        package static let rsaEncryption = ObjectIdentifier([1, 2, 840, 113549, 1, 1, 1])
        /// id-sha1 (RFC 8017 Appendix B.1).
        package static let sha1 = ObjectIdentifier([1, 3, 14, 3, 2, 26])
        /// id-sha256 (RFC 8017 Appendix B.1).
        package static let sha256 = ObjectIdentifier([2, 16, 840, 1, 101, 3, 4, 2, 1])
        /// id-sha384.
        package static let sha384 = ObjectIdentifier([2, 16, 840, 1, 101, 3, 4, 2, 2])
        /// id-sha512.
        package static let sha512 = ObjectIdentifier([2, 16, 840, 1, 101, 3, 4, 2, 3])
    }
}
