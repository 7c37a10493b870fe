// The two prime curves the EC vector files are run on, behind one set of calls, so the
// Wycheproof (WycheproofEC.swift) and ACVP (ACVPECDSA.swift) checkers are written once.

import CryptoCore
import CryptoPrimitives
import VectorFormats

/// secp256r1 or secp384r1, with the engine's keys for each.
enum CurveChoice: CustomStringConvertible {
    case p256
    case p384

    /// A verification public key of either curve.
    enum VerificationKey: Equatable {
        case p256(P256.Signing.PublicKey)
        case p384(P384.Signing.PublicKey)
    }

    /// A curve by its NIST name (`P-256`, `P-384`), or nil for another curve.
    init?(nistName: String) {
        switch nistName {
        case "P-256": self = .p256
        case "P-384": self = .p384
        default: return nil
        }
    }

    /// The curve every group of `file` names, or nil for another curve or a mix.
    init?(_ file: WycheproofFile) {
        let names = Set(file.groups.map { ($0.fields["curve"] ?? $0.fields["publicKey"]?["curve"])?.string ?? "" })
        switch names {
        case ["secp256r1"]: self = .p256
        case ["secp384r1"]: self = .p384
        default: return nil
        }
    }

    var description: String { self == .p256 ? "P-256" : "P-384" }

    /// The byte length of the curve's scalars.
    var scalarByteCount: Int { self == .p256 ? 32 : 48 }

    /// Whether ECDSA with `hash` is run on this curve (P-256: SHA-256, as its suites are
    /// written; P-384: the SHA-2 hashes TLS certificates use with it).
    func verifies(with hash: HashChoice) -> Bool {
        switch self {
        case .p256: hash == .sha256
        case .p384: [.sha256, .sha384, .sha512].contains(hash)
        }
    }

    /// A key from 04‖X‖Y, or nil when refused.
    func verificationKey(x963 bytes: [UInt8]) -> VerificationKey? {
        do throws(CryptoError) {
            switch self {
            case .p256: return .p256(try P256.Signing.PublicKey(x963Representation: bytes))
            case .p384: return .p384(try P384.Signing.PublicKey(x963Representation: bytes))
            }
        } catch {
            return nil
        }
    }

    /// A key from a SubjectPublicKeyInfo, or nil when refused.
    func verificationKey(der bytes: [UInt8]) -> VerificationKey? {
        do throws(CryptoError) {
            switch self {
            case .p256: return .p256(try P256.Signing.PublicKey(derRepresentation: bytes))
            case .p384: return .p384(try P384.Signing.PublicKey(derRepresentation: bytes))
            }
        } catch {
            return nil
        }
    }

    /// A key from its coordinates as integers of any length (ACVP `qx`, `qy`), or nil when
    /// either is too long or the point is refused.
    func verificationKey(x: [UInt8], y: [UInt8]) -> VerificationKey? {
        guard let x = ECInputs.fixed(x, scalarByteCount), let y = ECInputs.fixed(y, scalarByteCount) else { return nil }
        return verificationKey(x963: [0x04] + x + y)
    }

    /// The public key d·G as 04‖X‖Y for a private integer, or nil when d is refused.
    func publicKey(privateKey d: [UInt8]) -> [UInt8]? {
        guard let d = ECInputs.fixed(d, scalarByteCount) else { return nil }
        do throws(CryptoError) {
            switch self {
            case .p256: return try P256.KeyAgreement.PrivateKey(rawRepresentation: d).publicKey.x963Representation
            case .p384: return try P384.KeyAgreement.PrivateKey(rawRepresentation: d).publicKey.x963Representation
            }
        } catch {
            return nil
        }
    }

    /// Whether (r, s), integers of any length, verify over a digest (its leftmost bits, as
    /// SEC 1 takes them) under `key`.
    func isValid(r: [UInt8], s: [UInt8], digest: [UInt8], key: VerificationKey) -> Bool {
        guard let r = ECInputs.fixed(r, scalarByteCount), let s = ECInputs.fixed(s, scalarByteCount) else { return false }
        switch key {
        case .p256(let key):
            guard let r = FixedUInt<4>(bigEndian: r), let s = FixedUInt<4>(bigEndian: s) else { return false }
            return P256.isValidSignature(P256.SignatureValues(r: r, s: s), digest: digest, publicKey: key.point)
        case .p384(let key):
            guard let r = FixedUInt<6>(bigEndian: r), let s = FixedUInt<6>(bigEndian: s) else { return false }
            return P384.isValidSignature(r: r, s: s, digest: digest, publicKey: key.point)
        }
    }

    /// Whether a DER or r‖s signature of `message` under `hash` verifies; a signature that does
    /// not decode is invalid.
    func isValid(_ signature: [UInt8], p1363: Bool, message: [UInt8], hash: HashChoice, key: VerificationKey) -> Bool {
        do throws(CryptoError) {
            switch key {
            case .p256(let key):
                let decoded = p1363 ? try P256.Signing.ECDSASignature(rawRepresentation: signature)
                                    : try P256.Signing.ECDSASignature(derRepresentation: signature)
                return key.isValidSignature(decoded, for: message)
            case .p384(let key):
                let decoded = p1363 ? try P384.Signing.ECDSASignature(rawRepresentation: signature)
                                    : try P384.Signing.ECDSASignature(derRepresentation: signature)
                return hash.with { verify(key, decoded, $0, message) }
            }
        } catch {
            return false
        }
    }

    /// The shared secret of a Wycheproof private integer and a peer key (SubjectPublicKeyInfo,
    /// or a SEC 1 point when `ecpoint`), or nil when either is refused.
    func agree(privateKey: [UInt8], peer: [UInt8], ecpoint: Bool) -> [UInt8]? {
        guard let scalar = ECInputs.fixed(privateKey, scalarByteCount) else { return nil }
        do throws(CryptoError) {
            switch self {
            case .p256:
                let peer = ecpoint ? try P256.KeyAgreement.PublicKey(sec1Representation: peer)
                                   : try P256.KeyAgreement.PublicKey(derRepresentation: peer)
                return try P256.KeyAgreement.PrivateKey(rawRepresentation: scalar).sharedSecretFromKeyAgreement(with: peer).secret.unsafeExposedBytes
            case .p384:
                let peer = try p384Peer(peer, ecpoint: ecpoint)
                return try P384.KeyAgreement.PrivateKey(rawRepresentation: scalar).sharedSecretFromKeyAgreement(with: peer).secret.unsafeExposedBytes
            }
        } catch {
            return nil
        }
    }

    private func p384Peer(_ bytes: [UInt8], ecpoint: Bool) throws(CryptoError) -> P384.KeyAgreement.PublicKey {
        guard ecpoint else { return try P384.KeyAgreement.PublicKey(derRepresentation: bytes) }
        return bytes.count == 49 ? try P384.KeyAgreement.PublicKey(compressedRepresentation: bytes)
                                 : try P384.KeyAgreement.PublicKey(x963Representation: bytes)
    }
}

private func verify<H: HashFunction>(_ key: P384.Signing.PublicKey, _ signature: P384.Signing.ECDSASignature, _: H.Type, _ message: [UInt8]) -> Bool {
    key.isValidSignature(signature, for: H.hash(data: message))
}
