// A small adapter over `PowerAuthServer` for the PowerAuth core, server and SDK tests: one
// application (fixed APP_KEY / APP_SECRET unless the test brings its own), one activation, and
// the 3.3 temporary keys as the tests expect them (the application scope's is the master key
// with id `tmp-app-1`, the activation scope's a fresh pair with id `tmp-act-1`). Sans-I/O: the
// tests hand it the `HTTPRequest` a client built and give its answer back to the client.

public import CryptoPrimitives
public import PowerAuth
public import PowerAuthServer
public import ProtocolSupport

/// One PowerAuth application and its activation on the server's side, seeded.
public final class PowerAuthTestServer {
    /// The application (master key from the seed, fixed APP_KEY / APP_SECRET).
    public let application: PowerAuthServer.Application
    /// The client configuration of ``application``.
    public let configuration: PowerAuth.Configuration
    /// The protocol version the server answers in.
    public let version: PowerAuth.ProtocolVersion
    /// The server's random source (ECIES, status nonces).
    public var random: SeededRandomSource
    /// The id every activation gets.
    public let activationID: String
    /// The activation, once a client activated.
    public private(set) var activation: PowerAuthServer.Activation?
    private let activationTemporaryKey: P256.KeyAgreement.PrivateKey

    /// A server in `version` whose master key comes from `seed`, with fixed APP_KEY / APP_SECRET.
    public convenience init(version: PowerAuth.ProtocolVersion, seed: UInt64) throws {
        var random = SeededRandomSource(seed: seed)
        let application = try PowerAuthServer.Application(masterKey: try P256.Signing.PrivateKey(using: &random),
                                                           applicationKey: "lceX5qe+O+Sb0t8TQqg35A==", applicationSecret: "m3JdVJMIu65fXXFi4VqjjA==")
        try self.init(application: application, version: version, activationID: "4a5e0fbe-6f9e-4a53-9ad1-1c1d2e3f4a5b", random: random)
    }

    /// A server for an existing `application` in `version`; its other keys come from `seed`.
    public convenience init(application: PowerAuthServer.Application, version: PowerAuth.ProtocolVersion, activationID: String, seed: UInt64) throws {
        try self.init(application: application, version: version, activationID: activationID, random: SeededRandomSource(seed: seed))
    }

    private init(application: PowerAuthServer.Application, version: PowerAuth.ProtocolVersion, activationID: String,
                 random: SeededRandomSource) throws {
        var random = random
        activationTemporaryKey = try P256.KeyAgreement.PrivateKey(using: &random)
        self.random = random
        self.application = application
        self.version = version
        self.activationID = activationID
        configuration = try application.clientConfiguration(baseURL: "https://pa.example.com")
    }

    /// The master key for application-scope ECIES.
    public var masterKey: P256.KeyAgreement.PrivateKey { application.masterAgreementKey }
    /// The application-scope temporary key id (3.3 only).
    public var temporaryKeyID: String? { version >= .v3_3 ? "tmp-app-1" : nil }
    /// KEY_DEVICE_PUBLIC of the activation.
    public var devicePublicKey: P256.KeyAgreement.PublicKey? { activation?.devicePublicKey }
    /// KEY_SERVER_PUBLIC of the activation.
    public var serverPublicKey: P256.KeyAgreement.PublicKey? { activation?.serverPublicKey }

    /// The activation-scope ECIES key a 3.3 client must use (nil before: the server key).
    public var activationEncryptionKey: PowerAuth.EncryptionKey? {
        version >= .v3_3 ? PowerAuth.EncryptionKey(publicKey: activationTemporaryKey.publicKey, temporaryKeyID: "tmp-act-1") : nil
    }

    /// The application-scope key a client encrypts activation/create to.
    public var applicationEncryptionKey: PowerAuth.EncryptionKey { .init(publicKey: masterKey.publicKey, temporaryKeyID: temporaryKeyID) }

    /// A client's activation by code to this server, in this server's version, not yet sent.
    public func pendingCodeActivation(random: inout SeededRandomSource) throws -> PowerAuth.PendingActivation {
        try PowerAuth.PendingActivation(method: .code(try PowerAuth.ActivationCode(parsing: "VVVVV-VVVVV-VVVVV-VTFVA")),
                                        configuration: configuration, encryptionKey: applicationEncryptionKey, version: version,
                                        timestamp: 1, using: &random)
    }

    /// A client activated by code against this server and persisted: the start of most transcripts.
    public func activatedClient(password: SecretBytes, possessionUnlockKey: SymmetricKey, random: inout SeededRandomSource) throws -> PowerAuth.ActivationData {
        let pending = try pendingCodeActivation(random: &random)
        return try pending.process(try activate(pending.request).response)
            .persist(password: password, possessionUnlockKey: possessionUnlockKey, version: version, using: &random)
    }

    /// Answers activation/create; returns the layer-1 type and identity it read.
    public func activate(_ request: HTTPRequest, recovery: (String, String)? = nil) throws -> (response: HTTPResponse, type: String, identity: [String: String]) {
        let (created, parsed, response) = try PowerAuthServer.Activation.process(
            request, application: application, version: version, temporaryKeyID: temporaryKeyID, activationID: activationID,
            recovery: recovery.map { (code: $0.0, puk: SecretBytes($0.1.utf8)) }, timestamp: 1_700_000_000_500, using: &random)
        activation = created
        return (response, parsed.type, parsed.identityAttributes)
    }

    /// Whether the header verifies (the server's counter moves past a match).
    public func verify(header: String, method: String, uriID: String, body: [UInt8]) throws -> Bool {
        guard case .valid = verification(header: header, method: method, uriID: uriID, body: body) else { return false }
        return true
    }

    /// The server's verdict on a header (the counter moves past a match, a failure is counted).
    public func verification(header: String, method: String, uriID: String, body: [UInt8]) -> PowerAuthServer.SignatureVerification {
        activation?.verify(header: header, method: method, uriID: uriID, body: body, applicationSecret: application.applicationSecret) ?? .notActive
    }

    /// The server's check of an offline signature typed by the user.
    public func verifyOffline(_ signature: String, factors: PowerAuth.SignatureFactors, nonce: String, data: [UInt8]) -> PowerAuthServer.SignatureVerification {
        activation?.verifyOffline(signature, factors: factors, nonce: nonce, data: data) ?? .notActive
    }

    /// Answers `activation/status` (400 before an activation exists).
    public func status(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let activation else { return HTTPResponse(status: 400) }
        return try activation.status(request, using: &random)
    }

    /// Answers an encrypt-then-sign endpoint, or `nil` when its signature fails.
    public func encryptedEndpoint(_ request: HTTPRequest, uriID: String, sharedInfo1: PowerAuth.ECIES.SharedInfo1,
                                  answer: ([UInt8]) throws -> [UInt8]) throws -> HTTPResponse? {
        guard let header = request.header("X-PowerAuth-Authorization"), try verify(header: header, method: "POST", uriID: uriID, body: request.body ?? []),
              let activation else { return nil }
        let temporary = version >= .v3_3 ? (key: activationTemporaryKey, id: "tmp-act-1") : nil
        let (plaintext, encryptor) = try activation.decrypt(request.body ?? [], sharedInfo1: sharedInfo1, application: application, temporaryKey: temporary)
        return HTTPResponse(status: 200, body: try encryptor.encrypt(try answer(plaintext), timestamp: 1_700_000_001_000, using: &random).json.bytes)
    }

    /// Answers an app endpoint that decrypts first and checks the signature over the plaintext
    /// (§7.7), or `nil` when the signature fails or an encryption header came along.
    public func decryptThenVerify(_ request: HTTPRequest, uriID: String, answer: [UInt8]) throws -> HTTPResponse? {
        guard let header = request.header("X-PowerAuth-Authorization"), request.header("X-PowerAuth-Encryption") == nil,
              let activation else { return nil }
        let temporary = version >= .v3_3 ? (key: activationTemporaryKey, id: "tmp-act-1") : nil
        let (plaintext, encryptor) = try activation.decrypt(request.body ?? [], sharedInfo1: .activationScopeGeneric, application: application,
                                                            temporaryKey: temporary)
        guard try verify(header: header, method: "POST", uriID: uriID, body: plaintext) else { return nil }
        return HTTPResponse(status: 200, body: try encryptor.encrypt(answer, timestamp: 1_700_000_002_000, using: &random).json.bytes)
    }

    /// The vault-unlock answer plaintext (empty before an activation exists).
    public func vaultUnlockAnswer() throws -> [UInt8] {
        try activation?.vaultUnlockAnswer() ?? []
    }
}
