// Signature encodings: EMSA-PKCS1-v1_5 (RFC 8017 §9.2) and EMSA-PSS (§9.1).

import CryptoCore

package enum RSASignaturePadding {
    /// EMSA-PKCS1-v1_5: 00 ‖ 01 ‖ FF… ‖ 00 ‖ DigestInfo(hash, digest), emLen bytes.
    package static func pkcs1Encode(digest: [UInt8], hash: HashAlgorithm, emLength: Int) throws(CryptoError) -> [UInt8] {
        // A digest of the algorithm's length follows the algorithm's fixed prefix (§9.2 note 1).
        let t = digest.count == hash.byteCount ? digestInfoPrefix(hash) + digest : digestInfo(hash: hash, digest: digest)
        guard emLength >= t.count + 11 else { throw .incorrectLength }  // §9.2 step 3
        var em = [UInt8](repeating: 0xFF, count: emLength)                // PS, then the rest over it
        em[0] = 0x00
        em[1] = 0x01
        em[emLength - t.count - 1] = 0x00
        em.replaceSubrange((emLength - t.count)..., with: t)
        return em
    }

    /// DigestInfo ::= SEQUENCE { SEQUENCE { hash OID, NULL }, OCTET STRING digest } in DER
    /// (§9.2 step 2).
    static func digestInfo(hash: HashAlgorithm, digest: [UInt8]) -> [UInt8] {
        var writer = DER.Writer()
        writer.sequence { info in
            info.sequence { algorithm in
                algorithm.objectIdentifier(hash.objectIdentifier)
                algorithm.null()
            }
            info.octetString(digest)
        }
        return writer.bytes
    }

    /// The DigestInfo bytes before a digest of `hash`'s length: the fixed prefixes of §9.2 note 1,
    /// each encoded once, so a signature or verification does not build the DER again.
    package static func digestInfoPrefix(_ hash: HashAlgorithm) -> [UInt8] {
        switch hash {
        case .insecureSHA1: sha1Prefix
        case .sha224: sha224Prefix
        case .sha256: sha256Prefix
        case .sha384: sha384Prefix
        case .sha512: sha512Prefix
        }
    }

    private static func encodedPrefix(_ hash: HashAlgorithm) -> [UInt8] {
        Array(digestInfo(hash: hash, digest: [UInt8](repeating: 0, count: hash.byteCount)).dropLast(hash.byteCount))
    }

    private static let sha1Prefix = encodedPrefix(.insecureSHA1)
    private static let sha224Prefix = encodedPrefix(.sha224)
    private static let sha256Prefix = encodedPrefix(.sha256)
    private static let sha384Prefix = encodedPrefix(.sha384)
    private static let sha512Prefix = encodedPrefix(.sha512)

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
