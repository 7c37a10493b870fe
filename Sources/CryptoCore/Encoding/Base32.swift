// Base32 (RFC 4648 §6) without padding, as PowerAuth activation codes use it.

/// Base32 in the RFC 4648 alphabet (`A–Z`, `2–7`), unpadded.
public enum Base32 {
    /// Encodes `bytes` without padding.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var out = [UInt8]()
        var accumulator: UInt32 = 0
        var bits: UInt32 = 0
        for byte in bytes {
            accumulator = (accumulator << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                out.append(character(UInt8((accumulator >> bits) & 31)))
            }
        }
        if bits > 0 {
            out.append(character(UInt8((accumulator << (5 - bits)) & 31)))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes unpadded upper-case Base32. Lengths that cannot come from whole bytes, characters
    /// outside the alphabet, `=` and non-zero unused trailing bits throw
    /// ``CryptoError/invalidEncoding``.
    public static func decode(_ text: some StringProtocol) throws(CryptoError) -> [UInt8] {
        let utf8 = Array(text.utf8)
        // 8 characters carry 5 bytes; a final group of 1, 3 or 6 characters is impossible.
        guard ![1, 3, 6].contains(utf8.count % 8) else { throw .invalidEncoding }
        var out = [UInt8]()
        out.reserveCapacity(utf8.count * 5 / 8)
        var invalid: Int32 = 0
        var accumulator: UInt32 = 0
        var bits: UInt32 = 0
        for c in utf8 {
            let v = value(c)
            invalid |= v
            accumulator = (accumulator << 5) | UInt32(truncatingIfNeeded: v & 31)
            bits += 5
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> bits))
            }
        }
        guard invalid >= 0, accumulator & ((1 << bits) - 1) == 0 else { throw .invalidEncoding }
        return out
    }

    private static func character(_ value: UInt8) -> UInt8 {
        let v = Int32(value)
        let letter = ConstantTimeCharacter.inRange(v, 0, 25)
        // 0–25 → 'A'+v, 26–31 → '2'+(v−26) = v+24.
        return UInt8(truncatingIfNeeded: (letter & (v &+ 0x41)) | (~letter & (v &+ 24)))
    }

    /// The 5-bit value of `c`, or −1.
    private static func value(_ c: UInt8) -> Int32 {
        let c = Int32(c)
        let letter = ConstantTimeCharacter.inRange(c, 0x41, 0x5A)
        let digit = ConstantTimeCharacter.inRange(c, 0x32, 0x37)
        let valid = letter | digit
        return ((letter & (c &- 0x41)) | (digit & (c &- 24))) | ~valid
    }
}
