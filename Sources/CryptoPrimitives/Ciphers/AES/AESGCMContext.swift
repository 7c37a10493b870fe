// AES-GCM (NIST SP 800-38D) with the key expanded once: the engine under `AES.GCM` and the
// record protection of TLS, which seals and opens thousands of records under one key, in place.
//
// Encryption is GCTR from inc32(J0) on the bitsliced AES (eight blocks a call, the first round
// cached for long inputs as in CTR mode, AESCTRFirstRound.swift); authentication is the
// constant-time GHASH (GHASH.swift). Opening computes and checks the tag before it decrypts,
// so a forged record never yields plaintext, and every failure is the one
// `CryptoError.authenticationFailure`.

import CryptoCore

/// An AES key expanded for GCM, with its GHASH key. Not for concurrent use (the first-round
/// cache changes as it runs); the caller gives each connection direction its own.
package final class AESGCMContext {
    /// The tag length; GCM's full 16 bytes are the only length offered (SP 800-38D §5.2.1.2).
    package static let tagByteCount = 16
    /// The longest plaintext SP 800-38D §5.2.1.1 allows: 2³⁹ − 256 bits.
    static let maximumTextByteCount = (1 << 36) - 32

    private let cipher: AESBitslicedConstantTime
    private var hashKey: GHASHKey
    /// Built on the first long input (its table costs about 1 KiB of encryption).
    private var firstRound: AESCTRFirstRound?

    /// Expands a 16-, 24- or 32-byte key; other lengths throw `CryptoError.incorrectLength`.
    package init(key: SymmetricKey) throws(CryptoError) {
        cipher = try AES.expand(key)
        // Four blocks of zeros through the cipher; block 0 is H = E_K(0¹²⁸) (§6.4).
        var blocks = InlineArray<8, UInt64>(repeating: 0)
        let cipher = cipher
        withUnsafeMutableBytes(of: &blocks) { raw in
            guard let base = raw.baseAddress else { return }
            cipher.encrypt(base, base, lanes: UInt64.self)
        }
        hashKey = GHASHKey(high: UInt64(bigEndian: blocks[0]), low: UInt64(bigEndian: blocks[1]))
        withUnsafeMutableBytes(of: &blocks) { SecretBytes.wipe($0) }
    }

    deinit { hashKey.wipe() }

    /// Encrypts `text` in place and writes the 16-byte tag to `tag` (SP 800-38D §7.1).
    /// `nonce` may be any non-empty length (12 bytes is the fast and usual one).
    package func seal(_ text: UnsafeMutableRawBufferPointer, nonce: UnsafeRawBufferPointer,
                      authenticating aad: UnsafeRawBufferPointer, tag: UnsafeMutableRawBufferPointer) throws(CryptoError) {
        guard tag.count == Self.tagByteCount else { throw .incorrectLength }
        guard text.count <= Self.maximumTextByteCount else { throw .invalidParameter }
        let j0 = try preCounterBlock(nonce)
        applyKeystream(text, preCounterBlock: j0)
        computeTag(aad: aad, ciphertext: UnsafeRawBufferPointer(text), preCounterBlock: j0, into: tag)
    }

    /// Checks the tag of `text` (ciphertext) and, only if it matches, decrypts it in place
    /// (SP 800-38D §7.2). A mismatch throws `CryptoError.authenticationFailure` and leaves
    /// `text` as it was; the comparison is constant time.
    package func open(_ text: UnsafeMutableRawBufferPointer, nonce: UnsafeRawBufferPointer,
                      authenticating aad: UnsafeRawBufferPointer, tag: UnsafeRawBufferPointer) throws(CryptoError) {
        guard tag.count == Self.tagByteCount, text.count <= Self.maximumTextByteCount, !nonce.isEmpty else { throw .authenticationFailure }
        let j0: UInt128
        do { j0 = try preCounterBlock(nonce) } catch { throw .authenticationFailure }
        var expected = InlineArray<16, UInt8>(repeating: 0)
        let matches = withUnsafeMutableBytes(of: &expected) { raw in
            computeTag(aad: aad, ciphertext: UnsafeRawBufferPointer(text), preCounterBlock: j0, into: raw)
            let equal = ConstantTime.isEqual(UnsafeRawBufferPointer(raw), tag)
            SecretBytes.wipe(raw)
            return equal
        }
        guard matches.isTrueVartime else { throw .authenticationFailure }  // public: the verdict
        applyKeystream(text, preCounterBlock: j0)
    }

    /// J0 (§7.1 step 2): IV ‖ 0³¹ ‖ 1 for a 96-bit IV, else GHASH(IV ‖ 0^(s+64) ‖ [len(IV)]₆₄).
    private func preCounterBlock(_ nonce: UnsafeRawBufferPointer) throws(CryptoError) -> UInt128 {
        guard let base = nonce.baseAddress, !nonce.isEmpty else { throw .incorrectLength }
        if nonce.count == 12 {
            let high = UInt64(bigEndian: base.loadUnaligned(as: UInt64.self))
            let middle = UInt32(bigEndian: base.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
            return (UInt128(high) << 64) | (UInt128(middle) << 32) | 1
        }
        var hash = GHASHAccumulator()
        hash.absorbPadded(nonce, key: hashKey)
        hash.absorbLengths(0, nonce.count, key: hashKey)
        return (UInt128(hash.state.high) << 64) | UInt128(hash.state.low)
    }

    /// XORs GCTR's keystream from inc32(J0) into `text` (§6.5): counter blocks keep J0's upper
    /// 96 bits and add to its low 32 modulo 2³² (§6.2).
    private func applyKeystream(_ text: UnsafeMutableRawBufferPointer, preCounterBlock j0: UInt128) {
        guard let base = text.baseAddress, !text.isEmpty else { return }
        let upper = j0 & ~UInt128(0xFFFF_FFFF)
        var low = UInt32(truncatingIfNeeded: j0) &+ 1
        if text.count >= AESCTRFirstRound.minimumByteCount && firstRound == nil {
            firstRound = AESCTRFirstRound(cipher: cipher)
        }
        let cache = text.count >= AESCTRFirstRound.minimumByteCount ? firstRound : nil
        let cipher = cipher
        var position = 0
        var blocks = InlineArray<16, UInt64>(repeating: 0)
        withUnsafeMutableBytes(of: &blocks) { scratch in
            guard let blockBase = scratch.baseAddress else { return }
            while text.count - position >= 128 {
                let counter = upper | UInt128(low)
                // The cache holds for eight blocks whose last counter byte does not carry
                // (public: the counter), where inc32 and the 128-bit increment agree.
                if let cache, AESCTRFirstRound.covers(counter) {
                    let state = cache.firstRounds(counter: counter, scratch: blockBase)
                    cipher.encryptAfterFirstRound(state, xoringInto: base + position)
                } else {
                    Self.writeCounterBlocks(upper: upper, low: low, into: blockBase)
                    cipher.encrypt(blockBase, xoringInto: base + position, lanes: AESTwoLanes.self)
                }
                low &+= 8
                position += 128
            }
            if position < text.count {
                Self.writeCounterBlocks(upper: upper, low: low, into: blockBase)
                cipher.encrypt(blockBase, blockBase, lanes: AESTwoLanes.self)
                let rest = text.count - position
                for index in 0..<rest {
                    base.storeBytes(of: base.load(fromByteOffset: position + index, as: UInt8.self)
                                        ^ blockBase.load(fromByteOffset: index, as: UInt8.self),
                                    toByteOffset: position + index, as: UInt8.self)
                }
            }
            SecretBytes.wipe(scratch)
        }
    }

    /// T = E_K(J0) ⊕ GHASH(A ‖ 0ᵛ ‖ C ‖ 0ᵘ ‖ [len(A)]₆₄ ‖ [len(C)]₆₄) (§7.1 steps 5–6).
    private func computeTag(aad: UnsafeRawBufferPointer, ciphertext: UnsafeRawBufferPointer, preCounterBlock j0: UInt128,
                            into tag: UnsafeMutableRawBufferPointer) {
        var hash = GHASHAccumulator()
        hash.absorbPadded(aad, key: hashKey)
        hash.absorbPadded(ciphertext, key: hashKey)
        hash.absorbLengths(aad.count, ciphertext.count, key: hashKey)
        var blocks = InlineArray<8, UInt64>(repeating: 0)
        withUnsafeMutableBytes(of: &blocks) { raw in
            guard let blockBase = raw.baseAddress, let tagBase = tag.baseAddress else { return }
            blockBase.storeBytes(of: UInt64(truncatingIfNeeded: j0 >> 64).bigEndian, as: UInt64.self)
            blockBase.storeBytes(of: UInt64(truncatingIfNeeded: j0).bigEndian, toByteOffset: 8, as: UInt64.self)
            cipher.encrypt(blockBase, blockBase, lanes: UInt64.self)
            let high = UInt64(bigEndian: blockBase.loadUnaligned(as: UInt64.self)) ^ hash.state.high
            let low = UInt64(bigEndian: blockBase.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) ^ hash.state.low
            tagBase.storeBytes(of: high.bigEndian, as: UInt64.self)
            tagBase.storeBytes(of: low.bigEndian, toByteOffset: 8, as: UInt64.self)
            SecretBytes.wipe(raw)
        }
        hash.wipe()
    }

    /// Eight counter blocks: `upper` (J0's upper 96 bits) with low + 0 … low + 7 mod 2³².
    @inline(__always)
    private static func writeCounterBlocks(upper: UInt128, low: UInt32, into blocks: UnsafeMutableRawPointer) {
        let high = UInt64(truncatingIfNeeded: upper >> 64).bigEndian
        let middle = UInt32(truncatingIfNeeded: upper >> 32).bigEndian
        for block in 0..<8 {
            blocks.storeBytes(of: high, toByteOffset: 16 * block, as: UInt64.self)
            blocks.storeBytes(of: middle, toByteOffset: 16 * block + 8, as: UInt32.self)
            blocks.storeBytes(of: (low &+ UInt32(block)).bigEndian, toByteOffset: 16 * block + 12, as: UInt32.self)
        }
    }
}
