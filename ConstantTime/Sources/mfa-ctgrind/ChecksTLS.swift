// The checks of the primitives under TLS: the two AEADs (keystream, GHASH or Poly1305, and the
// tag comparison, whose verdict alone is public), and X25519 and P-384 key agreement with
// secret scalars (key generation and the shared secret).
import CryptoPrimitives

extension Check {
    static let aead: [Check] = [
        Check(name: "aes-gcm") {
            for size in [16, 32] {
                let key = SymmetricKey(data: Secret.bytes((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 13) }))
                let nonce = try AES.GCM.Nonce(data: [UInt8](repeating: 0x31, count: 12))
                let aad = Array("header".utf8)
                // 100 bytes: the plain counter path; 8 KiB: the cached first round.
                for length in [100, 8192] {
                    let message = Secret.bytes([UInt8](repeating: 0x5C, count: length))
                    let box = try AES.GCM.seal(message, using: key, nonce: nonce, authenticating: aad)
                    Secret.publish(box.ciphertext)
                    Secret.publish(box.tag)
                    Secret.publish(try AES.GCM.open(box, using: key, authenticating: aad))
                    // A forged tag: only the refusal is public.
                    var tag = box.tag
                    tag[0] ^= 1
                    let forged = try AES.GCM.SealedBox(nonce: nonce, ciphertext: box.ciphertext, tag: tag)
                    Secret.publish((try? AES.GCM.open(forged, using: key, authenticating: aad)) == nil)
                }
                // A nonce that is not 96 bits goes through GHASH under the secret key.
                let long = try AES.GCM.Nonce(data: [UInt8](repeating: 0x42, count: 16))
                Secret.publish(try AES.GCM.seal(Secret.bytes([1, 2, 3]), using: key, nonce: long).tag)
            }
        },
        Check(name: "chacha20-poly1305") {
            let key = SymmetricKey(data: Secret.bytes((0..<32).map { UInt8($0 &* 3) }))
            let nonce = try ChaChaPoly.Nonce(data: [UInt8](repeating: 7, count: 12))
            let message = Secret.bytes([UInt8](repeating: 0x3A, count: 300))
            let box = try ChaChaPoly.seal(message, using: key, nonce: nonce, authenticating: Array("aad".utf8))
            Secret.publish(box.ciphertext)
            Secret.publish(box.tag)
            Secret.publish(try ChaChaPoly.open(box, using: key, authenticating: Array("aad".utf8)))
            var tag = box.tag
            tag[15] ^= 0x80
            let forged = try ChaChaPoly.SealedBox(nonce: nonce, ciphertext: box.ciphertext, tag: tag)
            Secret.publish((try? ChaChaPoly.open(forged, using: key, authenticating: Array("aad".utf8))) == nil)
        },
    ]

    static let tlsCurves: [Check] = [
        Check(name: "x25519-ecdh") {
            let key = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: Secret.bytes((1...32).map { UInt8($0 &* 5) }))
            Secret.publish(key.publicKey.rawRepresentation)
            let peer = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: (1...32).map { UInt8($0) }).publicKey
            Secret.publish(try key.sharedSecretFromKeyAgreement(with: peer).secret)
        },
        Check(name: "p384-ecdh") {
            let key = try P384.KeyAgreement.PrivateKey(rawRepresentation: Secret.bytes([0x01] + (1...47).map { UInt8($0) }))
            Secret.publish(key.publicKey.x963Representation)
            let peer = try P384.KeyAgreement.PrivateKey(rawRepresentation: [0x02] + (1...47).map { UInt8($0) }).publicKey
            Secret.publish(try key.sharedSecretFromKeyAgreement(with: peer).secret)
        },
    ]
}
