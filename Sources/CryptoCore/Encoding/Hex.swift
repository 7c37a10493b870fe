// Hexadecimal text without Foundation, branch-free over the data.

/// Base 16 (RFC 4648 §8) encoding and decoding.
public enum Hex {
    /// Lower-case hex of `bytes`.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var out = [UInt8]()
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(ConstantTimeCharacter.hexDigit(byte >> 4))
            out.append(ConstantTimeCharacter.hexDigit(byte & 0x0F))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes hex of either case. The length must be even and every character a hex digit;
    /// anything else throws ``CryptoError/invalidEncoding``. Runs without branching on the digits.
    public static func decode(_ text: some StringProtocol) throws(CryptoError) -> [UInt8] {
        try decodeDigits(Array(text.utf8))
    }

    /// Decodes hex held as secret bytes (read from a body with no `String` between) into secret
    /// bytes, by the rules of ``decode(_:)``, read in place. The working output is wiped, a
    /// refused input's partial output included; a refusal reveals only that some character or
    /// the length was wrong, not which.
    public static func decode(secret text: SecretBytes) throws(CryptoError) -> SecretBytes {
        var out = try text.withUnsafeBytes { (utf8) throws(CryptoError) in try decodeDigits(utf8) }
        defer { SecretBytes.wipe(&out) }
        return SecretBytes(out)
    }

    private static func decodeDigits<Digits: RandomAccessCollection<UInt8>>(_ utf8: Digits) throws(CryptoError) -> [UInt8] where Digits.Index == Int {
        guard utf8.count % 2 == 0 else { throw .invalidEncoding }
        var out = [UInt8](repeating: 0, count: utf8.count / 2)
        var invalid: Int32 = 0
        for i in 0..<out.count {
            let high = ConstantTimeCharacter.hexValue(utf8[2 * i])
            let low = ConstantTimeCharacter.hexValue(utf8[2 * i + 1])
            invalid |= high | low
            out[i] = UInt8(truncatingIfNeeded: (high << 4) | low)
        }
        guard invalid >= 0 else {
            SecretBytes.wipe(&out)
            throw .invalidEncoding
        }
        return out
    }
}
