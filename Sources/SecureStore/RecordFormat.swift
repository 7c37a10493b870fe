// A record on disk, encrypt-then-MAC (issue "PowerAuth on a real wire", point 3):
//
//   "SMFA" ‖ version (1) ‖ key id (8) ‖ length (4, big-endian) ‖ IV (16) ‖ AES-256-CTR(data) ‖ MAC (32)
//
// with the encryption and MAC keys derived from the store key by HKDF-SHA256 (info
// "swiftmfa store enc v1" / "… mac v1"), the key id the first 8 bytes of HMAC(store key,
// "swiftmfa store key id"), a fresh random IV per write, and the MAC = HMAC-SHA256 over the
// record name, the header, the IV and the ciphertext — so a record moved to another name, or
// written under another key, or cut short, is refused, each with its own typed error.

import CryptoPrimitives

/// The keys of one store and the record codec.
struct RecordFormat: Sendable {
    static let magic: [UInt8] = Array("SMFA".utf8)
    /// The version this code writes; older ones are refused as downgrades.
    static let version: UInt8 = 1
    static let headerCount = 4 + 1 + 8 + 4
    static let overhead = headerCount + 16 + 32

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

    /// The sealed bytes of `plaintext` under `name`.
    func seal(_ plaintext: SecretBytes, name: String, using random: inout some RandomSource) throws(SecureStoreError) -> [UInt8] {
        guard plaintext.count <= Int(UInt32.max) - Self.overhead else { throw SecureStoreError(.io, "a record over 4 GiB") }
        let iv: [UInt8]
        do { iv = try random.bytes(count: 16) } catch { throw SecureStoreError(.io, "the random source failed") }
        let length = UInt32(plaintext.count)
        let header = Self.magic + [Self.version] + keyID + [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
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
    func open(_ bytes: [UInt8], name: String) throws(SecureStoreError) -> SecretBytes {
        guard bytes.count >= Self.overhead, Array(bytes[0..<4]) == Self.magic else {
            throw SecureStoreError(.corrupt, "not a store record, or cut short")
        }
        guard bytes[4] >= Self.version else { throw SecureStoreError(.downgraded, "record format \(bytes[4]) is older than \(Self.version)") }
        guard bytes[4] == Self.version else { throw SecureStoreError(.corrupt, "record format \(bytes[4]) is newer than this store") }
        guard Array(bytes[5..<13]) == keyID else { throw SecureStoreError(.foreignKey, "the record was written under another key") }
        let length = bytes[13..<17].reduce(0) { $0 << 8 | Int($1) }
        guard bytes.count == Self.overhead + length else { throw SecureStoreError(.corrupt, "the record's length does not match its header") }
        let body = Array(bytes[0..<(bytes.count - 32)])
        guard HMAC<SHA256>.isValidAuthenticationCode(bytes[(bytes.count - 32)...], authenticating: Self.macInput(name: name, body: body),
                                                      using: macKey) else {
            throw SecureStoreError(.authenticationFailed, "the record does not authenticate under its name")
        }
        let iv = Array(bytes[Self.headerCount..<(Self.headerCount + 16)])
        let ciphertext = bytes[(Self.headerCount + 16)..<(bytes.count - 32)]
        do {
            return try SecretBytes(count: length) { out throws(CryptoError) in
                var plain = try AES.UnauthenticatedCTR.encrypt(ciphertext, using: encryptionKey, counterBlock: iv)
                out.copyBytes(from: plain)
                SecretBytes.wipe(&plain)
            }
        } catch {
            throw SecureStoreError(.corrupt, "decryption failed")
        }
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
