// The PowerAuth 3.x client core (docs/protocols/powerauth.md), sans-I/O: its cryptography (key derivation §1,
// §4; signatures §7; the status blob §6; the fingerprint §5.3; the codes §3; ECIES §9; tokens
// §11; the vault §12) and its flows (activation §5, status §6, signing §7, the encrypted
// endpoints §8–§13, errors §14.2). This file holds the namespace and the shared helpers.

/// The PowerAuth 3.x client core (Wultra).
public enum PowerAuth {
    /// The protocol version spoken on the wire (docs/protocols/powerauth.md §0).
    public struct ProtocolVersion: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible {
        /// `"3.0"` … `"3.3"`.
        public let rawValue: String
        /// Accepts the four 3.x versions only.
        public init?(rawValue: String) {
            guard ["3.0", "3.1", "3.2", "3.3"].contains(rawValue) else { return nil }
            self.rawValue = rawValue
        }
        private init(_ value: String) { rawValue = value }
        /// Protocol 3.0.
        public static let v3_0 = ProtocolVersion("3.0")
        /// Protocol 3.1.
        public static let v3_1 = ProtocolVersion("3.1")
        /// Protocol 3.2.
        public static let v3_2 = ProtocolVersion("3.2")
        /// Protocol 3.3.
        public static let v3_3 = ProtocolVersion("3.3")
        /// Versions order by their text, which is a single digit after `3.`.
        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
        /// The text.
        public var description: String { rawValue }
    }

    /// fold16 (docs/protocols/powerauth.md §1): `r[i] = b[i] XOR b[i+16]` of a 32-byte value.
    static func fold16(_ bytes: [UInt8]) -> [UInt8] {
        (0..<16).map { bytes[$0] ^ bytes[$0 + 16] }
    }
}
