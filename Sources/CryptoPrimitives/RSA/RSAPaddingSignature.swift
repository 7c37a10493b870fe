// Signature encodings: EMSA-PKCS1-v1_5 (RFC 8017 §9.2) and EMSA-PSS (§9.1).

import CryptoCore

package enum RSASignaturePadding {
    /// EMSA-PKCS1-v1_5: 00 ‖ 01 ‖ FF… ‖ 00 ‖ DigestInfo(hash, digest), emLen bytes.
    package static func pkcs1Encode(digest: [UInt8], hash: HashAlgorithm, emLength: Int) throws(CryptoError) -> [UInt8] {
        var writer = DER.Writer()
        writer.sequence { info in
            info.sequence { algorithm in
                algorithm.objectIdentifier(hash.objectIdentifier)
                algorithm.null()
            }
            info.octetString(digest)
        }
        let t = writer.bytes
        guard emLength >= t.count + 11 else { throw .incorrectLength }  // §9.2 step 3
        return [0x00, 0x01] + [UInt8](repeating: 0xFF, count: emLength - t.count - 3) + [0x00] + t
    }

    /// EMSA-PSS encoding of a message digest with a salt, for emBits = modBits − 1.
    static func pssEncode(digest: [UInt8], hash: HashAlgorithm, salt: [UInt8], emBits: Int) throws(CryptoError) -> [UInt8] {
        let hLen = hash.byteCount, emLength = (emBits + 7) / 8
        guard emLength >= hLen + salt.count + 2 else { throw .incorrectLength }  // §9.1.1 step 3
        let h = hash.hash([UInt8](repeating: 0, count: 8) + digest + salt)     // steps 5–6
        let db = [UInt8](repeating: 0, count: emLength - salt.count - hLen - 2) + [0x01] + salt
        var maskedDB = zip(db, hash.mgf1(seed: h, length: emLength - hLen - 1)).map { $0 ^ $1 }
        maskedDB[0] &= 0xFF >> UInt8(8 * emLength - emBits)                      // step 11
        return maskedDB + h + [0xBC]
    }

    /// EMSA-PSS verification (§9.1.2). `saltLength` nil accepts any salt length.
    /// Inputs are public (a signature and a message), so the checks may stop early.
    static func pssVerify(digest: [UInt8], encoded em: [UInt8], hash: HashAlgorithm, saltLength: Int?, emBits: Int) -> Bool {
        let hLen = hash.byteCount, emLength = (emBits + 7) / 8
        guard em.count == emLength, emLength >= hLen + (saltLength ?? 0) + 2, em.last == 0xBC else { return false }
        let maskedDB = Array(em[0..<(emLength - hLen - 1)]), h = Array(em[(emLength - hLen - 1)..<(emLength - 1)])
        let topMask: UInt8 = 0xFF >> UInt8(8 * emLength - emBits)
        guard maskedDB[0] & ~topMask == 0 else { return false }                   // step 6
        var db = zip(maskedDB, hash.mgf1(seed: h, length: maskedDB.count)).map { $0 ^ $1 }
        db[0] &= topMask
        guard let one = db.firstIndex(where: { $0 != 0 }), db[one] == 0x01 else { return false }  // step 10
        let salt = Array(db[(one + 1)...])
        if let saltLength, salt.count != saltLength { return false }
        return hash.hash([UInt8](repeating: 0, count: 8) + digest + salt) == h
    }
}
