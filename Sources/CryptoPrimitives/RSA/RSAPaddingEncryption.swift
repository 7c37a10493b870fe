// Encryption paddings: EME-OAEP (RFC 8017 §7.1.1, §7.1.2) and EME-PKCS1-v1_5 (§7.2.1, §7.2.2).
// Decoding reads the whole block and folds every check into one mask before a single branch,
// so that no failure is distinguishable from another by error or by time (BearSSL's model).

import CryptoCore

enum RSAEncryptionPadding {
    /// EME-OAEP encoding of `message` into k bytes.
    static func oaepEncode(_ message: [UInt8], label: [UInt8], hash: HashAlgorithm, mgf1Hash: HashAlgorithm, k: Int,
                           random: inout some RandomSource) throws(CryptoError) -> [UInt8] {
        let hLen = hash.byteCount
        guard k >= 2 * hLen + 2, message.count <= k - 2 * hLen - 2 else { throw .incorrectLength }   // §7.1.1 step 1
        let db = hash.hash(label) + [UInt8](repeating: 0, count: k - message.count - 2 * hLen - 2) + [0x01] + message
        let seed = try random.bytes(count: hLen)
        let maskedDB = zip(db, mgf1Hash.mgf1(seed: seed, length: k - hLen - 1)).map { $0 ^ $1 }
        let maskedSeed = zip(seed, mgf1Hash.mgf1(seed: maskedDB, length: hLen)).map { $0 ^ $1 }
        return [0x00] + maskedSeed + maskedDB
    }

    /// EME-OAEP decoding; every failure is `CryptoError.authenticationFailure`.
    static func oaepDecode(_ em: [UInt8], label: [UInt8], hash: HashAlgorithm, mgf1Hash: HashAlgorithm) throws(CryptoError) -> [UInt8] {
        let k = em.count, hLen = hash.byteCount
        guard k >= 2 * hLen + 2 else { throw .authenticationFailure }
        let maskedSeed = em[1...hLen], maskedDB = em[(hLen + 1)...]
        let seed = zip(maskedSeed, mgf1Hash.mgf1(seed: maskedDB, length: hLen)).map { $0 ^ $1 }
        let db = zip(maskedDB, mgf1Hash.mgf1(seed: seed, length: k - hLen - 1)).map { $0 ^ $1 }
        var good = UInt64(em[0]).isZero & ConstantTime.isEqual(db.prefix(hLen), hash.hash(label))
        // Find the 0x01 after the zero padding without stopping early (§7.1.2 step 3g).
        var lookingForOne = Choice.true
        var invalid = Choice.false
        var separator: UInt64 = 0
        for i in hLen..<db.count {
            let byte = UInt64(db[i])
            let isOne = byte.isEqual(to: 1)
            separator = UInt64.select(UInt64(i), separator, if: lookingForOne & isOne)
            invalid = invalid | (lookingForOne & !isOne & !byte.isZero)
            lookingForOne = lookingForOne & !isOne
        }
        good = good & !lookingForOne & !invalid
        guard good.isTrueVartime else { throw .authenticationFailure }
        return Array(db[(Int(separator) + 1)...])
    }

    /// EME-PKCS1-v1_5 encoding: 00 ‖ 02 ‖ PS (≥ 8 random non-zero bytes) ‖ 00 ‖ M.
    static func pkcs1Encode(_ message: [UInt8], k: Int, random: inout some RandomSource) throws(CryptoError) -> [UInt8] {
        guard message.count <= k - 11 else { throw .incorrectLength }   // §7.2.1 step 1
        var padding: [UInt8] = []
        while padding.count < k - message.count - 3 {
            padding += try random.bytes(count: k - message.count - 3 - padding.count).filter { $0 != 0 }
        }
        return [0x00, 0x02] + padding + [0x00] + message
    }

    /// EME-PKCS1-v1_5 decoding; every failure is `CryptoError.authenticationFailure`.
    static func pkcs1Decode(_ em: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard em.count >= 11 else { throw .authenticationFailure }
        var good = UInt64(em[0]).isZero & UInt64(em[1]).isEqual(to: 2)
        var lookingForZero = Choice.true
        var separator: UInt64 = 0
        for i in 2..<em.count {
            let isZero = UInt64(em[i]).isZero
            separator = UInt64.select(UInt64(i), separator, if: lookingForZero & isZero)
            lookingForZero = lookingForZero & !isZero
        }
        // At least eight bytes of padding: the separator is at index 10 or later.
        good = good & !lookingForZero & !separator.isLess(than: 10)
        guard good.isTrueVartime else { throw .authenticationFailure }
        return Array(em[(Int(separator) + 1)...])
    }

    /// EME-PKCS1-v1_5 decoding of a message whose length is known in advance: `em` must be
    /// 00 ‖ 02 ‖ PS ‖ 00 ‖ M with |M| = `messageByteCount` and every byte of PS non-zero.
    /// Returns M (whatever the verdict) and the verdict as a mask; no branch and no index
    /// depends on `em` (the separator's position is fixed by the public length).
    static func pkcs1DecodeFixedLength(_ em: [UInt8], messageByteCount: Int) -> (message: [UInt8], isValid: Choice) {
        let separator = em.count - messageByteCount - 1
        var good = UInt64(em[0]).isZero & UInt64(em[1]).isEqual(to: 2) & UInt64(em[separator]).isZero
        for i in 2..<separator {
            good = good & !UInt64(em[i]).isZero
        }
        return (Array(em[(separator + 1)...]), good)
    }
}
