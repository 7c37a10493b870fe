// An X.509 v3 certificate as RFC 5280 §4.1 defines it, read strictly on the engine's DER
// reader: the signed TBSCertificate kept byte for byte for the signature check, the names kept
// as DER for issuer matching, and the extensions the path validator uses decoded
// (X509Extensions.swift). Anything malformed is `X509ValidationError.malformed`, never a trap.

import CryptoPrimitives

/// A parsed certificate.
public struct X509Certificate: Sendable, Equatable {
    /// The whole certificate, DER.
    public let derRepresentation: [UInt8]
    /// The signed part, DER, as it was received.
    let tbsCertificate: [UInt8]
    /// The outer signatureAlgorithm, DER (RFC 5280 §4.1.1.2).
    let signatureAlgorithm: [UInt8]
    /// The signature bits.
    let signature: [UInt8]
    /// 1 or 3 (version 2 certificates are refused).
    public let version: Int
    /// The serial number's content octets.
    public let serialNumber: [UInt8]
    /// The issuer and subject Names, DER (compared byte for byte when building chains).
    public let issuer: [UInt8]
    /// The subject Name, DER.
    public let subject: [UInt8]
    /// notBefore and notAfter in seconds since 1970 (RFC 5280 §4.1.2.5).
    public let notBefore: Int64
    /// The last second of validity.
    public let notAfter: Int64
    /// The SubjectPublicKeyInfo, DER (what SPKI pins hash).
    public let subjectPublicKeyInfo: [UInt8]
    /// The decoded extensions.
    let extensions: X509Extensions

    /// Parses DER (RFC 5280 §4.1). Throws ``X509ValidationError/malformed(_:)``.
    public init(derRepresentation der: [UInt8]) throws(X509ValidationError) {
        do {
            var outer = DER.Reader(der)
            var certificate = try outer.readSequence()
            try outer.finish()
            tbsCertificate = try certificate.readElement()
            signatureAlgorithm = try certificate.readElement()
            signature = try certificate.readBitString()
            try certificate.finish()

            var tbsOuter = DER.Reader(tbsCertificate)
            var tbs = try tbsOuter.readSequence()
            try tbsOuter.finish()
            // §4.1.2.1: version [0] EXPLICIT, default v1.
            var versionNumber = 0
            if tbs.nextTag == DER.Tag.context(0, constructed: true) {
                var explicit = try tbs.readConstructed(tag: DER.Tag.context(0, constructed: true))
                versionNumber = try explicit.readSmallInteger()
                try explicit.finish()
            }
            guard versionNumber == 0 || versionNumber == 2 else { throw X509ValidationError.malformed("version \(versionNumber + 1)") }
            version = versionNumber + 1
            // §4.1.2.2: a positive integer of at most 20 octets; read as given (some CAs wrote
            // negative serials), only its length bounded.
            serialNumber = Array(try tbs.read(tag: DER.Tag.integer))
            guard (1...21).contains(serialNumber.count) else { throw X509ValidationError.malformed("serial number length") }
            // §4.1.2.3: the inner signature algorithm must equal the outer one.
            guard try tbs.readElement() == signatureAlgorithm else { throw X509ValidationError.malformed("signature algorithm mismatch") }
            issuer = try tbs.readElement()
            var validity = try tbs.readSequence()
            notBefore = try Self.readTime(&validity)
            notAfter = try Self.readTime(&validity)
            try validity.finish()
            subject = try tbs.readElement()
            subjectPublicKeyInfo = try tbs.readElement()
            // §4.1.2.8: unique identifiers (v2/v3), skipped.
            for number: UInt8 in [1, 2] where tbs.nextTag == DER.Tag.context(number, constructed: false) {
                _ = try tbs.readElement()
            }
            if tbs.nextTag == DER.Tag.context(3, constructed: true) {
                guard version == 3 else { throw X509ValidationError.malformed("extensions in a version 1 certificate") }
                var explicit = try tbs.readConstructed(tag: DER.Tag.context(3, constructed: true))
                extensions = try X509Extensions(try explicit.readSequence())
                try explicit.finish()
            } else {
                extensions = X509Extensions()
            }
            try tbs.finish()
            derRepresentation = der
        } catch let error as X509ValidationError {
            throw error
        } catch {
            throw .malformed("DER")
        }
    }

    /// A certificate from PEM text holding one `CERTIFICATE` block.
    public init(pemRepresentation: String) throws(X509ValidationError) {
        let blocks = PEMBundle.certificates(in: pemRepresentation)
        guard blocks.count == 1, let der = blocks.first else { throw .malformed("not one PEM certificate") }
        try self.init(derRepresentation: der)
    }

    /// SHA-256 of the SubjectPublicKeyInfo (the value SPKI pins hold).
    public var subjectPublicKeyInfoSHA256: [UInt8] { SHA256.hash(data: subjectPublicKeyInfo).bytes }

    /// SHA-256 of the whole certificate.
    public var sha256: [UInt8] { SHA256.hash(data: derRepresentation).bytes }

    /// The DNS names of the subjectAltName extension, as written.
    public var dnsNames: [String] { extensions.subjectAlternativeNames.dnsNames }

    /// The IP addresses (4 or 16 bytes) of the subjectAltName extension.
    public var ipAddresses: [[UInt8]] { extensions.subjectAlternativeNames.ipAddresses }

    /// Whether the certificate is self-issued (subject equals issuer, RFC 5280 §3.3.6).
    var isSelfIssued: Bool { subject == issuer }

    /// Equal when the DER is equal.
    public static func == (a: Self, b: Self) -> Bool { a.derRepresentation == b.derRepresentation }

    private static func readTime(_ reader: inout DER.Reader) throws(CryptoError) -> Int64 {
        guard let tag = reader.nextTag, tag == 0x17 || tag == 0x18 else { throw .invalidEncoding }
        guard let seconds = X509Time.seconds(tag: tag, try reader.read(tag: tag)) else { throw .invalidEncoding }
        return seconds
    }
}

/// The certificates of a PEM bundle (RFC 7468 §2): every `CERTIFICATE` block, others skipped;
/// a block whose Base64 does not decode is skipped too.
enum PEMBundle {
    static func certificates(in text: String) -> [[UInt8]] {
        var result: [[UInt8]] = []
        var body: String?
        for rawLine in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let line = rawLine.trimmingSpaces
            if line == "-----BEGIN CERTIFICATE-----" {
                body = ""
            } else if line == "-----END CERTIFICATE-----" {
                if let text = body {
                    do throws(CryptoError) { result.append(try Base64.decode(text)) } catch {
                        // Skipped, as documented.
                    }
                }
                body = nil
            } else if body != nil {
                body? += line
            }
        }
        return result
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}
