// Ephemeral key shares (RFC 8446 §4.2.8; RFC 8422 §5.4 for TLS 1.2's ServerKeyExchange):
// X25519 (RFC 7748 §6.1) and the NIST curves as uncompressed points (RFC 8446 §4.2.8.2).

import CryptoPrimitives

/// An ephemeral private key of one group, used for one handshake.
enum KeyShare {
    case x25519(Curve25519.KeyAgreement.PrivateKey)
    case secp256r1(P256.KeyAgreement.PrivateKey)
    case secp384r1(P384.KeyAgreement.PrivateKey)

    /// A fresh key for `group`; nil for a group not offered.
    init?(group: TLSNamedGroup, random: inout some RandomSource) throws(TLSError) {
        do throws(CryptoError) {
            switch group {
            case .x25519: self = .x25519(try Curve25519.KeyAgreement.PrivateKey(using: &random))
            case .secp256r1: self = .secp256r1(try P256.KeyAgreement.PrivateKey(using: &random))
            case .secp384r1: self = .secp384r1(try P384.KeyAgreement.PrivateKey(using: &random))
            default: return nil
            }
        } catch {
            throw .violation(.internalError, "the random source failed")
        }
    }

    var group: TLSNamedGroup {
        switch self {
        case .x25519: .x25519
        case .secp256r1: .secp256r1
        case .secp384r1: .secp384r1
        }
    }

    /// The public share as sent: 32 bytes, or 04 ‖ X ‖ Y.
    var publicBytes: [UInt8] {
        switch self {
        case .x25519(let key): key.publicKey.rawRepresentation
        case .secp256r1(let key): key.publicKey.x963Representation
        case .secp384r1(let key): key.publicKey.x963Representation
        }
    }

    /// The shared secret with the peer's share (RFC 8446 §7.4.1: the x-coordinate for the
    /// NIST curves; §7.4.2: X25519's output). A malformed share, a point off the curve or an
    /// all-zero X25519 result is `illegal_parameter`.
    func sharedSecret(with peer: [UInt8]) throws(TLSError) -> SymmetricKey {
        do throws(CryptoError) {
            let shared: SharedSecret
            switch self {
            case .x25519(let key):
                shared = try key.sharedSecretFromKeyAgreement(with: Curve25519.KeyAgreement.PublicKey(rawRepresentation: peer))
            case .secp256r1(let key):
                // RFC 8446 §4.2.8.2: uncompressed points only.
                guard peer.count == 65 else { throw CryptoError.invalidEncoding }
                shared = try key.sharedSecretFromKeyAgreement(with: P256.KeyAgreement.PublicKey(x963Representation: peer))
            case .secp384r1(let key):
                guard peer.count == 97 else { throw CryptoError.invalidEncoding }
                shared = try key.sharedSecretFromKeyAgreement(with: P384.KeyAgreement.PublicKey(x963Representation: peer))
            }
            return SymmetricKey(secret: shared.secret)
        } catch {
            throw .violation(.illegalParameter, "the server's \(group) key share was refused")
        }
    }
}
