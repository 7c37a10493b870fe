// The hash a cipher suite names (SHA-256 or SHA-384) as a run-time value, with the HMAC, HKDF
// and transcript operations TLS builds from it.

import CryptoPrimitives

/// SHA-256 or SHA-384, the two hashes of the suites offered.
enum TLSHash: Sendable {
    case sha256
    case sha384

    /// The hash of `suite` (RFC 8446 §B.4; RFC 5289 and RFC 7905 for TLS 1.2's PRF).
    init?(suite: TLSCipherSuite) {
        switch suite {
        case .aes128GCMSHA256, .chaCha20Poly1305SHA256, .ecdheECDSAWithAES128GCMSHA256, .ecdheRSAWithAES128GCMSHA256,
             .ecdheECDSAWithChaCha20Poly1305SHA256, .ecdheRSAWithChaCha20Poly1305SHA256:
            self = .sha256
        case .aes256GCMSHA384, .ecdheECDSAWithAES256GCMSHA384, .ecdheRSAWithAES256GCMSHA384:
            self = .sha384
        default:
            return nil
        }
    }

    var byteCount: Int { self == .sha256 ? 32 : 48 }

    func hash(_ data: some Sequence<UInt8>) -> [UInt8] {
        switch self {
        case .sha256: SHA256.hash(data: data).bytes
        case .sha384: SHA384.hash(data: data).bytes
        }
    }

    func hmac(key: SymmetricKey, _ data: some Sequence<UInt8>) -> SymmetricKey {
        switch self {
        case .sha256: SymmetricKey(data: HMAC<SHA256>.authenticationCode(for: data, using: key).bytes)
        case .sha384: SymmetricKey(data: HMAC<SHA384>.authenticationCode(for: data, using: key).bytes)
        }
    }

    /// HKDF-Extract (RFC 5869 §2.2).
    func extract(salt: SymmetricKey?, inputKeyMaterial: SymmetricKey) -> SymmetricKey {
        let saltBytes = salt?.secret.unsafeExposedBytes ?? []
        switch self {
        case .sha256: return HKDF<SHA256>.extract(inputKeyMaterial: inputKeyMaterial, salt: saltBytes)
        case .sha384: return HKDF<SHA384>.extract(inputKeyMaterial: inputKeyMaterial, salt: saltBytes)
        }
    }

    /// HKDF-Expand (RFC 5869 §2.3); lengths here are TLS's own, always within bounds.
    func expand(_ secret: SymmetricKey, info: [UInt8], length: Int) throws(TLSError) -> SymmetricKey {
        do throws(CryptoError) {
            switch self {
            case .sha256: return try HKDF<SHA256>.expand(pseudoRandomKey: secret, info: info, outputByteCount: length)
            case .sha384: return try HKDF<SHA384>.expand(pseudoRandomKey: secret, info: info, outputByteCount: length)
            }
        } catch {
            throw .violation(.internalError, "HKDF-Expand refused a length of \(length)")
        }
    }

    /// HKDF-Expand-Label (RFC 8446 §7.1): HkdfLabel = length ‖ "tls13 " + label ‖ context.
    func expandLabel(_ secret: SymmetricKey, _ label: String, context: [UInt8], length: Int) throws(TLSError) -> SymmetricKey {
        var info = TLSWriter()
        info.writeUInt16(UInt16(length))
        info.writeVector(lengthBytes: 1) { $0.writeBytes(Array("tls13 \(label)".utf8)) }
        info.writeVector(lengthBytes: 1) { $0.writeBytes(context) }
        return try expand(secret, info: info.bytes, length: length)
    }

    /// Derive-Secret (RFC 8446 §7.1) from a transcript hash already computed.
    func deriveSecret(_ secret: SymmetricKey, _ label: String, transcriptHash: [UInt8]) throws(TLSError) -> SymmetricKey {
        try expandLabel(secret, label, context: transcriptHash, length: byteCount)
    }

    /// The TLS 1.2 PRF, P_hash of RFC 5246 §5: HMAC(secret, A(i) ‖ label ‖ seed) until `length`
    /// bytes, A(0) = label ‖ seed, A(i) = HMAC(secret, A(i−1)).
    func prf(_ secret: SymmetricKey, label: String, seed: [UInt8], length: Int) -> SymmetricKey {
        let labelAndSeed = Array(label.utf8) + seed
        var a = labelAndSeed
        var output: [UInt8] = []
        while output.count < length {
            a = hmac(key: secret, a).secret.unsafeExposedBytes
            var block = hmac(key: secret, a + labelAndSeed).secret.unsafeExposedBytes
            output += block.prefix(length - output.count)
            SecretBytes.wipe(&block)
        }
        SecretBytes.wipe(&a)
        defer { SecretBytes.wipe(&output) }
        return SymmetricKey(data: output)
    }
}

/// The running handshake transcript (RFC 8446 §4.4.1): the messages are kept until the server
/// picks a suite, then hashed as they come.
struct TLSTranscript {
    private var messages: [UInt8] = []
    private(set) var hash: TLSHash?
    private var sha256 = SHA256()
    private var sha384 = SHA384()

    /// Adds a whole handshake message (header included).
    mutating func append(_ message: [UInt8]) {
        switch hash {
        case nil: messages += message
        case .sha256: sha256.update(data: message)
        case .sha384: sha384.update(data: message)
        }
    }

    /// Fixes the hash and absorbs what was kept.
    mutating func choose(_ hash: TLSHash) {
        self.hash = hash
        let kept = messages
        messages = []
        append(kept)
    }

    /// The hash of everything so far (the hash must have been chosen).
    var currentHash: [UInt8] {
        switch hash {
        case .sha256: sha256.finalize().bytes
        case .sha384: sha384.finalize().bytes
        case nil: []
        }
    }

    /// For a HelloRetryRequest (RFC 8446 §4.4.1): the transcript so far (the first
    /// ClientHello) replaced by message_hash ‖ 00 00 Hash.length ‖ Hash(ClientHello1).
    mutating func replaceWithMessageHash() {
        guard let hash else { return }
        let digest = currentHash
        sha256 = SHA256()
        sha384 = SHA384()
        append([TLSHandshakeType.messageHash.rawValue, 0, 0, UInt8(hash.byteCount)] + digest)
    }
}
