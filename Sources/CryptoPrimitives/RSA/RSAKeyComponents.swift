// The integers of an RSA key (RFC 8017 §3) and their DER structures: RSAPublicKey and
// RSAPrivateKey (RFC 8017 Appendix A.1), SubjectPublicKeyInfo and PKCS #8 (RFC 5958).

import CryptoCore

/// n, e and, for a private key, d, p, q, dP, dQ, qInv — the secret ones in wiped storage.
package struct RSAKeyComponents: Sendable {
    package let modulus: [UInt8]
    package let publicExponent: [UInt8]
    package let privateExponent: SecretBytes
    package let prime1: SecretBytes
    package let prime2: SecretBytes
    package let exponent1: SecretBytes
    package let exponent2: SecretBytes
    package let coefficient: SecretBytes

    /// RSAPrivateKey ::= SEQUENCE { version 0, n, e, d, p, q, dP, dQ, qInv }; multi-prime
    /// (version 1) keys are refused.
    package init(pkcs1 der: [UInt8]) throws(CryptoError) {
        var reader = DER.Reader(der)
        var key = try reader.readSequence()
        try reader.finish()
        guard try key.readSmallInteger() == 0 else { throw .invalidEncoding }
        modulus = try key.readUnsignedInteger()
        publicExponent = try key.readUnsignedInteger()
        privateExponent = SecretBytes(try key.readUnsignedInteger())
        prime1 = SecretBytes(try key.readUnsignedInteger())
        prime2 = SecretBytes(try key.readUnsignedInteger())
        exponent1 = SecretBytes(try key.readUnsignedInteger())
        exponent2 = SecretBytes(try key.readUnsignedInteger())
        coefficient = SecretBytes(try key.readUnsignedInteger())
        try key.finish()
    }

    package init(modulus: [UInt8], publicExponent: [UInt8], privateExponent: SecretBytes, prime1: SecretBytes, prime2: SecretBytes,
         exponent1: SecretBytes, exponent2: SecretBytes, coefficient: SecretBytes) {
        self.modulus = Array(modulus.drop { $0 == 0 })
        self.publicExponent = Array(publicExponent.drop { $0 == 0 })
        self.privateExponent = privateExponent
        self.prime1 = prime1
        self.prime2 = prime2
        self.exponent1 = exponent1
        self.exponent2 = exponent2
        self.coefficient = coefficient
    }

    /// RSAPrivateKey DER.
    package var pkcs1: SecretBytes {
        var writer = DER.Writer()
        writer.sequence { key in
            key.integer(0)
            key.unsignedInteger(modulus)
            key.unsignedInteger(publicExponent)
            for secret in [privateExponent, prime1, prime2, exponent1, exponent2, coefficient] {
                secret.withUnsafeBytes { key.unsignedInteger($0) }
            }
        }
        return SecretBytes(writer.bytes)
    }

    /// PrivateKeyInfo ::= SEQUENCE { 0, { rsaEncryption, NULL }, OCTET STRING RSAPrivateKey }.
    package var pkcs8: SecretBytes {
        let inner = pkcs1
        var writer = DER.Writer()
        writer.sequence { info in
            info.integer(0)
            RSAKeyComponents.writeAlgorithm(&info)
            inner.withUnsafeBytes { info.octetString(Array($0)) }
        }
        return SecretBytes(writer.bytes)
    }

    /// The components of a PKCS #1 or PKCS #8 private key.
    static func decodePrivateKey(_ der: [UInt8]) throws(CryptoError) -> RSAKeyComponents {
        var reader = DER.Reader(der)
        var outer = try reader.readSequence()
        guard try outer.readSmallInteger() == 0 else { throw .invalidEncoding }
        if outer.nextTag == DER.Tag.integer {
            return try RSAKeyComponents(pkcs1: der)  // RSAPrivateKey starts with version, n
        }
        try readAlgorithm(&outer)
        let inner = try outer.readOctetString()
        try outer.finish()
        try reader.finish()
        return try RSAKeyComponents(pkcs1: inner)
    }

    /// (n, e) of a PKCS #1 RSAPublicKey or a SubjectPublicKeyInfo.
    static func decodePublicKey(_ der: [UInt8]) throws(CryptoError) -> (modulus: [UInt8], exponent: [UInt8]) {
        var reader = DER.Reader(der)
        var outer = try reader.readSequence()
        try reader.finish()
        if outer.nextTag == DER.Tag.integer {
            return try readPublicKeyBody(&outer)
        }
        try readAlgorithm(&outer)
        var inner = DER.Reader(try outer.readBitString())
        try outer.finish()
        var body = try inner.readSequence()
        try inner.finish()
        return try readPublicKeyBody(&body)
    }

    private static func readPublicKeyBody(_ reader: inout DER.Reader) throws(CryptoError) -> (modulus: [UInt8], exponent: [UInt8]) {
        let modulus = try reader.readUnsignedInteger(), exponent = try reader.readUnsignedInteger()
        try reader.finish()
        return (modulus, exponent)
    }

    /// RSAPublicKey ::= SEQUENCE { n, e }.
    static func encodePublicKey(modulus: [UInt8], exponent: [UInt8]) -> [UInt8] {
        var writer = DER.Writer()
        writer.sequence { key in
            key.unsignedInteger(modulus)
            key.unsignedInteger(exponent)
        }
        return writer.bytes
    }

    /// SubjectPublicKeyInfo with rsaEncryption and NULL parameters.
    static func encodeSubjectPublicKeyInfo(modulus: [UInt8], exponent: [UInt8]) -> [UInt8] {
        var writer = DER.Writer()
        writer.sequence { info in
            writeAlgorithm(&info)
            info.bitString(encodePublicKey(modulus: modulus, exponent: exponent))
        }
        return writer.bytes
    }

    /// AlgorithmIdentifier { rsaEncryption, NULL } (RFC 8017 Appendix A.1: parameters SHALL be NULL).
    private static func readAlgorithm(_ reader: inout DER.Reader) throws(CryptoError) {
        var algorithm = try reader.readSequence()
        guard try algorithm.readObjectIdentifier() == .rsaEncryption else { throw .invalidKey }
        try algorithm.readNull()
        try algorithm.finish()
    }

    private static func writeAlgorithm(_ writer: inout DER.Writer) {
        writer.sequence { algorithm in
            algorithm.objectIdentifier(.rsaEncryption)
            algorithm.null()
        }
    }
}
