// diff-aead, diff-x25519, diff-p384: the primitives under TLS against BoringSSL (swift-crypto).
//   diff-aead   byte 0: AES-GCM (key 16/24/32 by byte 1) or ChaCha20-Poly1305; then nonce
//               (12 bytes, or 12–75 for GCM one time in four: the reference takes no shorter
//               nonce), a 0–64-byte aad and the message.
//               Sealing must agree byte for byte; opening the reference's box must give the
//               message back; a box with one byte changed (chosen by the input) must be refused
//               by both.
//   diff-x25519 32-byte scalar and 32-byte u-coordinate: the same public key, and the same
//               shared secret, except that where the reference returns the all-zero secret
//               (it does not check) ours must refuse (RFC 8446 §7.4.2).
//   diff-p384   byte 0: ECDH (a 48-byte scalar and a peer point of any length: both refuse or
//               agree) or ECDSA verification (a fixed key, a DER signature of any bytes over a
//               message: the same verdict; every fourth input is a valid signature, changed or not).
import Crypto
import CryptoPrimitives
import Foundation

extension FuzzTarget {
    static let differentialTLSPrimitives: [FuzzTarget] = [
        FuzzTarget("diff-aead") { input in TLSPrimitivesDifferential.aead(input) },
        FuzzTarget("diff-x25519") { input in TLSPrimitivesDifferential.x25519(input) },
        FuzzTarget("diff-p384") { input in TLSPrimitivesDifferential.p384(input) },
    ]
}

enum TLSPrimitivesDifferential {
    static func aead(_ input: [UInt8]) {
        var reader = PrimitiveFuzzInput(input)
        let gcm = reader.byte() & 1 == 0
        let choice = reader.byte()
        let key = reader.bytes(gcm ? [16, 24, 32][Int(choice) % 3] : 32)
        guard key.count == (gcm ? [16, 24, 32][Int(choice) % 3] : 32) else { return }
        let nonceLength = gcm && choice & 0xC0 == 0xC0 ? Int(reader.byte() % 64) + 12 : 12
        let nonce = reader.bytes(nonceLength)
        guard nonce.count == nonceLength else { return }
        let aad = reader.bytes(Int(reader.byte() % 65))
        let flip = reader.uint16()
        let message = reader.rest()
        let ourKey = CryptoPrimitives.SymmetricKey(data: key), theirKey = Crypto.SymmetricKey(data: key)
        let ours: [UInt8]?, theirs: [UInt8]?
        if gcm {
            ours = (try? CryptoPrimitives.AES.GCM.seal(message, using: ourKey, nonce: .init(data: nonce), authenticating: aad)).map { $0.ciphertext + $0.tag }
            theirs = (try? Crypto.AES.GCM.seal(message, using: theirKey, nonce: .init(data: nonce), authenticating: aad)).map { Array($0.ciphertext) + Array($0.tag) }
        } else {
            ours = (try? CryptoPrimitives.ChaChaPoly.seal(message, using: ourKey, nonce: .init(data: nonce), authenticating: aad)).map { $0.ciphertext + $0.tag }
            theirs = (try? Crypto.ChaChaPoly.seal(message, using: theirKey, nonce: .init(data: nonce), authenticating: aad)).map { Array($0.ciphertext) + Array($0.tag) }
        }
        guard let theirs, ours == theirs else {
            FuzzTarget.mismatch("\(gcm ? "AES-GCM" : "ChaCha20-Poly1305") seal: key \(key.count), nonce \(nonce.count), aad \(aad.count), \(message.count) bytes", input)
        }
        // Open the reference's box, then the same box with one byte changed.
        var changed = theirs
        changed[flip % changed.count] ^= UInt8(flip >> 8) | 1
        for (box, valid) in [(theirs, true), (changed, false)] {
            let ciphertext = Array(box.dropLast(16)), tag = Array(box.suffix(16))
            let opened: [UInt8]?
            if gcm {
                opened = try? CryptoPrimitives.AES.GCM.open(.init(nonce: .init(data: nonce), ciphertext: ciphertext, tag: tag), using: ourKey, authenticating: aad)
            } else {
                opened = try? CryptoPrimitives.ChaChaPoly.open(.init(nonce: .init(data: nonce), ciphertext: ciphertext, tag: tag), using: ourKey, authenticating: aad)
            }
            guard valid ? opened == message : opened == nil else {
                FuzzTarget.mismatch("\(gcm ? "AES-GCM" : "ChaCha20-Poly1305") open of a \(valid ? "valid" : "changed") box", input)
            }
        }
    }

    static func x25519(_ input: [UInt8]) {
        var reader = PrimitiveFuzzInput(input)
        let scalar = reader.bytes(32), peer = reader.bytes(32)
        guard scalar.count == 32, peer.count == 32,
              let ours = try? CryptoPrimitives.Curve25519.KeyAgreement.PrivateKey(rawRepresentation: scalar),
              let theirs = try? Crypto.Curve25519.KeyAgreement.PrivateKey(rawRepresentation: scalar) else { return }
        guard ours.publicKey.rawRepresentation == Array(theirs.publicKey.rawRepresentation) else {
            FuzzTarget.mismatch("X25519 public key", input)
        }
        let ourSecret = (try? ours.sharedSecretFromKeyAgreement(with: .init(rawRepresentation: peer)))?.secret.unsafeExposedBytes
        let theirSecret = (try? theirs.sharedSecretFromKeyAgreement(with: .init(rawRepresentation: peer))).map { $0.withUnsafeBytes { Array($0) } }
        // swift-crypto returns the all-zero secret of a small-order point; ours refuses it.
        let expected = theirSecret == [UInt8](repeating: 0, count: 32) ? nil : theirSecret
        guard ourSecret == expected else { FuzzTarget.mismatch("X25519 shared secret", input) }
    }

    /// A fixed P-384 signing key of the reference's, and its public key.
    static let signer = Crypto.P384.Signing.PrivateKey()

    static func p384(_ input: [UInt8]) {
        var reader = PrimitiveFuzzInput(input)
        if reader.byte() & 1 == 0 {
            let scalar = reader.bytes(48), peer = reader.rest()
            guard scalar.count == 48 else { return }
            let ours = try? CryptoPrimitives.P384.KeyAgreement.PrivateKey(rawRepresentation: scalar)
            let theirs = try? Crypto.P384.KeyAgreement.PrivateKey(rawRepresentation: scalar)
            guard (ours == nil) == (theirs == nil) else { FuzzTarget.mismatch("P-384 scalar acceptance", input) }
            guard let ours, let theirs else { return }
            guard ours.publicKey.x963Representation == Array(theirs.publicKey.x963Representation) else { FuzzTarget.mismatch("P-384 public key", input) }
            let ourPeer = try? CryptoPrimitives.P384.KeyAgreement.PublicKey(x963Representation: peer)
            let theirPeer = peer.count == 97 ? try? Crypto.P384.KeyAgreement.PublicKey(x963Representation: peer) : nil
            guard (ourPeer == nil) == (theirPeer == nil) else { FuzzTarget.mismatch("P-384 peer point acceptance (\(peer.count) bytes)", input) }
            guard let ourPeer, let theirPeer else { return }
            let ourSecret = (try? ours.sharedSecretFromKeyAgreement(with: ourPeer))?.secret.unsafeExposedBytes
            let theirSecret = (try? theirs.sharedSecretFromKeyAgreement(with: theirPeer)).map { $0.withUnsafeBytes { Array($0) } }
            guard ourSecret == theirSecret else { FuzzTarget.mismatch("P-384 shared secret", input) }
        } else {
            let makeValid = reader.byte() & 3 == 0
            let message = reader.bytes(Int(reader.byte()))
            var signature = reader.rest()
            if makeValid, let valid = try? signer.signature(for: message).derRepresentation {
                signature = Array(valid)
                if let change = signature.indices.randomElement(), input.count & 1 == 1 { signature[change] ^= 0x01 }
            }
            let key = try? CryptoPrimitives.P384.Signing.PublicKey(x963Representation: Array(signer.publicKey.x963Representation))
            let ours = (try? CryptoPrimitives.P384.Signing.ECDSASignature(derRepresentation: signature)).map { key?.isValidSignature($0, for: message) == true } ?? false
            let theirs = (try? Crypto.P384.Signing.ECDSASignature(derRepresentation: signature)).map { signer.publicKey.isValidSignature($0, for: message) } ?? false
            guard ours == theirs else { FuzzTarget.mismatch("P-384 ECDSA verdict (ours \(ours), BoringSSL \(theirs))", input) }
        }
    }
}
