// A record on disk, encrypt-then-MAC:
//
//   "SMFA" ‖ version (2) ‖ key id (8) ‖ generation (8, big-endian) ‖ length (4, big-endian) ‖ IV (16) ‖ AES-256-CTR(data) ‖ MAC (32)
//
// with the encryption and MAC keys derived from the store key by HKDF-SHA256 (info
// "swiftmfa store enc v1" / "… mac v1"), the key id the first 8 bytes of HMAC(store key,
// "swiftmfa store key id"), a fresh random IV per write, and the MAC = HMAC-SHA256 over the
// record name, the header, the IV and the ciphertext — so a record moved to another name, or
// written under another key, or cut short, is refused, each with its own typed error. The
// generation counts the writes of one name; being in the authenticated header, it lets the store
// refuse an older copy put back in place (see `Generations`). Version 1 (the same layout without
// the generation) still reads, as generation 0, so stores written before it migrate on the next
// write.

import CryptoPrimitives

/// The keys of one store and the record codec.
struct RecordFormat: Sendable {
    static let magic: [UInt8] = Array("SMFA".utf8)
    /// The version this code writes; older ones are refused as downgrades.
    static let version: UInt8 = 2
    /// The oldest version still read (records without a generation).
    static let oldestVersion: UInt8 = 1
    static let headerCount = 4 + 1 + 8 + 8 + 4
    static let overhead = headerCount + 16 + 32

    /// The header length of `version`.
    static func headerCount(version: UInt8) -> Int { version == 1 ? 4 + 1 + 8 + 4 : headerCount }

    let encryptionKey: SymmetricKey
    let macKey: SymmetricKey
    let keyID: [UInt8]

    init(storeKey: StoreKey) throws(SecureStoreError) {
        let master = SymmetricKey(secret: storeKey.secret)
        do {
            encryptionKey = try HKDF<SHA256>.deriveKey(inputKeyMaterial: master, salt: [UInt8](), info: Array("swiftmfa store enc v1".utf8),
                                                       outputByteCount: 32)
            macKey = try HKDF<SHA256>.deriveKey(inputKeyMaterial: master, salt: [UInt8](), info: Array("swiftmfa store mac v1".utf8),
                                                outputByteCount: 32)
        } catch {
            throw SecureStoreError(.keyUnavailable, "key derivation failed")
        }
        keyID = Array(HMAC<SHA256>.authenticationCode(for: Array("swiftmfa store key id".utf8), using: master).bytes.prefix(8))
    }

    /// The sealed bytes of `plaintext` under `name`, as write number `generation` of that name.
    func seal(_ plaintext: SecretBytes, name: String, generation: UInt64, using random: inout some RandomSource) throws(SecureStoreError) -> [UInt8] {
        guard plaintext.count <= Int(UInt32.max) - Self.overhead else { throw SecureStoreError(.io, "a record over 4 GiB") }
        let iv: [UInt8]
        do { iv = try random.bytes(count: 16) } catch { throw SecureStoreError(.io, "the random source failed") }
        let header = Self.magic + [Self.version] + keyID + BigEndian.bytes(generation) + BigEndian.bytes(UInt64(plaintext.count), count: 4)
        let ciphertext: [UInt8]
        do {
            ciphertext = try plaintext.withUnsafeBytes { raw throws(CryptoError) in
                try AES.UnauthenticatedCTR.encrypt(raw, using: encryptionKey, counterBlock: iv)
            }
        } catch {
            throw SecureStoreError(.io, "encryption failed")
        }
        let body = header + iv + ciphertext
        return body + mac(name: name, body: body)
    }

    /// Opens `bytes` stored under `name`. Checks in order: length and magic (``SecureStoreError/Kind/corrupt``),
    /// version (``SecureStoreError/Kind/downgraded``), key id (``SecureStoreError/Kind/foreignKey``),
    /// declared length (corrupt), MAC in constant time (``SecureStoreError/Kind/authenticationFailed``);
    /// only then decrypts. The header is public; nothing before the MAC depends on the key.
    /// Returns the plaintext and the record's generation (0 for a version-1 record).
    func open(_ bytes: [UInt8], name: String) throws(SecureStoreError) -> (plaintext: SecretBytes, generation: UInt64) {
        guard bytes.count >= 5, Array(bytes[0..<4]) == Self.magic else {
            throw SecureStoreError(.corrupt, "not a store record, or cut short")
        }
        guard bytes[4] >= Self.oldestVersion else { throw SecureStoreError(.downgraded, "record format \(bytes[4]) is older than \(Self.oldestVersion)") }
        guard bytes[4] <= Self.version else { throw SecureStoreError(.corrupt, "record format \(bytes[4]) is newer than this store") }
        let headerCount = Self.headerCount(version: bytes[4])
        guard bytes.count >= headerCount + 16 + 32 else { throw SecureStoreError(.corrupt, "not a store record, or cut short") }
        guard Array(bytes[5..<13]) == keyID else { throw SecureStoreError(.foreignKey, "the record was written under another key") }
        let generation = Self.generation(ofHeader: bytes)
        let length = Int(BigEndian.value(bytes[(headerCount - 4)..<headerCount]))
        guard bytes.count == headerCount + 16 + 32 + length else { throw SecureStoreError(.corrupt, "the record's length does not match its header") }
        let body = Array(bytes[0..<(bytes.count - 32)])
        guard HMAC<SHA256>.isValidAuthenticationCode(bytes[(bytes.count - 32)...], authenticating: Self.macInput(name: name, body: body),
                                                      using: macKey) else {
            throw SecureStoreError(.authenticationFailed, "the record does not authenticate under its name")
        }
        let iv = Array(bytes[headerCount..<(headerCount + 16)])
        let ciphertext = bytes[(headerCount + 16)..<(bytes.count - 32)]
        do {
            return (try SecretBytes(count: length) { out throws(CryptoError) in
                var plain = try AES.UnauthenticatedCTR.encrypt(ciphertext, using: encryptionKey, counterBlock: iv)
                out.copyBytes(from: plain)
                SecretBytes.wipe(&plain)
            }, generation)
        } catch {
            throw SecureStoreError(.corrupt, "decryption failed")
        }
    }

    /// The generation of `bytes` stored under `name` once its MAC verifies; nil for anything this
    /// store cannot open (cut short, altered, another key, an unknown version). The header alone
    /// is never trusted for a decision: a forged header could claim any generation.
    func authenticatedGeneration(of bytes: [UInt8], name: String) throws(SecureStoreError) -> UInt64? {
        do throws(SecureStoreError) { return try open(bytes, name: name).generation } catch {
            switch error.kind {
            case .corrupt, .authenticationFailed, .foreignKey, .downgraded: return nil
            default: throw error
            }
        }
    }

    /// The generation in a version-2 header, unauthenticated (0 for version 1 or anything
    /// unreadable): a hint for choosing the next generation, never a reason to trust a record.
    static func generation(ofHeader bytes: [UInt8]) -> UInt64 {
        guard bytes.count >= headerCount, Array(bytes[0..<4]) == magic, bytes[4] == version else { return 0 }
        return BigEndian.value(bytes[13..<21])
    }

    private func mac(name: String, body: [UInt8]) -> [UInt8] {
        HMAC<SHA256>.authenticationCode(for: Self.macInput(name: name, body: body), using: macKey).bytes
    }

    /// BE16(|name|) ‖ name ‖ body: the name is bound so records cannot be swapped.
    private static func macInput(name: String, body: [UInt8]) -> [UInt8] {
        let nameBytes = Array(name.utf8)
        return [UInt8(nameBytes.count >> 8 & 0xFF), UInt8(nameBytes.count & 0xFF)] + nameBytes + body
    }
}
