// Subject public keys and the signatures made with them: the certificate signature algorithms
// of RFC 5280 §4.1.1.2 as RFC 4055 (RSA, RSASSA-PSS) and RFC 5758 (ECDSA) identify them, and
// the TLS signature schemes of RFC 8446 §4.2.3. All inputs are public; verification never
// throws on a bad signature, it returns false.

import CryptoPrimitives

/// A certificate's public key, of a kind this client can verify with.
enum X509PublicKey {
    case rsa(RSA.Signing.PublicKey)
    case p256(P256.Signing.PublicKey)
    case p384(P384.Signing.PublicKey)

    /// The key of a SubjectPublicKeyInfo (RFC 5280 §4.1.2.7). RSA below 2048 bits, other curves
    /// and other algorithms are ``X509ValidationError/weakKey``.
    init(subjectPublicKeyInfo spki: [UInt8]) throws(X509ValidationError) {
        let algorithm: DER.ObjectIdentifier, parameters: DER.ObjectIdentifier?
        do throws(CryptoError) {
            var outer = DER.Reader(spki)
            var info = try outer.readSequence()
            var identifier = try info.readSequence()
            algorithm = try identifier.readObjectIdentifier()
            parameters = identifier.nextTag == DER.Tag.objectIdentifier ? try identifier.readObjectIdentifier() : nil
        } catch {
            throw .malformed("SubjectPublicKeyInfo")
        }
        do {
            switch (algorithm, parameters) {
            case (.rsaEncryption, _):
                let key = try RSA.Signing.PublicKey(derRepresentation: spki)
                guard key.keySizeInBits >= 2048 else { throw X509ValidationError.weakKey }
                self = .rsa(key)
            case (.ecPublicKey, .secp256r1?):
                self = .p256(try P256.Signing.PublicKey(derRepresentation: spki))
            case (.ecPublicKey, .secp384r1?):
                self = .p384(try P384.Signing.PublicKey(derRepresentation: spki))
            default:
                throw X509ValidationError.weakKey
            }
        } catch let error as X509ValidationError {
            throw error
        } catch {
            throw .malformed("public key")
        }
    }

    /// Whether `signature` over `data` verifies under a certificate signature algorithm (DER
    /// AlgorithmIdentifier). SHA-1 is ``X509ValidationError/weakSignatureAlgorithm``; an
    /// algorithm that does not fit the key verifies nothing.
    func verifiesCertificateSignature(_ signature: [UInt8], over data: [UInt8], algorithm: [UInt8]) throws(X509ValidationError) -> Bool {
        let (oid, hash, pssHash) = try Self.signatureAlgorithm(algorithm)
        if let pssHash {
            guard case .rsa = self else { return false }
            return verify(signature, over: data, hash: pssHash, padding: .pss)
        }
        guard let hash else { throw .weakSignatureAlgorithm }
        switch (self, Array(oid.arcs.prefix(6)) == [1, 2, 840, 10045, 4, 3]) {
        case (.rsa, false), (.p256, true), (.p384, true): return verify(signature, over: data, hash: hash, padding: .pkcs1)
        default: return false
        }
    }

    /// Whether `signature` over `data` verifies under a TLS signature scheme. `tls13` binds
    /// the ECDSA schemes to their curves (RFC 8446 §4.2.3); in TLS 1.2 they name only the hash.
    func verifiesHandshakeSignature(_ signature: [UInt8], over data: [UInt8], scheme: TLSSignatureScheme, tls13: Bool) -> Bool {
        switch (scheme, self) {
        case (.ecdsaSECP256r1SHA256, .p256): verify(signature, over: data, hash: .sha256, padding: .pkcs1)
        case (.ecdsaSECP384r1SHA384, .p384): verify(signature, over: data, hash: .sha384, padding: .pkcs1)
        case (.ecdsaSECP256r1SHA256, .p384) where !tls13: verify(signature, over: data, hash: .sha256, padding: .pkcs1)
        case (.ecdsaSECP384r1SHA384, .p256) where !tls13: verify(signature, over: data, hash: .sha384, padding: .pkcs1)
        case (.rsaPSSRSAESHA256, .rsa): verify(signature, over: data, hash: .sha256, padding: .pss)
        case (.rsaPSSRSAESHA384, .rsa): verify(signature, over: data, hash: .sha384, padding: .pss)
        case (.rsaPSSRSAESHA512, .rsa): verify(signature, over: data, hash: .sha512, padding: .pss)
        case (.rsaPKCS1SHA256, .rsa): verify(signature, over: data, hash: .sha256, padding: .pkcs1)
        case (.rsaPKCS1SHA384, .rsa): verify(signature, over: data, hash: .sha384, padding: .pkcs1)
        case (.rsaPKCS1SHA512, .rsa): verify(signature, over: data, hash: .sha512, padding: .pkcs1)
        default: false
        }
    }

    private enum Padding { case pkcs1, pss }

    /// ECDSA (DER signature) for EC keys; RSA PKCS #1 v1.5, or PSS with a salt as long as the
    /// digest (RFC 8446 §4.2.3, RFC 4055 §3.1's default use), for RSA keys.
    private func verify(_ signature: [UInt8], over data: [UInt8], hash: HashAlgorithm, padding: Padding) -> Bool {
        switch hash {
        case .sha256: verify(signature, SHA256.hash(data: data), padding)
        case .sha384: verify(signature, SHA384.hash(data: data), padding)
        case .sha512: verify(signature, SHA512.hash(data: data), padding)
        default: false
        }
    }

    private func verify<H: HashFunction>(_ signature: [UInt8], _ digest: HashDigest<H>, _ padding: Padding) -> Bool {
        do throws(CryptoError) {
            switch self {
            case .rsa(let key):
                return key.isValidSignature(RSA.Signing.RSASignature(rawRepresentation: signature), for: digest,
                                            padding: padding == .pss ? .pss : .pkcs1v1_5)
            case .p256(let key):
                return key.isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: signature), for: digest)
            case .p384(let key):
                return key.isValidSignature(try P384.Signing.ECDSASignature(derRepresentation: signature), for: digest)
            }
        } catch {
            return false
        }
    }

    /// The OID of an AlgorithmIdentifier, its hash (nil for SHA-1), and for RSASSA-PSS the hash
    /// its parameters name (RFC 4055 §3.1: MGF1 with the same hash, trailer 1).
    private static func signatureAlgorithm(_ der: [UInt8]) throws(X509ValidationError) -> (DER.ObjectIdentifier, HashAlgorithm?, HashAlgorithm?) {
        do {
            var outer = DER.Reader(der)
            var identifier = try outer.readSequence()
            let oid = try identifier.readObjectIdentifier()
            let arcs = oid.arcs
            if arcs == [1, 2, 840, 113549, 1, 1, 10] {
                return (oid, nil, try pssHash(&identifier))
            }
            // RFC 4055 §5: NULL parameters (or absent); RFC 5758 §3.2: ECDSA has none.
            if identifier.nextTag == DER.Tag.null { try identifier.readNull() }
            try identifier.finish()
            switch arcs {
            case [1, 2, 840, 113549, 1, 1, 11], [1, 2, 840, 10045, 4, 3, 2]: return (oid, .sha256, nil)
            case [1, 2, 840, 113549, 1, 1, 12], [1, 2, 840, 10045, 4, 3, 3]: return (oid, .sha384, nil)
            case [1, 2, 840, 113549, 1, 1, 13], [1, 2, 840, 10045, 4, 3, 4]: return (oid, .sha512, nil)
            default: throw X509ValidationError.weakSignatureAlgorithm  // SHA-1, MD5 and anything unknown
            }
        } catch let error as X509ValidationError {
            throw error
        } catch {
            throw .malformed("signature algorithm")
        }
    }

    /// RSASSA-PSS-params (RFC 4055 §3.1) naming SHA-256/384/512 for both the hash and MGF1,
    /// with the digest-long salt and trailer 1; anything else is refused.
    private static func pssHash(_ identifier: inout DER.Reader) throws(CryptoError) -> HashAlgorithm {
        var parameters = try identifier.readSequence()
        try identifier.finish()
        var hashOID: DER.ObjectIdentifier?, mgfHashOID: DER.ObjectIdentifier?, saltLength = 20
        if parameters.nextTag == DER.Tag.context(0, constructed: true) {
            var wrapper = try parameters.readConstructed(tag: DER.Tag.context(0, constructed: true))
            var algorithm = try wrapper.readSequence()
            hashOID = try algorithm.readObjectIdentifier()
        }
        if parameters.nextTag == DER.Tag.context(1, constructed: true) {
            var wrapper = try parameters.readConstructed(tag: DER.Tag.context(1, constructed: true))
            var mgf = try wrapper.readSequence()
            guard try mgf.readObjectIdentifier() == DER.ObjectIdentifier([1, 2, 840, 113549, 1, 1, 8]) else { throw .invalidParameter }
            var inner = try mgf.readSequence()
            mgfHashOID = try inner.readObjectIdentifier()
        }
        if parameters.nextTag == DER.Tag.context(2, constructed: true) {
            var wrapper = try parameters.readConstructed(tag: DER.Tag.context(2, constructed: true))
            saltLength = try wrapper.readSmallInteger()
        }
        if parameters.nextTag == DER.Tag.context(3, constructed: true) {
            var wrapper = try parameters.readConstructed(tag: DER.Tag.context(3, constructed: true))
            guard try wrapper.readSmallInteger() == 1 else { throw .invalidParameter }
        }
        try parameters.finish()
        let hash: HashAlgorithm
        switch hashOID {
        case .sha256?: hash = .sha256
        case .sha384?: hash = .sha384
        case .sha512?: hash = .sha512
        default: throw .invalidParameter  // absent means SHA-1
        }
        guard mgfHashOID == hashOID, saltLength == hash.byteCount else { throw .invalidParameter }
        return hash
    }
}
