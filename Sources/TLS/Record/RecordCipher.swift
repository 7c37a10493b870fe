// Record protection for one direction (RFC 8446 §5.2–§5.3; RFC 5288 §3 and RFC 7905 §2 for
// TLS 1.2): an AEAD key, its IV and the 64-bit sequence number, sealing and opening whole
// records. Every opening failure is `bad_record_mac`, with no detail about why.

import CryptoPrimitives

/// The AEAD protecting one direction of a connection.
final class RecordCipher {
    /// The largest TLSCiphertext fragment TLS 1.3 allows (RFC 8446 §5.2).
    static let maximumCiphertextTLS13 = (1 << 14) + 256
    /// TLS 1.2's bound (RFC 5246 §6.2.3).
    static let maximumCiphertextTLS12 = (1 << 14) + 2048

    private let aead: any AEADContext
    /// The 12-byte IV (TLS 1.3 and ChaCha20 in 1.2) or the 4-byte salt of TLS 1.2 GCM.
    private let iv: SecretBytes
    private var sequence: UInt64 = 0
    private let isTLS13: Bool
    /// TLS 1.2 with AES-GCM carries an 8-byte explicit nonce in each record (RFC 5288 §3).
    private var hasExplicitNonce: Bool { !isTLS13 && iv.count == 4 }

    /// A cipher for `suite`'s AEAD with `key` and `iv`; throws `internal_error` for a suite
    /// this client does not offer.
    init(suite: TLSCipherSuite, key: SymmetricKey, iv: SymmetricKey, isTLS13: Bool) throws(TLSError) {
        do throws(CryptoError) {
            switch suite {
            case .chaCha20Poly1305SHA256, .ecdheECDSAWithChaCha20Poly1305SHA256, .ecdheRSAWithChaCha20Poly1305SHA256:
                aead = try ChaChaPolyContext(key: key)
            default:
                aead = try AESGCMContext(key: key)
            }
        } catch {
            throw .violation(.internalError, "the negotiated AEAD refused its key")
        }
        self.iv = iv.secret
        self.isTLS13 = isTLS13
    }

    /// The key and IV lengths of `suite` (RFC 8446 §5.3: 12-byte IVs; RFC 5288: 4-byte salts).
    static func keyAndIVLengths(_ suite: TLSCipherSuite, tls13: Bool) -> (key: Int, iv: Int) {
        switch suite {
        case .aes128GCMSHA256, .ecdheECDSAWithAES128GCMSHA256, .ecdheRSAWithAES128GCMSHA256: (16, tls13 ? 12 : 4)
        case .aes256GCMSHA384, .ecdheECDSAWithAES256GCMSHA384, .ecdheRSAWithAES256GCMSHA384: (32, tls13 ? 12 : 4)
        default: (32, 12)
        }
    }

    /// The per-record nonce: the IV XOR the sequence number, left-padded (RFC 8446 §5.3,
    /// RFC 7905 §2), or the salt ‖ explicit nonce (RFC 5288 §3).
    private func nonce(explicit: [UInt8]) -> [UInt8] {
        var nonce = iv.unsafeExposedBytes
        if hasExplicitNonce { return nonce + explicit }
        for i in 0..<8 { nonce[4 + i] ^= UInt8(truncatingIfNeeded: sequence >> (56 - 8 * UInt64(i))) }
        return nonce
    }

    private var sequenceBytes: [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: sequence >> (56 - 8 * UInt64($0))) } }

    /// A whole protected record carrying `content` of `type` (at most 2¹⁴ bytes).
    func seal(_ type: TLSContentType, _ content: [UInt8]) throws(TLSError) -> [UInt8] {
        guard sequence < UInt64.max else { throw .violation(.internalError, "the sequence number would wrap") }
        var text: [UInt8], outerType: TLSContentType, explicit: [UInt8] = []
        if isTLS13 {
            text = content + [type.rawValue]  // TLSInnerPlaintext, no padding (RFC 8446 §5.2)
            outerType = .applicationData
        } else {
            text = content
            outerType = type
            if hasExplicitNonce { explicit = sequenceBytes }
        }
        let length = text.count + 16 + explicit.count
        let header: [UInt8] = [outerType.rawValue, 0x03, 0x03, UInt8(length >> 8), UInt8(truncatingIfNeeded: length)]
        // RFC 8446 §5.2: the AAD is the record header; RFC 5246 §6.2.3.3: seq ‖ type ‖ version ‖ length.
        let aad = isTLS13 ? header : sequenceBytes + [type.rawValue, 0x03, 0x03, UInt8(content.count >> 8), UInt8(truncatingIfNeeded: content.count)]
        let tag: [UInt8]
        do throws(CryptoError) {
            tag = try aead.seal(&text, nonce: nonce(explicit: explicit), authenticating: aad)
        } catch {
            SecretBytes.wipe(&text)  // still the plaintext
            throw .violation(.internalError, "sealing a record failed")
        }
        sequence += 1
        return header + explicit + text + tag
    }

    /// The content type and content of a protected record, given its header and fragment.
    /// Throws `bad_record_mac` for any deprotection failure, `record_overflow` for content
    /// over 2¹⁴ bytes, `unexpected_message` for a TLS 1.3 record that is all padding.
    func open(header: [UInt8], fragment: [UInt8]) throws(TLSError) -> (TLSContentType, [UInt8]) {
        let explicitLength = hasExplicitNonce ? 8 : 0
        guard fragment.count >= 16 + explicitLength else { throw .violation(.badRecordMAC, "a record shorter than its tag") }
        let explicit = Array(fragment[0..<explicitLength])
        var text = Array(fragment[explicitLength..<(fragment.count - 16)])
        let tag = Array(fragment.suffix(16))
        let type = TLSContentType(rawValue: header[0])
        let aad = isTLS13 ? header : sequenceBytes + [type.rawValue, 0x03, 0x03, UInt8(text.count >> 8), UInt8(truncatingIfNeeded: text.count)]
        do throws(CryptoError) {
            try aead.open(&text, nonce: nonce(explicit: explicit), authenticating: aad, tag: tag)
        } catch {
            throw .violation(.badRecordMAC, "a record did not authenticate")
        }
        sequence += 1
        guard isTLS13 else {
            guard text.count <= 1 << 14 else { throw .violation(.recordOverflow, "a TLS 1.2 record over 2^14 bytes of content") }
            return (type, text)
        }
        // RFC 8446 §5.4: the whole TLSInnerPlaintext is at most 2¹⁴ + 1 bytes; then strip the
        // zero padding, the last non-zero byte being the real type.
        guard text.count <= (1 << 14) + 1 else { throw .violation(.recordOverflow, "a TLSInnerPlaintext over 2^14 + 1 bytes") }
        guard let last = text.lastIndex(where: { $0 != 0 }) else { throw .unexpected("a record of padding only") }
        let innerType = TLSContentType(rawValue: text[last])
        text.removeSubrange(last...)
        guard text.count <= 1 << 14 else { throw .violation(.recordOverflow, "a TLS 1.3 record over 2^14 bytes of content") }
        return (innerType, text)
    }
}
