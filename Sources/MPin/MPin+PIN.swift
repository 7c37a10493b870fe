// The PIN as the integer the protocol multiplies in, and the two ways MIRACL clients have turned
// PIN text into it (docs/protocols/mpin.md §3).

public import CryptoPrimitives

extension MPin {
    /// A PIN as the integer the protocol uses, below 2²⁰ (``MPin/pinBitCount``). Redacted in
    /// `description` and `dump`; compared in constant time.
    public struct PIN: Sendable, Equatable, CustomStringConvertible {
        package let value: UInt32
        /// How many digits the text it was read from had (`"0123"`: 4), so a client can hold a
        /// PIN to the user's PIN length (docs/protocols/mpin.md §6 `pinLength`); 0 when made from an integer or
        /// a hash. Public like the length of any typed secret; not part of equality.
        package let digitCount: Int

        /// A PIN from its integer value, reduced mod ``MPin/maximumPIN`` (Milagro's
        /// `pin % MAXPIN`).
        public init(_ value: UInt32) {
            self.value = value % MPin.maximumPIN
            digitCount = 0
        }

        private init(_ value: UInt32, digitCount: Int) {
            self.value = value % MPin.maximumPIN
            self.digitCount = digitCount
        }

        /// The PIN text read as a decimal number, as the MIRACL Trust SDKs and client-js do
        /// (`Int32("0123")` = 123; docs/protocols/mpin.md §3). nil unless the text is 1–9 ASCII digits.
        /// The digits are read without branching on them; only the length and the final
        /// validity show.
        public init?(decimal text: String) {
            let digits = Array(text.utf8)
            guard (1...9).contains(digits.count) else { return nil }
            var value: UInt32 = 0, invalid: UInt32 = 0
            for byte in digits {
                let digit = Int32(byte) - 0x30
                invalid |= UInt32(bitPattern: digit | (9 - digit)) >> 31   // sign bit set iff digit ∉ 0…9
                value = value &* 10 &+ UInt32(bitPattern: digit & 0xF)
            }
            guard invalid == 0 else { return nil }
            self.init(value, digitCount: digits.count)
        }

        /// The same from PIN text held as secret bytes (as read from a terminal or a file), so the
        /// digits never pass through a `String`.
        public init?(decimal secret: SecretBytes) {
            guard (1...9).contains(secret.count) else { return nil }
            let (value, invalid) = secret.withUnsafeBytes { digits in
                var value: UInt32 = 0, invalid: UInt32 = 0
                for byte in digits {
                    let digit = Int32(byte) - 0x30
                    invalid |= UInt32(bitPattern: digit | (9 - digit)) >> 31   // sign bit set iff digit ∉ 0…9
                    value = value &* 10 &+ UInt32(bitPattern: digit & 0xF)
                }
                return (value, invalid)
            }
            guard invalid == 0 else { return nil }
            self.init(value, digitCount: secret.count)
        }

        /// The PIN text as the 2017 SDK core converted it: Java's `String.hashCode` over the
        /// bytes (h = 31·h + byte, signed 32-bit), then C's `% MAXPIN`, which keeps the sign
        /// (docs/protocols/mpin.md §3). A negative remainder is taken as Milagro's 20-bit PIN ladder reads it:
        /// its two's-complement low 20 bits (assumed from `ECP_pinmul`, which walks the bits of
        /// a signed int; the SDK never shipped vectors for such PINs).
        public init(legacyHashOf text: String) {
            var hash: Int32 = 0
            for byte in text.utf8 { hash = hash &* 31 &+ Int32(Int8(bitPattern: byte)) }
            let remainder = hash % Int32(MPin.maximumPIN)
            value = UInt32(bitPattern: remainder) & ((1 << UInt32(MPin.pinBitCount)) - 1)
            digitCount = 0
        }

        /// Constant-time equality.
        public static func == (a: PIN, b: PIN) -> Bool { (a.value ^ b.value) == 0 }

        /// A redacted description.
        public var description: String { "MPin.PIN(redacted)" }
    }
}
