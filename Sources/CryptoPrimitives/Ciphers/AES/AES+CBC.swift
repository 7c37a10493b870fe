// AES in CBC mode (NIST SP 800-38A §6.2), with or without PKCS #7 padding (RFC 5652 §6.3).

import CryptoCore

extension AES {
    /// AES-CBC. It provides confidentiality only: authenticate the ciphertext separately
    /// (PowerAuth and Salt Edge do, with HMAC or RSA around it).
    public enum UnauthenticatedCBC {
        /// How the plaintext is brought to a multiple of the block size.
        public struct Padding: Sendable, Equatable {
            private enum Kind { case pkcs7, none }
            private let kind: Kind

            /// PKCS #7: 1 to 16 bytes, each holding the padding length.
            public static let pkcs7 = Padding(kind: .pkcs7)
            /// No padding: the input must already be a whole number of blocks.
            public static let none = Padding(kind: .none)

            var isPKCS7: Bool { kind == .pkcs7 }
        }

        /// Encrypts `plaintext` under `key` with the 16-byte `iv`.
        ///
        /// Throws `CryptoError.incorrectLength` for a bad key or IV length, or (without padding)
        /// a plaintext that is not a whole number of blocks.
        public static func encrypt(
            _ plaintext: some Sequence<UInt8>, using key: SymmetricKey, iv: some Sequence<UInt8>, padding: Padding = .pkcs7
        ) throws(CryptoError) -> [UInt8] {
            let iv = Array(iv)
            guard iv.count == blockByteCount else { throw .incorrectLength }
            let cipher = try expand(key)
            // Room for the padding from the start: growing the copy would leave the plaintext in
            // a freed buffer (for the contiguous inputs every caller passes), where the blocks below
            // overwrite it in place; a refused length wipes it.
            var data = [UInt8]()
            data.reserveCapacity(plaintext.underestimatedCount + blockByteCount)
            data.append(contentsOf: plaintext)
            if padding.isPKCS7 {
                let padLength = blockByteCount - data.count % blockByteCount
                data.append(contentsOf: repeatElement(UInt8(padLength), count: padLength))
            } else {
                guard data.count % blockByteCount == 0 else {
                    SecretBytes.wipe(&data)
                    throw .incorrectLength
                }
            }
            // CBC encryption is serial: one block at a time in the four-block engine.
            var lanes = InlineArray<8, UInt64>(repeating: 0)
            withUnsafeMutableBytes(of: &lanes) { lanes in
                guard let lane = lanes.baseAddress else { return }
                iv.withUnsafeBytes { lanes.copyMemory(from: $0) }
                data.withUnsafeMutableBytes { buffer in
                    guard let base = buffer.baseAddress else { return }
                    for offset in stride(from: 0, to: buffer.count, by: blockByteCount) {
                        for i in stride(from: 0, to: blockByteCount, by: 8) {
                            let chained = lane.load(fromByteOffset: i, as: UInt64.self)
                                ^ base.loadUnaligned(fromByteOffset: offset + i, as: UInt64.self)
                            lane.storeBytes(of: chained, toByteOffset: i, as: UInt64.self)
                        }
                        cipher.encrypt(lane, lane, lanes: UInt64.self)
                        (base + offset).copyMemory(from: lane, byteCount: blockByteCount)
                    }
                }
                SecretBytes.wipe(lanes)
            }
            return data
        }

        /// Decrypts `ciphertext` and removes the padding.
        ///
        /// Every failure (a length that is not a positive multiple of the block size, bad
        /// padding, a bad key or IV length) throws the same `CryptoError.authenticationFailure`,
        /// and the padding is checked in constant time over the whole last block.
        public static func decrypt(
            _ ciphertext: some Sequence<UInt8>, using key: SymmetricKey, iv: some Sequence<UInt8>, padding: Padding = .pkcs7
        ) throws(CryptoError) -> [UInt8] {
            let iv = Array(iv)
            var data = Array(ciphertext)
            guard iv.count == blockByteCount, data.count % blockByteCount == 0,
                  !(padding.isPKCS7 && data.isEmpty) else { throw .authenticationFailure }
            guard let cipher = try? expand(key) else { throw .authenticationFailure }
            // Decryption is parallel: eight blocks per call of the two-lane engine.
            var saved = InlineArray<16, UInt64>(repeating: 0)
            var plain = InlineArray<16, UInt64>(repeating: 0)
            var previous = InlineArray<2, UInt64>(repeating: 0)
            withUnsafeMutableBytes(of: &previous) { raw in iv.withUnsafeBytes { raw.copyMemory(from: $0) } }
            data.withUnsafeMutableBytes { buffer in
                guard let base = buffer.baseAddress else { return }
                var offset = 0
                while offset < buffer.count {
                    let count = min(128, buffer.count - offset)
                    withUnsafeMutableBytes(of: &saved) { saved in
                        guard let savedBase = saved.baseAddress else { return }
                        savedBase.copyMemory(from: base + offset, byteCount: count)
                        withUnsafeMutableBytes(of: &plain) { plain in
                            guard let plainBase = plain.baseAddress else { return }
                            cipher.decrypt(savedBase, plainBase, lanes: AESTwoLanes.self)
                            // P[i] = D(C[i]) ⊕ C[i−1], with C[−1] the IV or the previous chunk's last block.
                            for word in 0..<(count / 8) {
                                let chain = word < 2 ? previous[word] : savedBase.load(fromByteOffset: 8 * (word - 2), as: UInt64.self)
                                let value = plainBase.load(fromByteOffset: 8 * word, as: UInt64.self) ^ chain
                                (base + offset).storeBytes(of: value, toByteOffset: 8 * word, as: UInt64.self)
                            }
                            previous[0] = savedBase.load(fromByteOffset: count - 16, as: UInt64.self)
                            previous[1] = savedBase.load(fromByteOffset: count - 8, as: UInt64.self)
                            SecretBytes.wipe(plain)
                        }
                    }
                    offset += count
                }
            }
            guard padding.isPKCS7 else { return data }
            let padLength = PKCS7.paddingLength(of: data)
            guard padLength.isValid.isTrueVartime else {
                SecretBytes.wipe(&data)
                throw .authenticationFailure
            }
            let plaintext = Array(data[0..<(data.count - Int(padLength.length))])
            SecretBytes.wipe(&data)
            return plaintext
        }

        /// Decrypts `ciphertext` and checks its PKCS #7 padding without acting on the verdict:
        /// for a protocol that must fold the padding check into one decision with later checks
        /// (Salt Edge's bundles, docs/protocols/saltedge-v2.md §3.3), so that a bad pad and a bad payload fail
        /// the same way at the same point.
        ///
        /// Returns the unpadded plaintext when the padding is valid, otherwise the whole
        /// decrypted data, and whether the padding was valid. Throws
        /// `CryptoError.authenticationFailure` only on public conditions (a key or IV of the
        /// wrong length, a ciphertext that is not a positive multiple of the block size).
        public static func decryptDeferringPaddingCheck(
            _ ciphertext: some Sequence<UInt8>, using key: SymmetricKey, iv: some Sequence<UInt8>
        ) throws(CryptoError) -> (plaintext: [UInt8], hasValidPadding: Bool) {
            var data = try decrypt(ciphertext, using: key, iv: iv, padding: .none)
            guard !data.isEmpty else { throw .authenticationFailure }
            let padLength = PKCS7.paddingLength(of: data)
            // The length removed is the claimed one when valid and 0 otherwise, by mask.
            let removed = Int(UInt64.select(padLength.length, 0, if: padLength.isValid))
            let plaintext = Array(data[0..<(data.count - removed)])
            SecretBytes.wipe(&data)
            return (plaintext, padLength.isValid.isTrueVartime)
        }
    }
}

/// PKCS #7 padding check in constant time.
package enum PKCS7 {
    /// The padding length claimed by the last byte and whether the last block is correctly
    /// padded. Reads all 16 bytes of the last block whatever their values (no early exit).
    package static func paddingLength(of data: [UInt8]) -> (length: UInt64, isValid: Choice) {
        let last = UInt64(data[data.count - 1])
        var valid = !last.isZero & !UInt64(AES.blockByteCount).isLess(than: last)
        for i in 0..<AES.blockByteCount {
            let byte = UInt64(data[data.count - 1 - i])
            // Bytes inside the padding (i < last) must equal `last`.
            let inside = UInt64(i).isLess(than: last)
            valid = valid & (!inside | byte.isEqual(to: last))
        }
        return (last, valid)
    }
}
