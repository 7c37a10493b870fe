// The code points this client speaks (RFC 8446 §4, §5, §6; RFC 5246 §7; RFC 8422; RFC 7301;
// RFC 7627; RFC 5746), as small structs with named static members so an unknown value read
// from the peer is kept, not trapped on.

/// A record's content type (RFC 8446 §5.1).
public struct TLSContentType: RawRepresentable, Hashable, Sendable {
    /// The value on the wire.
    public let rawValue: UInt8
    /// The code point `rawValue`, known or not.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// `change_cipher_spec` (20): in TLS 1.3 only the compatibility record, ignored.
    public static let changeCipherSpec = Self(rawValue: 20)
    /// `alert` (21).
    public static let alert = Self(rawValue: 21)
    /// `handshake` (22).
    public static let handshake = Self(rawValue: 22)
    /// `application_data` (23), and the outer type of every TLS 1.3 protected record.
    public static let applicationData = Self(rawValue: 23)
}

/// A handshake message type (RFC 8446 §4, RFC 5246 §7.4).
public struct TLSHandshakeType: RawRepresentable, Hashable, Sendable {
    /// The value on the wire.
    public let rawValue: UInt8
    /// The code point `rawValue`, known or not.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// `hello_request` (0, TLS 1.2 only): refused, this client never renegotiates.
    public static let helloRequest = Self(rawValue: 0)
    /// `client_hello` (1).
    public static let clientHello = Self(rawValue: 1)
    /// `server_hello` (2), also a HelloRetryRequest by its random (RFC 8446 §4.1.3).
    public static let serverHello = Self(rawValue: 2)
    /// `new_session_ticket` (4): read and dropped (no resumption).
    public static let newSessionTicket = Self(rawValue: 4)
    /// `end_of_early_data` (5): never sent (no 0-RTT).
    public static let endOfEarlyData = Self(rawValue: 5)
    /// `encrypted_extensions` (8, TLS 1.3).
    public static let encryptedExtensions = Self(rawValue: 8)
    /// `certificate` (11).
    public static let certificate = Self(rawValue: 11)
    /// `server_key_exchange` (12, TLS 1.2 ECDHE).
    public static let serverKeyExchange = Self(rawValue: 12)
    /// `certificate_request` (13): answered with no certificate.
    public static let certificateRequest = Self(rawValue: 13)
    /// `server_hello_done` (14, TLS 1.2).
    public static let serverHelloDone = Self(rawValue: 14)
    /// `certificate_verify` (15, TLS 1.3).
    public static let certificateVerify = Self(rawValue: 15)
    /// `client_key_exchange` (16, TLS 1.2).
    public static let clientKeyExchange = Self(rawValue: 16)
    /// `finished` (20).
    public static let finished = Self(rawValue: 20)
    /// `key_update` (24, TLS 1.3).
    public static let keyUpdate = Self(rawValue: 24)
    /// `message_hash` (254): the synthetic message that replaces ClientHello1 in the transcript after a HelloRetryRequest (RFC 8446 §4.4.1).
    public static let messageHash = Self(rawValue: 254)
}

/// A protocol version on the wire.
public struct TLSVersion: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The value on the wire.
    public let rawValue: UInt16
    /// The code point `rawValue`, known or not.
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// TLS 1.2 (RFC 5246), restricted here to ECDHE with AEAD suites.
    public static let tls12 = Self(rawValue: 0x0303)
    /// TLS 1.3 (RFC 8446).
    public static let tls13 = Self(rawValue: 0x0304)
    /// Ordered by value: TLS 1.2 < TLS 1.3.
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    /// `TLS 1.3`, `TLS 1.2`, or the value in hexadecimal.
    public var description: String { self == .tls13 ? "TLS 1.3" : self == .tls12 ? "TLS 1.2" : "0x\(String(rawValue, radix: 16))" }
}

/// A cipher suite (RFC 8446 §B.4, RFC 5289, RFC 7905).
public struct TLSCipherSuite: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The value on the wire.
    public let rawValue: UInt16
    /// The code point `rawValue`, known or not.
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// `TLS_AES_128_GCM_SHA256` (TLS 1.3).
    public static let aes128GCMSHA256 = Self(rawValue: 0x1301)
    /// `TLS_AES_256_GCM_SHA384` (TLS 1.3).
    public static let aes256GCMSHA384 = Self(rawValue: 0x1302)
    /// `TLS_CHACHA20_POLY1305_SHA256` (TLS 1.3).
    public static let chaCha20Poly1305SHA256 = Self(rawValue: 0x1303)
    /// `TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256` (TLS 1.2, RFC 5289).
    public static let ecdheECDSAWithAES128GCMSHA256 = Self(rawValue: 0xC02B)
    /// `TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384` (TLS 1.2, RFC 5289).
    public static let ecdheECDSAWithAES256GCMSHA384 = Self(rawValue: 0xC02C)
    /// `TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256` (TLS 1.2, RFC 5289).
    public static let ecdheRSAWithAES128GCMSHA256 = Self(rawValue: 0xC02F)
    /// `TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384` (TLS 1.2, RFC 5289).
    public static let ecdheRSAWithAES256GCMSHA384 = Self(rawValue: 0xC030)
    /// `TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256` (TLS 1.2, RFC 7905).
    public static let ecdheRSAWithChaCha20Poly1305SHA256 = Self(rawValue: 0xCCA8)
    /// `TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256` (TLS 1.2, RFC 7905).
    public static let ecdheECDSAWithChaCha20Poly1305SHA256 = Self(rawValue: 0xCCA9)

    /// The TLS 1.3 suites, in our order of preference.
    public static let tls13: [Self] = [.aes128GCMSHA256, .aes256GCMSHA384, .chaCha20Poly1305SHA256]
    /// The TLS 1.2 suites: ECDHE key exchange with an AEAD, nothing else.
    public static let tls12: [Self] = [.ecdheECDSAWithAES128GCMSHA256, .ecdheRSAWithAES128GCMSHA256, .ecdheECDSAWithAES256GCMSHA384,
                                       .ecdheRSAWithAES256GCMSHA384, .ecdheECDSAWithChaCha20Poly1305SHA256, .ecdheRSAWithChaCha20Poly1305SHA256]

    /// The value in hexadecimal (`0x1301`).
    public var description: String { "0x" + String(rawValue, radix: 16, uppercase: true) }
}

/// A key-exchange group (RFC 8446 §4.2.7).
public struct TLSNamedGroup: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The value on the wire.
    public let rawValue: UInt16
    /// The code point `rawValue`, known or not.
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// `secp256r1` (P-256).
    public static let secp256r1 = Self(rawValue: 0x0017)
    /// `secp384r1` (P-384).
    public static let secp384r1 = Self(rawValue: 0x0018)
    /// `x25519` (RFC 7748), offered first.
    public static let x25519 = Self(rawValue: 0x001D)
    /// The name, or the value in hexadecimal when it has none here.
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
    /// The value on the wire.
    public let rawValue: UInt16
    /// The code point `rawValue`, known or not.
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// `rsa_pkcs1_sha256`: certificates, and TLS 1.2 handshakes.
    public static let rsaPKCS1SHA256 = Self(rawValue: 0x0401)
    /// `rsa_pkcs1_sha384`: certificates, and TLS 1.2 handshakes.
    public static let rsaPKCS1SHA384 = Self(rawValue: 0x0501)
    /// `rsa_pkcs1_sha512`: certificates, and TLS 1.2 handshakes.
    public static let rsaPKCS1SHA512 = Self(rawValue: 0x0601)
    /// `ecdsa_secp256r1_sha256`.
    public static let ecdsaSECP256r1SHA256 = Self(rawValue: 0x0403)
    /// `ecdsa_secp384r1_sha384`.
    public static let ecdsaSECP384r1SHA384 = Self(rawValue: 0x0503)
    /// `rsa_pss_rsae_sha256`: RSASSA-PSS with an rsaEncryption key.
    public static let rsaPSSRSAESHA256 = Self(rawValue: 0x0804)
    /// `rsa_pss_rsae_sha384`: RSASSA-PSS with an rsaEncryption key.
    public static let rsaPSSRSAESHA384 = Self(rawValue: 0x0805)
    /// `rsa_pss_rsae_sha512`: RSASSA-PSS with an rsaEncryption key.
    public static let rsaPSSRSAESHA512 = Self(rawValue: 0x0806)

    /// What this client offers, in order of preference (no SHA-1, no PSS-with-PSS-keys).
    public static let offered: [Self] = [.ecdsaSECP256r1SHA256, .ecdsaSECP384r1SHA384, .rsaPSSRSAESHA256, .rsaPSSRSAESHA384,
                                         .rsaPSSRSAESHA512, .rsaPKCS1SHA256, .rsaPKCS1SHA384, .rsaPKCS1SHA512]

    /// Whether TLS 1.3 allows the scheme in CertificateVerify (RFC 8446 §4.2.3: PKCS #1 v1.5
    /// only in certificates).
    var isAllowedInTLS13Handshake: Bool { ![.rsaPKCS1SHA256, .rsaPKCS1SHA384, .rsaPKCS1SHA512].contains(self) }

    /// The value in hexadecimal (`0x403`).
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
