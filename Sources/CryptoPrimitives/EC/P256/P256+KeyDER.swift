// The DER structures of P-256 keys: SubjectPublicKeyInfo (RFC 5480), ECPrivateKey (RFC 5915)
// and PKCS #8 (RFC 5958), read strictly and written minimally.

import CryptoCore

extension P256 {
    /// SEQUENCE { SEQUENCE { id-ecPublicKey, secp256r1 }, BIT STRING point } (RFC 5480 §2).
    /// Explicit curve parameters are refused: only the named curve is accepted.
    static func decodeSubjectPublicKeyInfo(_ der: [UInt8]) throws(CryptoError) -> AffinePoint {
        var reader = DER.Reader(der)
        var spki = try reader.readSequence()
        try reader.finish()
        try readAlgorithm(&spki)
        let point = try spki.readBitString()
        try spki.finish()
        return try AffinePoint(sec1: point)
    }

    static func encodeSubjectPublicKeyInfo(_ point: AffinePoint) -> [UInt8] {
        var writer = DER.Writer()
        writer.sequence { spki in
            writeAlgorithm(&spki)
            spki.bitString(point.uncompressedRepresentation)
        }
        return writer.bytes
    }

    /// The scalar bytes and the embedded public key (if any) of a SEC 1 or PKCS #8 key.
    static func decodePrivateKeyDER(_ der: [UInt8]) throws(CryptoError) -> (SecretBytes, [UInt8]?) {
        var reader = DER.Reader(der)
        var outer = try reader.readSequence()
        try reader.finish()
        switch try outer.readSmallInteger() {
        case 1:  // SEC 1 ECPrivateKey
            return try decodeSEC1Body(&outer)
        case 0:  // PKCS #8 PrivateKeyInfo
            try readAlgorithm(&outer)
            var inner = DER.Reader(try outer.readOctetString())
            try outer.finish()
            var sec1 = try inner.readSequence()
            try inner.finish()
            guard try sec1.readSmallInteger() == 1 else { throw .invalidEncoding }
            return try decodeSEC1Body(&sec1)
        default:
            throw .invalidEncoding
        }
    }

    /// privateKey OCTET STRING (32 B), [0] parameters OPTIONAL, [1] publicKey OPTIONAL.
    private static func decodeSEC1Body(_ reader: inout DER.Reader) throws(CryptoError) -> (SecretBytes, [UInt8]?) {
        let scalar = SecretBytes(try reader.readOctetString())
        guard scalar.count == 32 else { throw .invalidKey }
        if reader.nextTag == DER.Tag.context(0, constructed: true) {
            var parameters = try reader.readConstructed(tag: DER.Tag.context(0, constructed: true))
            guard try parameters.readObjectIdentifier() == .secp256r1 else { throw .invalidKey }
            try parameters.finish()
        }
        var publicKey: [UInt8]?
        if reader.nextTag == DER.Tag.context(1, constructed: true) {
            var wrapper = try reader.readConstructed(tag: DER.Tag.context(1, constructed: true))
            publicKey = try wrapper.readBitString()
            try wrapper.finish()
        }
        try reader.finish()
        return (scalar, publicKey)
    }

    static func encodeSEC1(_ scalar: SecretBytes, publicKey: [UInt8], withCurve: Bool) -> SecretBytes {
        var writer = DER.Writer()
        writer.sequence { key in
            key.integer(1)
            scalar.withUnsafeBytes { key.octetString(Array($0)) }
            if withCurve {
                key.constructed(tag: DER.Tag.context(0, constructed: true)) { $0.objectIdentifier(.secp256r1) }
            }
            key.constructed(tag: DER.Tag.context(1, constructed: true)) { $0.bitString(publicKey) }
        }
        return SecretBytes(writer.bytes)
    }

    static func encodePKCS8(_ scalar: SecretBytes, publicKey: [UInt8]) -> SecretBytes {
        let sec1 = encodeSEC1(scalar, publicKey: publicKey, withCurve: false)
        var writer = DER.Writer()
        writer.sequence { info in
            info.integer(0)
            writeAlgorithm(&info)
            sec1.withUnsafeBytes { info.octetString(Array($0)) }
        }
        return SecretBytes(writer.bytes)
    }

    private static func readAlgorithm(_ reader: inout DER.Reader) throws(CryptoError) {
        var algorithm = try reader.readSequence()
        guard try algorithm.readObjectIdentifier() == .ecPublicKey,
              try algorithm.readObjectIdentifier() == .secp256r1 else { throw .invalidKey }
        try algorithm.finish()
    }

    private static func writeAlgorithm(_ writer: inout DER.Writer) {
        writer.sequence { algorithm in
            algorithm.objectIdentifier(.ecPublicKey)
            algorithm.objectIdentifier(.secp256r1)
        }
    }
}
