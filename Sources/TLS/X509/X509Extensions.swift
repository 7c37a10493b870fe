// The certificate extensions the path validator decides by (RFC 5280 §4.2): basic constraints,
// key usage, extended key usage, subject alternative names and name constraints; the key
// identifiers and the informational ones are recognised and skipped. Any other extension marked
// critical is recorded so the validator can refuse it (§4.2: "A certificate-using system MUST
// reject the certificate if it encounters a critical extension it does not recognize").

import CryptoPrimitives

/// The names of a subjectAltName (§4.2.1.6) or a name-constraints subtree (§4.2.1.10).
struct X509GeneralNames: Sendable, Equatable {
    /// dNSName entries, as written (IA5String).
    var dnsNames: [String] = []
    /// iPAddress entries: 4 or 16 bytes for names; 8 or 32 (address ‖ mask) in constraints.
    var ipAddresses: [[UInt8]] = []
    /// Whether a name of another form (rfc822Name, directoryName, URI, …) is present.
    var hasOtherForms = false

    /// Whether no name at all is present.
    var isEmpty: Bool { dnsNames.isEmpty && ipAddresses.isEmpty && !hasOtherForms }
}

/// A name-constraints extension: permitted and excluded subtrees (§4.2.1.10).
struct X509NameConstraints: Sendable, Equatable {
    var permitted: X509GeneralNames?
    var excluded: X509GeneralNames?
}

/// The decoded extensions of one certificate.
struct X509Extensions: Sendable, Equatable {
    /// basicConstraints cA (§4.2.1.9); false when absent.
    var isCA = false
    /// pathLenConstraint, when given.
    var pathLengthConstraint: Int?
    /// Whether basicConstraints is present at all.
    var hasBasicConstraints = false
    /// The keyUsage bits (§4.2.1.3), bit 0 = digitalSignature first; nil when absent.
    var keyUsage: [Bool]?
    /// The extKeyUsage purposes (§4.2.1.12); nil when absent.
    var extendedKeyUsage: [DER.ObjectIdentifier]?
    /// The subject alternative names.
    var subjectAlternativeNames = X509GeneralNames()
    /// Whether a subjectAltName extension is present.
    var hasSubjectAlternativeNames = false
    /// The name constraints, when present.
    var nameConstraints: X509NameConstraints?
    /// Critical extensions this validator does not understand.
    var unknownCritical: [DER.ObjectIdentifier] = []

    init() {}

    /// Reads `SEQUENCE OF Extension` (§4.1.2.9); an extension appearing twice is refused.
    init(_ sequence: DER.Reader) throws(CryptoError) {
        var reader = sequence
        var seen: [DER.ObjectIdentifier] = []
        guard !reader.isAtEnd else { throw .invalidEncoding }  // SIZE (1..MAX)
        while !reader.isAtEnd {
            var extensionReader = try reader.readSequence()
            let oid = try extensionReader.readObjectIdentifier()
            guard !seen.contains(oid) else { throw .invalidEncoding }
            seen.append(oid)
            var critical = false
            if extensionReader.nextTag == 0x01 {
                let value = try extensionReader.read(tag: 0x01)
                guard value.count == 1, value.first == 0xFF || value.first == 0x00 else { throw .invalidEncoding }
                critical = value.first == 0xFF
            }
            let value = try extensionReader.readOctetString()
            try extensionReader.finish()
            try decode(oid, value, critical: critical)
        }
    }

    private mutating func decode(_ oid: DER.ObjectIdentifier, _ value: [UInt8], critical: Bool) throws(CryptoError) {
        var reader = DER.Reader(value)
        switch oid {
        case .basicConstraints:
            hasBasicConstraints = true
            var sequence = try reader.readSequence()
            if sequence.nextTag == 0x01 {
                let flag = try sequence.read(tag: 0x01)
                // X.690 §11.1: DER's TRUE is 0xFF; FALSE (0x00) should be omitted but is read.
                guard flag.count == 1, let byte = flag.first, byte == 0xFF || byte == 0x00 else { throw .invalidEncoding }
                isCA = byte == 0xFF
            }
            if sequence.nextTag == DER.Tag.integer {
                let length = try sequence.readSmallInteger()
                pathLengthConstraint = min(length, 255)
            }
            try sequence.finish()
        case .keyUsage:
            keyUsage = try Self.bits(try reader.read(tag: DER.Tag.bitString))
        case .extendedKeyUsage:
            var sequence = try reader.readSequence()
            var purposes: [DER.ObjectIdentifier] = []
            while !sequence.isAtEnd { purposes.append(try sequence.readObjectIdentifier()) }
            guard !purposes.isEmpty else { throw .invalidEncoding }
            extendedKeyUsage = purposes
        case .subjectAlternativeName:
            hasSubjectAlternativeNames = true
            subjectAlternativeNames = try Self.generalNames(try reader.readSequence())
        case .nameConstraints:
            var sequence = try reader.readSequence()
            var constraints = X509NameConstraints()
            if sequence.nextTag == DER.Tag.context(0, constructed: true) {
                constraints.permitted = try Self.subtrees(try sequence.readConstructed(tag: DER.Tag.context(0, constructed: true)))
            }
            if sequence.nextTag == DER.Tag.context(1, constructed: true) {
                constraints.excluded = try Self.subtrees(try sequence.readConstructed(tag: DER.Tag.context(1, constructed: true)))
            }
            try sequence.finish()
            // §4.2.1.10: at least one of permittedSubtrees and excludedSubtrees, neither empty.
            guard constraints.permitted != nil || constraints.excluded != nil,
                  constraints.permitted.map({ !$0.isEmpty }) ?? true, constraints.excluded.map({ !$0.isEmpty }) ?? true else {
                throw .invalidEncoding
            }
            nameConstraints = constraints
        case .subjectKeyIdentifier, .authorityKeyIdentifier, .certificatePolicies, .crlDistributionPoints,
             .authorityInformationAccess, .signedCertificateTimestamps:
            return  // recognised; they decide nothing here
        default:
            if critical { unknownCritical.append(oid) }
            return
        }
        try reader.finish()
    }

    /// A BIT STRING's named bits, bit 0 first (X.690 §8.6: the first octet counts unused bits).
    private static func bits(_ content: ArraySlice<UInt8>) throws(CryptoError) -> [Bool] {
        guard let unused = content.first, unused < 8, content.count > 1 || unused == 0 else { throw .invalidEncoding }
        let bytes = content.dropFirst()
        let count = bytes.count * 8 - Int(unused)
        return (0..<count).map { bytes[bytes.startIndex + $0 / 8] & (0x80 >> UInt8($0 % 8)) != 0 }
    }

    /// GeneralNames (§4.2.1.6): the dNSName [2] and iPAddress [7] entries; other forms noted.
    private static func generalNames(_ sequence: DER.Reader) throws(CryptoError) -> X509GeneralNames {
        var reader = sequence
        var names = X509GeneralNames()
        guard !reader.isAtEnd else { throw .invalidEncoding }  // SIZE (1..MAX)
        while let tag = reader.nextTag {
            let content = Array(try reader.read(tag: tag))
            switch tag {
            case 0x82:
                guard content.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { throw .invalidEncoding }  // IA5String, printable
                names.dnsNames.append(String(decoding: content, as: UTF8.self))
            case 0x87:
                guard content.count == 4 || content.count == 16 else { throw .invalidEncoding }
                names.ipAddresses.append(content)
            default:
                names.hasOtherForms = true
            }
        }
        return names
    }

    /// GeneralSubtrees: each a SEQUENCE { base GeneralName, [0] minimum, [1] maximum }; the
    /// minimum must be 0 and the maximum absent (§4.2.1.10).
    private static func subtrees(_ sequence: DER.Reader) throws(CryptoError) -> X509GeneralNames {
        var reader = sequence
        var names = X509GeneralNames()
        while !reader.isAtEnd {
            var subtree = try reader.readSequence()
            guard let tag = subtree.nextTag else { throw .invalidEncoding }
            let content = Array(try subtree.read(tag: tag))
            switch tag {
            case 0x82:
                guard content.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { throw .invalidEncoding }
                names.dnsNames.append(String(decoding: content, as: UTF8.self))
            case 0x87:
                guard content.count == 8 || content.count == 32 else { throw .invalidEncoding }
                names.ipAddresses.append(content)
            default:
                names.hasOtherForms = true
            }
            if subtree.nextTag == DER.Tag.context(0, constructed: false) {
                guard try subtree.read(tag: DER.Tag.context(0, constructed: false)).allSatisfy({ $0 == 0 }) else { throw .invalidEncoding }
            }
            guard subtree.isAtEnd else { throw .invalidEncoding }
        }
        return names
    }
}

extension DER.ObjectIdentifier {
    static let basicConstraints = Self([2, 5, 29, 19])
    static let keyUsage = Self([2, 5, 29, 15])
    static let extendedKeyUsage = Self([2, 5, 29, 37])
    static let subjectAlternativeName = Self([2, 5, 29, 17])
    static let nameConstraints = Self([2, 5, 29, 30])
    static let subjectKeyIdentifier = Self([2, 5, 29, 14])
    static let authorityKeyIdentifier = Self([2, 5, 29, 35])
    static let certificatePolicies = Self([2, 5, 29, 32])
    static let crlDistributionPoints = Self([2, 5, 29, 31])
    static let authorityInformationAccess = Self([1, 3, 6, 1, 5, 5, 7, 1, 1])
    static let signedCertificateTimestamps = Self([1, 3, 6, 1, 4, 1, 11129, 2, 4, 2])
    /// id-kp-serverAuth (§4.2.1.12).
    static let serverAuth = Self([1, 3, 6, 1, 5, 5, 7, 3, 1])
    /// anyExtendedKeyUsage.
    static let anyExtendedKeyUsage = Self([2, 5, 29, 37, 0])
}
