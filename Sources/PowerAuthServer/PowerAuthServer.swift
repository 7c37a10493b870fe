// The server's half of PowerAuth 3.x (docs/protocols/powerauth.md read from the other side), sans-I/O: for our
// tests, for the reference server that will follow, and for Linux back-ends that verify
// signatures. State values are returned; the caller persists them.

public import CryptoPrimitives
public import PowerAuth
public import ProtocolSupport

/// The PowerAuth server core.
public enum PowerAuthServer {
    /// One application: its master key pair and APP_KEY / APP_SECRET.
    public struct Application: Sendable {
        /// The master signing key (activation-code signatures, server-signed data, keystore JWTs).
        public let masterSigningKey: P256.Signing.PrivateKey
        /// The same key for ECIES in application scope (3.0–3.2).
        public let masterAgreementKey: P256.KeyAgreement.PrivateKey
        /// APP_KEY, Base64 text.
        public let applicationKey: String
        /// APP_SECRET, Base64 text.
        public let applicationSecret: String
        /// APP_SECRET's 16 decoded bytes (the keystore JWT key, §10).
        public let applicationSecretBytes: [UInt8]

        /// An application with a fresh master key and fresh APP_KEY / APP_SECRET from `random`.
        public init(using random: inout some RandomSource) throws(ProtocolError) {
            let masterKey = try ProtocolError.converting("master key") { () throws(CryptoError) in try P256.Signing.PrivateKey(using: &random) }
            let (key, secret) = try ProtocolError.converting("APP_KEY and APP_SECRET") { () throws(CryptoError) in
                (try random.bytes(count: 16), try random.bytes(count: 16))
            }
            try self.init(masterKey: masterKey, applicationKey: Base64.encode(key), applicationSecret: Base64.encode(secret))
        }

        /// An application with an existing master key and APP_KEY / APP_SECRET (Base64 of 16 bytes each).
        public init(masterKey: P256.Signing.PrivateKey, applicationKey: String, applicationSecret: String) throws(ProtocolError) {
            let configuration = try PowerAuth.Configuration(applicationKey: applicationKey, applicationSecret: applicationSecret,
                                                            masterServerPublicKey: masterKey.publicKey, baseURL: "")
            masterSigningKey = masterKey
            masterAgreementKey = P256.KeyAgreement.PrivateKey(sameKeyAs: masterKey)
            self.applicationKey = applicationKey
            self.applicationSecret = applicationSecret
            applicationSecretBytes = configuration.applicationSecretBytes
        }

        /// The client configuration for this application.
        public func clientConfiguration(baseURL: String) throws(ProtocolError) -> PowerAuth.Configuration {
            try PowerAuth.Configuration(applicationKey: applicationKey, applicationSecret: applicationSecret,
                                        masterServerPublicKey: masterSigningKey.publicKey, baseURL: baseURL)
        }

        /// A fresh activation code (10 random bytes ‖ CRC-16/ARC, Base32 in four groups) and its
        /// `#signature`: Base64 DER ECDSA over the code's ASCII with the master key (§3.1–§3.2).
        public func issueActivationCode(using random: inout some RandomSource) throws(ProtocolError) -> (code: String, signature: String) {
            let code = try PowerAuthServer.randomCode(using: &random)
            let signature = try ProtocolError.converting("activation code signature") { () throws(CryptoError) in
                try masterSigningKey.signature(for: Array(code.utf8), randomness: &random)
            }
            return (code, Base64.encode(signature.derRepresentation))
        }

        /// ECIES parameters of application scope for `sharedInfo1`.
        public func applicationScope(_ sharedInfo1: PowerAuth.ECIES.SharedInfo1, version: PowerAuth.ProtocolVersion,
                                     temporaryKeyID: String?) -> PowerAuth.ECIES.Parameters {
            .applicationScope(sharedInfo1, version: version, applicationKey: applicationKey, applicationSecret: applicationSecret,
                              temporaryKeyID: temporaryKeyID)
        }
    }

    /// 10 random bytes ‖ their CRC-16/ARC, Base32 in four groups of five joined by `-`: the
    /// format of activation and recovery codes (§3.1, §3.3).
    static func randomCode(using random: inout some RandomSource) throws(ProtocolError) -> String {
        let body = try ProtocolError.converting("code") { () throws(CryptoError) in try random.bytes(count: 10) }
        let crc = CRC16.arc(body)
        let text = Base32.encode(body + [UInt8(crc >> 8), UInt8(crc & 0xFF)])
        return stride(from: 0, to: 20, by: 5).map { offset in String(text.dropFirst(offset).prefix(5)) }.joined(separator: "-")
    }
}
