// The code points this client speaks (RFC 8446 §4, §5, §6; RFC 5246 §7; RFC 8422; RFC 7301;
// RFC 7627; RFC 5746), as small structs with named static members so an unknown value read
// from the peer is kept, not trapped on.

/// A record's content type (RFC 8446 §5.1).
public struct TLSContentType: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let changeCipherSpec = Self(rawValue: 20)
    public static let alert = Self(rawValue: 21)
    public static let handshake = Self(rawValue: 22)
    public static let applicationData = Self(rawValue: 23)
}

/// A handshake message type (RFC 8446 §4, RFC 5246 §7.4).
public struct TLSHandshakeType: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let helloRequest = Self(rawValue: 0)
    public static let clientHello = Self(rawValue: 1)
    public static let serverHello = Self(rawValue: 2)
    public static let newSessionTicket = Self(rawValue: 4)
    public static let endOfEarlyData = Self(rawValue: 5)
    public static let encryptedExtensions = Self(rawValue: 8)
    public static let certificate = Self(rawValue: 11)
    public static let serverKeyExchange = Self(rawValue: 12)
    public static let certificateRequest = Self(rawValue: 13)
    public static let serverHelloDone = Self(rawValue: 14)
    public static let certificateVerify = Self(rawValue: 15)
    public static let clientKeyExchange = Self(rawValue: 16)
    public static let finished = Self(rawValue: 20)
    public static let keyUpdate = Self(rawValue: 24)
    public static let messageHash = Self(rawValue: 254)
}

/// A protocol version on the wire.
public struct TLSVersion: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// TLS 1.2 (RFC 5246), restricted here to ECDHE with AEAD suites.
    public static let tls12 = Self(rawValue: 0x0303)
    /// TLS 1.3 (RFC 8446).
    public static let tls13 = Self(rawValue: 0x0304)
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    public var description: String { self == .tls13 ? "TLS 1.3" : self == .tls12 ? "TLS 1.2" : "0x\(String(rawValue, radix: 16))" }
}

/// A cipher suite (RFC 8446 §B.4, RFC 5289, RFC 7905).
public struct TLSCipherSuite: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public static let aes128GCMSHA256 = Self(rawValue: 0x1301)
    public static let aes256GCMSHA384 = Self(rawValue: 0x1302)
    public static let chaCha20Poly1305SHA256 = Self(rawValue: 0x1303)
    public static let ecdheECDSAWithAES128GCMSHA256 = Self(rawValue: 0xC02B)
    public static let ecdheECDSAWithAES256GCMSHA384 = Self(rawValue: 0xC02C)
    public static let ecdheRSAWithAES128GCMSHA256 = Self(rawValue: 0xC02F)
    public static let ecdheRSAWithAES256GCMSHA384 = Self(rawValue: 0xC030)
    public static let ecdheRSAWithChaCha20Poly1305SHA256 = Self(rawValue: 0xCCA8)
    public static let ecdheECDSAWithChaCha20Poly1305SHA256 = Self(rawValue: 0xCCA9)

    /// The TLS 1.3 suites, in our order of preference.
    public static let tls13: [Self] = [.aes128GCMSHA256, .aes256GCMSHA384, .chaCha20Poly1305SHA256]
    /// The TLS 1.2 suites: ECDHE key exchange with an AEAD, nothing else.
    public static let tls12: [Self] = [.ecdheECDSAWithAES128GCMSHA256, .ecdheRSAWithAES128GCMSHA256, .ecdheECDSAWithAES256GCMSHA384,
                                       .ecdheRSAWithAES256GCMSHA384, .ecdheECDSAWithChaCha20Poly1305SHA256, .ecdheRSAWithChaCha20Poly1305SHA256]

    public var description: String { "0x" + String(rawValue, radix: 16, uppercase: true) }
}

/// A key-exchange group (RFC 8446 §4.2.7).
public struct TLSNamedGroup: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public static let secp256r1 = Self(rawValue: 0x0017)
    public static let secp384r1 = Self(rawValue: 0x0018)
    public static let x25519 = Self(rawValue: 0x001D)
    public var description: String {
        switch self {
        case .x25519: "x25519"
        case .secp256r1: "secp256r1"
        case .secp384r1: "secp384r1"
        default: "group 0x" + String(rawValue, radix: 16)
        }
    }
}

/// A signature scheme (RFC 8446 §4.2.3).
public struct TLSSignatureScheme: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public static let rsaPKCS1SHA256 = Self(rawValue: 0x0401)
    public static let rsaPKCS1SHA384 = Self(rawValue: 0x0501)
    public static let rsaPKCS1SHA512 = Self(rawValue: 0x0601)
    public static let ecdsaSECP256r1SHA256 = Self(rawValue: 0x0403)
    public static let ecdsaSECP384r1SHA384 = Self(rawValue: 0x0503)
    public static let rsaPSSRSAESHA256 = Self(rawValue: 0x0804)
    public static let rsaPSSRSAESHA384 = Self(rawValue: 0x0805)
    public static let rsaPSSRSAESHA512 = Self(rawValue: 0x0806)

    /// What this client offers, in order of preference (no SHA-1, no PSS-with-PSS-keys).
    public static let offered: [Self] = [.ecdsaSECP256r1SHA256, .ecdsaSECP384r1SHA384, .rsaPSSRSAESHA256, .rsaPSSRSAESHA384,
                                         .rsaPSSRSAESHA512, .rsaPKCS1SHA256, .rsaPKCS1SHA384, .rsaPKCS1SHA512]

    /// Whether TLS 1.3 allows the scheme in CertificateVerify (RFC 8446 §4.2.3: PKCS #1 v1.5
    /// only in certificates).
    var isAllowedInTLS13Handshake: Bool { ![.rsaPKCS1SHA256, .rsaPKCS1SHA384, .rsaPKCS1SHA512].contains(self) }

    public var description: String { "0x" + String(rawValue, radix: 16) }
}

/// An extension type (RFC 8446 §4.2 and the RFCs named per member).
struct TLSExtensionType: RawRepresentable, Hashable, Sendable {
    let rawValue: UInt16
    init(rawValue: UInt16) { self.rawValue = rawValue }
    static let serverName = Self(rawValue: 0)                       // RFC 6066
    static let supportedGroups = Self(rawValue: 10)                  // RFC 8446 §4.2.7
    static let ecPointFormats = Self(rawValue: 11)                   // RFC 8422 §5.1.2
    static let signatureAlgorithms = Self(rawValue: 13)              // RFC 8446 §4.2.3
    static let applicationLayerProtocolNegotiation = Self(rawValue: 16)  // RFC 7301
    static let extendedMasterSecret = Self(rawValue: 23)             // RFC 7627
    static let preSharedKey = Self(rawValue: 41)
    static let earlyData = Self(rawValue: 42)
    static let supportedVersions = Self(rawValue: 43)                // RFC 8446 §4.2.1
    static let cookie = Self(rawValue: 44)                           // RFC 8446 §4.2.2
    static let keyShare = Self(rawValue: 51)                         // RFC 8446 §4.2.8
    static let renegotiationInfo = Self(rawValue: 0xFF01)            // RFC 5746
}
