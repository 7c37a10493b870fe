// A TLS identity for mfa-server: a fresh P-256 root CA and, under it, a server certificate for
// 127.0.0.1 and localhost, made with swift-certificates at start-up, so the tests run over real
// TLS on loopback with no file to ship. nginx serves it (TLSFront); a client trusts the root
// (``rootPEM``); the CM stand-in's signed list pins the leaf by the digests below.

import Crypto
import Foundation
import SwiftASN1
import X509

/// A server certificate chain and key for loopback TLS, with the digests a client pins.
public struct TestTLSIdentity: Sendable {
    /// The root as PEM, for a client to trust (`TrustAnchors(pemBundle:)` or `mfa --ca-file`).
    public let rootPEM: String
    /// The server's certificate as PEM.
    public let leafPEM: String
    /// The server's private key as PKCS #8 PEM.
    public let leafKeyPEM: String
    /// Lower-case hex SHA-256 of the leaf's DER (the iOS-style CM pin).
    public let certificateSHA256Hex: String
    /// Base64 SHA-256 of the leaf's SubjectPublicKeyInfo (the Android-style CM pin, curl's
    /// `--pinnedpubkey sha256//…`).
    public let spkiSHA256Base64: String

    /// A new root and leaf, valid from an hour ago for a day.
    public init(commonName: String = "mfa-server loopback") throws {
        let rootKey = P256.Signing.PrivateKey(), leafKey = P256.Signing.PrivateKey()
        let rootName = try DistinguishedName { CommonName(commonName + " root") }
        let leafName = try DistinguishedName { CommonName(commonName) }
        let now = Date()
        let root = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(rootKey.publicKey),
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(86_400),
            issuer: rootName, subject: rootName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true))
            },
            issuerPrivateKey: .init(rootKey))
        let leaf = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(leafKey.publicKey),
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(86_400),
            issuer: rootName, subject: leafName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames([.dnsName("localhost"), .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))])
            },
            issuerPrivateKey: .init(rootKey))
        let leafDER = try Self.der(leaf)
        rootPEM = try root.serializeAsPEM().pemString
        leafPEM = try leaf.serializeAsPEM().pemString
        leafKeyPEM = leafKey.pemRepresentation
        certificateSHA256Hex = SHA256.hash(data: leafDER).map { String(format: "%02x", $0) }.joined()
        spkiSHA256Base64 = Data(SHA256.hash(data: leafKey.publicKey.derRepresentation)).base64EncodedString()
    }

    private static func der(_ certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }
}
