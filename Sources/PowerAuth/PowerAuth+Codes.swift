// Activation code, recovery code and PUK (docs/protocols/powerauth.md §3): Base32 with a CRC-16/ARC check, the
// optional `#signature` verified with the master server key, the `R:` prefix, and the typed-
// character auto-correction of a code-entry field.

public import CryptoPrimitives
public import ProtocolSupport

extension ProtocolError.Code {
    /// An activation code, recovery code or PUK is malformed (docs/protocols/powerauth.md §3).
    public static let invalidActivationCode = Self(rawValue: "invalidActivationCode")
}

extension PowerAuth {
    /// A validated activation code with its optional signature (docs/protocols/powerauth.md §3.1–§3.2).
    public struct ActivationCode: Sendable, Hashable {
        /// The 23-character code, `XXXXX-XXXXX-XXXXX-XXXXX`.
        public let code: String
        /// The Base64 text after `#`, if any (not yet verified).
        public let signature: String?

        /// Parses `CODE` or `CODE#SIGNATURE`. Throws `ProtocolError.Code.invalidActivationCode`
        /// for a bad code, an empty or malformed signature, or a second `#`.
        public init(parsing text: String) throws(ProtocolError) {
            let parts = text.split(separator: "#", omittingEmptySubsequences: false)
            guard parts.count <= 2, PowerAuth.isValidCode(String(parts[0])) else {
                throw ProtocolError(.invalidActivationCode, "not an activation code")
            }
            if parts.count == 2 {
                // §3.2: non-empty, valid, correctly padded Base64 (syntax only: `ABC=` passes).
                guard !parts[1].isEmpty, (try? Base64.decode(parts[1], canonical: false)) != nil else {
                    throw ProtocolError(.invalidActivationCode, "malformed activation code signature")
                }
                signature = String(parts[1])
            } else {
                signature = nil
            }
            code = String(parts[0])
        }

        /// Whether the signature (if any) is a valid ECDSA-P256-SHA256 signature of the code's
        /// ASCII bytes under the master server key; `true` when there is no signature (§3.2).
        public func isSignatureValid(masterServerPublicKey: P256.Signing.PublicKey) -> Bool {
            guard let signature else { return true }
            guard let der = try? Base64.decode(signature), let parsed = try? P256.Signing.ECDSASignature(derRepresentation: der) else { return false }
            return masterServerPublicKey.isValidSignature(parsed, for: Array(code.utf8))
        }
    }

    /// A recovery code: the activation-code format, optionally prefixed `R:`, never signed (§3.3).
    public static func recoveryCode(parsing text: String) throws(ProtocolError) -> String {
        let code = text.hasPrefix("R:") ? String(text.dropFirst(2)) : text
        guard isValidCode(code) else { throw ProtocolError(.invalidActivationCode, "not a recovery code") }
        return code
    }

    /// The PUK when it is exactly ten ASCII digits (§3.3), else
    /// ``ProtocolError/Code/invalidActivationCode``; it goes into the request as
    /// `JSONText.secret`, never a `String`.
    static func validatedPUK(_ puk: SecretBytes) throws(ProtocolError) -> SecretBytes {
        guard isValidPUK(puk) else { throw ProtocolError(.invalidActivationCode, "a PUK is ten digits") }
        return puk
    }

    /// Whether `puk` is exactly ten ASCII digits (§3.3), read without leaving wiped storage and
    /// without stopping at the first non-digit.
    public static func isValidPUK(_ puk: SecretBytes) -> Bool {
        puk.withUnsafeBytes { bytes in
            // Per byte b: b − '0' and 9 − (b − '0') both stay below 256 exactly when b is a
            // digit, so any bit above the low eight marks a non-digit; no comparison, no branch.
            let outside = bytes.reduce(UInt16(0)) { outside, byte in
                let offset = UInt16(byte) &- 0x30
                return outside | ((offset | (9 &- offset)) >> 8)
            }
            return bytes.count == 10 && outside == 0
        }
    }

    /// Whether `text` is a PUK: exactly ten ASCII digits (§3.3).
    public static func isValidPUK(_ text: String) -> Bool {
        text.utf8.count == 10 && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// Whether `code` is 4 groups of 5 Base32 characters joined by `-` whose 12 decoded bytes
    /// end with the big-endian CRC-16/ARC of the first 10 (§3.1).
    public static func isValidCode(_ code: String) -> Bool {
        let characters = Array(code.utf8)
        guard characters.count == 23 else { return false }
        var body = [UInt8]()
        for (index, c) in characters.enumerated() {
            if index % 6 == 5 {
                guard c == UInt8(ascii: "-") else { return false }
            } else {
                guard (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(c) || (UInt8(ascii: "2")...UInt8(ascii: "7")).contains(c) else { return false }
                body.append(c)
            }
        }
        guard let bytes = try? Base32.decode(String(decoding: body, as: UTF8.self)), bytes.count == 12 else { return false }
        let crc = CRC16.arc(bytes[0..<10])
        return bytes[10] == UInt8(crc >> 8) && bytes[11] == UInt8(crc & 0xFF)
    }

    /// The typed-character auto-correction of a code field (§3.4): `A–Z`, `2–7` kept, `a–z`
    /// upper-cased, `0` → `O`, `1` → `I`; `nil` for anything else.
    public static func correctedCodeCharacter(_ typed: Character) -> Character? {
        guard let scalar = typed.unicodeScalars.first, typed.unicodeScalars.count == 1, scalar.isASCII else { return nil }
        switch scalar.value {
        case 0x41...0x5A, 0x32...0x37: return typed
        case 0x61...0x7A: return Character(Unicode.Scalar(UInt8(scalar.value - 0x20)))
        case 0x30: return "O"
        case 0x31: return "I"
        default: return nil
        }
    }
}
