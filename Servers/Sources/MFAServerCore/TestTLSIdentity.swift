// A self-signed TLS identity for mfa-server:
// a fresh P-256 key and certificate for 127.0.0.1 and localhost, made with
// swift-certificates at start-up, so the pinning test runs over real TLS on loopback with no
// file to ship. Its digests are what the CM stand-in's signed list pins.

import Crypto
import Foundation
public import NIOSSL
import SwiftASN1
import X509

/// A server certificate and key for loopback TLS, with the digests a client pins.
public struct TestTLSIdentity: Sendable {
    /// The certificate, to serve and for a client to trust as its root.
    public let certificate: NIOSSLCertificate
    /// The server's TLS configuration.
    public let serverConfiguration: TLSConfiguration
    /// Lower-case hex SHA-256 of the certificate's DER (the iOS-style CM pin).
    public let certificateSHA256Hex: String
    /// Base64 SHA-256 of the SubjectPublicKeyInfo (the Android-style CM pin).
    public let spkiSHA256Base64: String

    /// A new identity valid from an hour ago for a day.
    public init(commonName: String = "mfa-server loopback") throws {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName(commonName) }
        let now = Date()
        let extensions = try Certificate.Extensions {
            Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
            SubjectAlternativeNames([.dnsName("localhost"), .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))])
        }
        let x509 = try Certificate(version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
                                   notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(86_400),
                                   issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions,
                                   issuerPrivateKey: .init(key))
        var serializer = DER.Serializer()
        try serializer.serialize(x509)
        let der = serializer.serializedBytes
        certificate = try NIOSSLCertificate(bytes: der, format: .der)
        let privateKey = try NIOSSLPrivateKey(bytes: Array(key.pemRepresentation.utf8), format: .pem)
        serverConfiguration = TLSConfiguration.makeServerConfiguration(certificateChain: [.certificate(certificate)], privateKey: .privateKey(privateKey))
        certificateSHA256Hex = SHA256.hash(data: der).map { String(format: "%02x", $0) }.joined()
        spkiSHA256Base64 = Data(SHA256.hash(data: try certificate.extractPublicKey().toSPKIBytes())).base64EncodedString()
    }
}
