// Base64 (RFC 4648 §4 and §5) without Foundation, branch-free over the data.

/// Base64 in the standard and URL-safe alphabets, padded or not, with a strict decoder and the
/// lenient one Salt Edge needs (its servers wrap lines every 60 characters).
public enum Base64 {
    /// The 62nd and 63rd characters.
    public enum Alphabet: Sendable {
        /// `+` and `/` (RFC 4648 §4).
        case standard
        /// `-` and `_` (RFC 4648 §5).
        case urlSafe
    }

    /// Encodes `bytes`; `padded` appends `=` to a multiple of four characters.
    public static func encode(_ bytes: some Sequence<UInt8>, alphabet: Alphabet = .standard, padded: Bool = true) -> String {
        let out = encodedBytes(Array(bytes), alphabet: alphabet, padded: padded)
        return String(decoding: out, as: UTF8.self)
    }

    /// Encodes the secret `bytes` (as ``encode(_:alphabet:padded:)``) into secret text: neither
    /// is ever a `String`, and the working copy is wiped. For a credential built for the wire.
    public static func encode(secret bytes: SecretBytes, alphabet: Alphabet = .standard, padded: Bool = true) -> SecretBytes {
        var input = bytes.unsafeExposedBytes
        defer { SecretBytes.wipe(&input) }
        var out = encodedBytes(input, alphabet: alphabet, padded: padded)
        defer { SecretBytes.wipe(&out) }
        return SecretBytes(out)
    }

    /// The encoding's ASCII bytes, in an array sized once (so no partial copy is left behind).
    private static func encodedBytes(_ input: [UInt8], alphabet: Alphabet, padded: Bool) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity((input.count + 2) / 3 * 4)
        var i = 0
        while i + 3 <= input.count {
            let n = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8 | UInt32(input[i + 2])
            for shift in [18, 12, 6, 0] as [UInt32] { out.append(character(UInt8((n >> shift) & 63), alphabet)) }
            i += 3
        }
        let rest = input.count - i
        if rest > 0 {
            let n = UInt32(input[i]) << 16 | (rest == 2 ? UInt32(input[i + 1]) << 8 : 0)
            out.append(character(UInt8((n >> 18) & 63), alphabet))
            out.append(character(UInt8((n >> 12) & 63), alphabet))
            if rest == 2 { out.append(character(UInt8((n >> 6) & 63), alphabet)) }
            if padded { out.append(contentsOf: repeatElement(UInt8(ascii: "="), count: 3 - rest)) }
        }
        return out
    }

    /// Strictly decodes `text`: only the given alphabet, no whitespace, padding exactly as
    /// `padded` says, and — unless `canonical` is false — unused trailing bits zero. Throws
    /// ``CryptoError/invalidEncoding`` otherwise. (`canonical: false` is for parsers that must
    /// accept what Java's decoder accepts, such as PowerAuth's `#signature` suffix: `ABC=`.)
    public static func decode(_ text: some StringProtocol, alphabet: Alphabet = .standard, padded: Bool = true,
                              canonical: Bool = true) throws(CryptoError) -> [UInt8] {
        let utf8 = Array(text.utf8)
        let accepted: AcceptedAlphabets = alphabet == .standard ? .standard : .urlSafe
        let body = try stripPadding(utf8, required: padded, allowed: padded)
        return try decodeBody(body, accepted: accepted, canonical: canonical)
    }

    /// Strictly decodes the Base64 text held in `text` (as ``decode(_:alphabet:padded:canonical:)``)
    /// into secret bytes: the text and the bytes are never in a `String`, and every working copy
    /// is wiped. For a secret member read out of a JSON body without a `String`.
    public static func decode(secret text: SecretBytes, alphabet: Alphabet = .standard, padded: Bool = true) throws(CryptoError) -> SecretBytes {
        var utf8 = text.withUnsafeBytes { Array($0) }
        defer { SecretBytes.wipe(&utf8) }
        let body = try stripPadding(utf8, required: padded, allowed: padded)
        var out = try decodeBody(body, accepted: alphabet == .standard ? .standard : .urlSafe, canonical: true)
        defer { SecretBytes.wipe(&out) }
        return SecretBytes(out)
    }

    /// Leniently decodes `text`: skips ASCII whitespace (space, tab, CR, LF), accepts either
    /// alphabet (not both in one input) and optional padding, and tolerates non-zero unused
    /// trailing bits. Invalid characters, misplaced padding and impossible lengths still throw.
    ///
    /// Leaks: the positions of whitespace, which is formatting, not data.
    public static func decodeLenient(_ text: some StringProtocol) throws(CryptoError) -> [UInt8] {
        var compact = [UInt8]()
        compact.reserveCapacity(text.utf8.count)
        for c in text.utf8 where !(c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D) {
            compact.append(c)
        }
        let body = try stripPadding(compact, required: false, allowed: true)
        return try decodeBody(body, accepted: .either, canonical: false)
    }

    // MARK: Internals

    @usableFromInline
    enum AcceptedAlphabets { case standard, urlSafe, either }

    private static func character(_ value: UInt8, _ alphabet: Alphabet) -> UInt8 {
        let v = Int32(value)
        let upper = ConstantTimeCharacter.inRange(v, 0, 25)
        let lower = ConstantTimeCharacter.inRange(v, 26, 51)
        let digit = ConstantTimeCharacter.inRange(v, 52, 61)
        let c62 = ConstantTimeCharacter.equals(v, 62)
        let c63 = ConstantTimeCharacter.equals(v, 63)
        let (s62, s63): (Int32, Int32) = alphabet == .standard ? (0x2B, 0x2F) : (0x2D, 0x5F)
        let c = (upper & (v &+ 0x41)) | (lower & (v &+ 0x47)) | (digit & (v &- 4)) | (c62 & s62) | (c63 & s63)
        return UInt8(truncatingIfNeeded: c)
    }

    /// The 6-bit value of `c`, or −1 if it is not in the accepted alphabet(s).
    private static func value(_ c: UInt8, _ accepted: AcceptedAlphabets) -> Int32 {
        let c = Int32(c)
        let upper = ConstantTimeCharacter.inRange(c, 0x41, 0x5A)
        let lower = ConstantTimeCharacter.inRange(c, 0x61, 0x7A)
        let digit = ConstantTimeCharacter.inRange(c, 0x30, 0x39)
        var c62: Int32 = 0
        var c63: Int32 = 0
        if accepted != .urlSafe {
            c62 |= ConstantTimeCharacter.equals(c, 0x2B)
            c63 |= ConstantTimeCharacter.equals(c, 0x2F)
        }
        if accepted != .standard {
            c62 |= ConstantTimeCharacter.equals(c, 0x2D)
            c63 |= ConstantTimeCharacter.equals(c, 0x5F)
        }
        let valid = upper | lower | digit | c62 | c63
        let value = (upper & (c &- 0x41)) | (lower & (c &- 0x47)) | (digit & (c &+ 4)) | (c62 & 62) | (c63 & 63)
        return value | ~valid
    }

    /// Removes trailing `=` after checking the length rules; returns the unpadded body.
    private static func stripPadding(_ text: [UInt8], required: Bool, allowed: Bool) throws(CryptoError) -> ArraySlice<UInt8> {
        var end = text.count
        while end > 0 && text[end - 1] == UInt8(ascii: "=") { end -= 1 }
        let padding = text.count - end
        guard end % 4 != 1 else { throw .invalidEncoding }
        if padding > 0 {
            // Padding completes the last quantum exactly: 2 characters + "==", 3 + "=".
            guard allowed, text.count % 4 == 0, padding == (4 - end % 4) % 4 else { throw .invalidEncoding }
        } else if required {
            guard text.count % 4 == 0 else { throw .invalidEncoding }
        }
        return text[0..<end]
    }

    private static func decodeBody(_ body: ArraySlice<UInt8>, accepted: AcceptedAlphabets, canonical: Bool) throws(CryptoError) -> [UInt8] {
        var mode = accepted
        if accepted == .either {
            // Mixed alphabets are malformed: pick the one the input uses (public formatting).
            let hasStandard = body.contains { $0 == 0x2B || $0 == 0x2F }
            let hasURL = body.contains { $0 == 0x2D || $0 == 0x5F }
            guard !(hasStandard && hasURL) else { throw .invalidEncoding }
            mode = hasURL ? .urlSafe : .standard
        }
        var out = [UInt8]()
        out.reserveCapacity(body.count * 3 / 4)
        var invalid: Int32 = 0
        var accumulator: UInt32 = 0
        var bits: UInt32 = 0
        for c in body {
            let v = value(c, mode)
            invalid |= v
            accumulator = (accumulator << 6) | UInt32(truncatingIfNeeded: v & 63)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> bits))
            }
        }
        // A refused input may have been a secret: its partial output is wiped before the throw.
        guard invalid >= 0 else {
            SecretBytes.wipe(&out)
            throw .invalidEncoding
        }
        if canonical && bits > 0 {
            let leftover = accumulator & ((1 << bits) - 1)
            guard leftover == 0 else {
                SecretBytes.wipe(&out)
                throw .invalidEncoding
            }
        }
        return out
    }
}
