// Encrypted requests without a signature (docs/protocols/powerauth.md §9.4–§9.5, §15): the
// `X-PowerAuth-Encryption` header, and application- or activation-scope generic requests such as
// `/pa/v3/user/info` or an app endpoint's E2EE body; and signed app endpoints, which sign the
// plaintext and then encrypt it (§7.7, the convention the standard endpoints do not follow).

public import CryptoPrimitives
public import ProtocolSupport

extension PowerAuth {
    /// `X-PowerAuth-Encryption: PowerAuth version="…", application_key="…"[, activation_id="…"]` (§9.4).
    public static func encryptionHeader(version: ProtocolVersion, applicationKey: String, activationID: String? = nil) -> HTTPHeader {
        var value = "PowerAuth version=\"\(version.rawValue)\", application_key=\"\(applicationKey)\""
        if let activationID { value += ", activation_id=\"\(activationID)\"" }
        return HTTPHeader("X-PowerAuth-Encryption", value)
    }

    /// Which scope a generic encrypted request uses (§9.1).
    public enum EncryptionScope: Sendable {
        /// `/pa/generic/application`, SH2 from APP_SECRET.
        case application
        /// `/pa/generic/activation`, SH2 from KEY_TRANSPORT, bound to the activation id.
        case activation(id: String, transportKey: SymmetricKey)
    }

    /// An unsigned encrypted request: the ECIES body of `plaintext` in `scope` to `encryptionKey`,
    /// with `X-PowerAuth-Encryption`, and its response decryptor.
    public static func encryptedRequest(path: String, plaintext: [UInt8], scope: EncryptionScope, sharedInfo1: ECIES.SharedInfo1? = nil,
                                        configuration: Configuration, encryptionKey: EncryptionKey, version: ProtocolVersion = .v3_3,
                                        timestamp: UInt64, using random: inout some RandomSource) throws(ProtocolError) -> (request: HTTPRequest, decryptor: ECIES.ResponseDecryptor) {
        let parameters: ECIES.Parameters
        let header: HTTPHeader
        switch scope {
        case .application:
            parameters = .applicationScope(sharedInfo1 ?? .applicationScopeGeneric, version: version, applicationKey: configuration.applicationKey,
                                           applicationSecret: configuration.applicationSecret, temporaryKeyID: encryptionKey.temporaryKeyID)
            header = encryptionHeader(version: version, applicationKey: configuration.applicationKey)
        case .activation(let id, let transportKey):
            parameters = .activationScope(sharedInfo1 ?? .activationScopeGeneric, version: version, applicationKey: configuration.applicationKey,
                                          applicationSecret: configuration.applicationSecret, transportKey: transportKey, activationID: id,
                                          temporaryKeyID: encryptionKey.temporaryKeyID)
            header = encryptionHeader(version: version, applicationKey: configuration.applicationKey, activationID: id)
        }
        let (ecies, decryptor) = try ECIES.Encryptor(publicKey: encryptionKey.publicKey, parameters: parameters)
            .encryptRequest(plaintext, timestamp: timestamp, using: &random)
        let request = HTTPRequest(method: .post, path: path, headers: [HTTPHeader("Content-Type", "application/json"),
                                                                     HTTPHeader("Accept", "application/json"), header], body: ecies.json.bytes)
        return (request, decryptor)
    }

    /// A signed and encrypted request to an application endpoint (`@PowerAuth` with
    /// `@PowerAuthEncryption`, §7.7): the signature covers the **plaintext** (`POST`, `uriID`),
    /// then the plaintext is encrypted in `scope`; the request carries the signature header and
    /// no `X-PowerAuth-Encryption`. Persist `next` before sending. (The standard endpoints
    /// encrypt first and sign the ECIES body: ``encryptedRequest(path:uriID:sharedInfo1:plaintext:activation:factors:keys:transportKey:configuration:encryptionKey:version:timestamp:using:)``.)
    public static func signedEncryptedRequest(path: String, uriID: String, plaintext: [UInt8], scope: EncryptionScope,
                                              activation: ActivationData, factors: SignatureFactors, keys: SignatureKeys,
                                              configuration: Configuration, encryptionKey: EncryptionKey, version: ProtocolVersion = .v3_3,
                                              timestamp: UInt64, using random: inout some RandomSource) throws(ProtocolError) -> PendingEncryptedRequest {
        let signed = try sign(method: "POST", uriID: uriID, body: plaintext, activation: activation, factors: factors, keys: keys,
                              configuration: configuration, version: version, using: &random)
        let (encrypted, decryptor) = try encryptedRequest(path: path, plaintext: plaintext, scope: scope, configuration: configuration,
                                                          encryptionKey: encryptionKey, version: version, timestamp: timestamp, using: &random)
        let headers = encrypted.headers.filter { $0.name != "X-PowerAuth-Encryption" } + [signed.header]
        return PendingEncryptedRequest(request: HTTPRequest(method: .post, path: path, headers: headers, body: encrypted.body),
                                       next: signed.next, decryptor: decryptor)
    }
}
