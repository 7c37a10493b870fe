// Our recorded vectors (Vectors/aes/aes-gcm.json, Vectors/aead/) for the two AEADs.

import CryptoPrimitives
import VectorFormats

enum OwnAEAD {
    /// The checker for `AES-GCM` or `CHACHA20-POLY1305`, or nil for another algorithm.
    static func checker(for algorithm: String) -> ((OwnVectorFile.Case) throws(VectorFormatError) -> OwnSymmetric.Outcome)? {
        switch algorithm {
        case "AES-GCM": { (c) throws(VectorFormatError) in try check(c, seal: sealGCM, open: openGCM) }
        case "CHACHA20-POLY1305": { (c) throws(VectorFormatError) in try check(c, seal: sealChaChaPoly, open: openChaChaPoly) }
        default: nil
        }
    }

    /// A valid case must seal to `ct ‖ tag` and open back; an invalid one must fail to open.
    private static func check(_ c: OwnVectorFile.Case,
                              seal: (SymmetricKey, [UInt8], [UInt8], [UInt8]) throws(CryptoError) -> [UInt8],
                              open: (SymmetricKey, [UInt8], [UInt8], [UInt8], [UInt8]) throws(CryptoError) -> [UInt8]) throws(VectorFormatError) -> OwnSymmetric.Outcome {
        let key = SymmetricKey(data: try c.input("key")), nonce = try c.input("nonce"), aad = try c.input("aad")
        guard c.isValid else {
            let ct = try c.input("ct"), tag = try c.input("tag")
            do throws(CryptoError) {
                _ = try open(key, nonce, aad, ct, tag)
                return .rejected(false)
            } catch {
                return .rejected(true)
            }
        }
        let pt = try c.input("pt"), ct = try c.output("ct"), tag = try c.output("tag")
        do throws(CryptoError) {
            let sealed = try seal(key, nonce, aad, pt)
            let opened = try open(key, nonce, aad, ct, tag)
            return .compare(opened == pt ? sealed : nil, ct + tag)
        } catch {
            return .compare(nil, ct + tag)
        }
    }

    private static func sealGCM(_ key: SymmetricKey, _ nonce: [UInt8], _ aad: [UInt8], _ pt: [UInt8]) throws(CryptoError) -> [UInt8] {
        let box = try AES.GCM.seal(pt, using: key, nonce: AES.GCM.Nonce(data: nonce), authenticating: aad)
        return box.ciphertext + box.tag
    }

    private static func openGCM(_ key: SymmetricKey, _ nonce: [UInt8], _ aad: [UInt8], _ ct: [UInt8], _ tag: [UInt8]) throws(CryptoError) -> [UInt8] {
        try AES.GCM.open(AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: nonce), ciphertext: ct, tag: tag), using: key, authenticating: aad)
    }

    private static func sealChaChaPoly(_ key: SymmetricKey, _ nonce: [UInt8], _ aad: [UInt8], _ pt: [UInt8]) throws(CryptoError) -> [UInt8] {
        let box = try ChaChaPoly.seal(pt, using: key, nonce: ChaChaPoly.Nonce(data: nonce), authenticating: aad)
        return box.ciphertext + box.tag
    }

    private static func openChaChaPoly(_ key: SymmetricKey, _ nonce: [UInt8], _ aad: [UInt8], _ ct: [UInt8], _ tag: [UInt8]) throws(CryptoError) -> [UInt8] {
        try ChaChaPoly.open(ChaChaPoly.SealedBox(nonce: ChaChaPoly.Nonce(data: nonce), ciphertext: ct, tag: tag), using: key, authenticating: aad)
    }
}
