// RSA encryption: RSAES-OAEP (RFC 8017 §7.1) and RSAES-PKCS1-v1_5 (§7.2).

import CryptoCore

extension RSA {
    /// Encryption and decryption.
    public enum Encryption: RSAKeyPurpose {
        /// An encryption public key.
        public typealias PublicKey = RSA.PublicKey<Encryption>
        /// A decryption private key.
        public typealias PrivateKey = RSA.PrivateKey<Encryption>

        /// How a message is encoded into a block.
        public struct Padding: Sendable, Equatable {
            package enum Kind: Sendable, Equatable {
                case oaep(hash: HashAlgorithm, mgf1Hash: HashAlgorithm)
                case pkcs1v1_5
            }
            package let kind: Kind

            /// OAEP with SHA-256 and MGF1-SHA-256.
            public static let oaepSHA256 = Padding(kind: .oaep(hash: .sha256, mgf1Hash: .sha256))
            /// OAEP with SHA-256 and MGF1-SHA-1 (Java's and Android's default OAEP with SHA-256).
            public static let oaepSHA256MGF1SHA1 = Padding(kind: .oaep(hash: .sha256, mgf1Hash: .insecureSHA1))
            /// OAEP with SHA-1 and MGF1-SHA-1 (RFC 8017's default parameters).
            public static let oaepSHA1 = Padding(kind: .oaep(hash: .insecureSHA1, mgf1Hash: .insecureSHA1))
            /// OAEP with any label hash and MGF1 hash.
            public static func oaep(hash: HashAlgorithm, mgf1Hash: HashAlgorithm) -> Padding {
                Padding(kind: .oaep(hash: hash, mgf1Hash: mgf1Hash))
            }
            /// PKCS #1 v1.5 encryption. Only for protocols that demand it (Salt Edge): it is open to
            /// padding-oracle attacks wherever a decryption failure is observable.
            public static let insecurePKCS1v1_5 = Padding(kind: .pkcs1v1_5)
        }
    }
}

extension RSA.PublicKey where Purpose == RSA.Encryption {
    /// Encrypts `message` (RSAES-OAEP-ENCRYPT or RSAES-PKCS1-V1_5-ENCRYPT) with randomness from
    /// `random`. Throws `CryptoError.incorrectLength` when the message is too long for the key.
    public func encrypt(_ message: some Sequence<UInt8>, padding: RSA.Encryption.Padding, label: some Sequence<UInt8> = [UInt8](),
                        using random: inout some RandomSource) throws(CryptoError) -> [UInt8] {
        let message = Array(message)
        let em: [UInt8]
        switch padding.kind {
        case .oaep(let hash, let mgf1Hash):
            em = try RSAEncryptionPadding.oaepEncode(message, label: Array(label), hash: hash, mgf1Hash: mgf1Hash, k: byteCount, random: &random)
        case .pkcs1v1_5:
            em = try RSAEncryptionPadding.pkcs1Encode(message, k: byteCount, random: &random)
        }
        guard let ciphertext = publicOperationVartime(em) else { throw .incorrectLength }
        return ciphertext
    }

    /// Encrypts `message` with randomness from the system source.
    public func encrypt(_ message: some Sequence<UInt8>, padding: RSA.Encryption.Padding,
                        label: some Sequence<UInt8> = [UInt8]()) throws(CryptoError) -> [UInt8] {
        var random = SystemRandomSource()
        return try encrypt(message, padding: padding, label: label, using: &random)
    }
}

extension RSA.PrivateKey where Purpose == RSA.Encryption {
    /// Decrypts `ciphertext` (RSAES-OAEP-DECRYPT or RSAES-PKCS1-V1_5-DECRYPT).
    ///
    /// Every failure — a ciphertext of the wrong length or not below n, bad padding, a wrong
    /// label, a failed consistency check — throws the one error `CryptoError.authenticationFailure`,
    /// and the padding is checked over the whole block without an early exit.
    public func decrypt(_ ciphertext: some Sequence<UInt8>, padding: RSA.Encryption.Padding,
                        label: some Sequence<UInt8> = [UInt8]()) throws(CryptoError) -> [UInt8] {
        let ciphertext = Array(ciphertext)
        guard ciphertext.count == publicKey.byteCount, Self.isInOpenRange(ciphertext, modulus: publicKey.modulus),
              let em = privateOperation(ciphertext) else { throw .authenticationFailure }
        switch padding.kind {
        case .oaep(let hash, let mgf1Hash):
            return try RSAEncryptionPadding.oaepDecode(em, label: Array(label), hash: hash, mgf1Hash: mgf1Hash)
        case .pkcs1v1_5:
            return try RSAEncryptionPadding.pkcs1Decode(em)
        }
    }

    /// PKCS #1 v1.5 decryption of a message of known length with implicit rejection: for
    /// protocols that must use PKCS #1 v1.5 (Salt Edge wraps AES keys and IVs with it).
    ///
    /// A ciphertext whose padding does not conform, or whose message is not exactly
    /// `messageByteCount` long, does not fail: it yields `messageByteCount` bytes derived from
    /// the private key and the ciphertext (the implicit rejection of
    /// draft-irtf-cfrg-rsa-guidance §7 and OpenSSL 3.2+, specialised to a fixed length), so
    /// that neither an error nor the time taken tells a Bleichenbacher/Marvin attacker whether
    /// the padding was valid. The caller's later authentication or parsing rejects it.
    /// Throws only on public conditions: `CryptoError.authenticationFailure` for a ciphertext
    /// of the wrong length or not in (1, n − 1), or a failed consistency check of the private
    /// operation; `CryptoError.invalidParameter` when `messageByteCount` exceeds k − 11.
    public func decryptWithImplicitRejection(_ ciphertext: some Sequence<UInt8>, messageByteCount: Int) throws(CryptoError) -> SecretBytes {
        let k = publicKey.byteCount
        guard messageByteCount >= 1, messageByteCount <= k - 11 else { throw .invalidParameter }
        let ciphertext = Array(ciphertext)
        guard ciphertext.count == k, Self.isInOpenRange(ciphertext, modulus: publicKey.modulus),
              var em = privateOperation(ciphertext) else { throw .authenticationFailure }
        defer { SecretBytes.wipe(&em) }
        var (message, isValid) = RSAEncryptionPadding.pkcs1DecodeFixedLength(em, messageByteCount: messageByteCount)
        defer { SecretBytes.wipe(&message) }
        var synthetic = syntheticMessage(for: ciphertext, byteCount: messageByteCount, k: k)
        defer { SecretBytes.wipe(&synthetic) }
        return SecretBytes(count: messageByteCount) { out in
            for i in 0..<messageByteCount {
                out[i] = UInt8.select(message[i], synthetic[i], if: isValid)
            }
        }
    }

    /// The rejection value (draft-irtf-cfrg-rsa-guidance §7.1–§7.2): KDK = HMAC-SHA256 keyed
    /// with SHA-256(d as k bytes) over the ciphertext; then HMAC-SHA256(KDK, BE16(i) ‖
    /// "message" ‖ BE16(8·length)) blocks, truncated to `byteCount`.
    private func syntheticMessage(for ciphertext: [UInt8], byteCount: Int, k: Int) -> [UInt8] {
        let derivationKey = components.privateExponent.withUnsafeBytes { d in
            var hasher = SHA256()
            hasher.update(data: [UInt8](repeating: 0, count: max(0, k - d.count)))
            hasher.update(bufferPointer: d)
            return SymmetricKey(data: hasher.finalize().bytes)
        }
        let kdk = SymmetricKey(data: HMAC<SHA256>.authenticationCode(for: ciphertext, using: derivationKey).bytes)
        var out = [UInt8]()
        var counter: UInt16 = 0
        let bitLength = UInt16(truncatingIfNeeded: 8 * byteCount)
        while out.count < byteCount {
            var block = HMAC<SHA256>(key: kdk)
            block.update(data: [UInt8(counter >> 8), UInt8(counter & 0xFF)])
            block.update(data: Array("message".utf8))
            block.update(data: [UInt8(bitLength >> 8), UInt8(bitLength & 0xFF)])
            out += block.finalize().bytes
            counter &+= 1
        }
        let result = Array(out.prefix(byteCount))
        SecretBytes.wipe(&out)
        return result
    }

    /// Whether 1 < c < n − 1 (SP 800-56B r2 §7.1.2.1 step 1): 0, 1 and n − 1 are fixed points of
    /// the RSA permutation, so they reveal nothing but must not decode. Leaks: c (public).
    private static func isInOpenRange(_ c: [UInt8], modulus: [UInt8]) -> Bool {
        let n = [UInt8](repeating: 0, count: max(0, c.count - modulus.count)) + modulus
        guard n.count == c.count, let last = n.last, last & 1 == 1 else { return false }
        let nMinusOne = n.dropLast() + [last - 1]  // n is odd: no borrow
        let aboveOne = c.dropLast().contains { $0 != 0 } || (c.last ?? 0) > 1
        return aboveOne && c.lexicographicallyPrecedes(nMinusOne)
    }
}

