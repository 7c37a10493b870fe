// `POST /pa/v3/activation/create` from the server's side (docs/protocols/powerauth.md §5.1, §5.2), in two steps
// so that the server decides between them: decrypt both layers and read what the client asked
// for (the activation code, the recovery code and PUK, custom attributes), then either accept
// and answer, or answer with the error envelope of §14.2.

public import CryptoPrimitives
public import PowerAuth
public import ProtocolSupport

extension PowerAuthServer {
    /// What the client asked for in layer 1 and layer 2 (§5.2).
    public struct ActivationRequest: Sendable, Equatable {
        /// `CODE`, `RECOVERY`, `CUSTOM` or `DIRECT`.
        public let type: String
        /// The identity attributes (string values).
        public let identityAttributes: [String: String]
        /// The layer-2 `activationOtp`, if any.
        public let activationOTP: String?
        /// The layer-2 `platform`, if any.
        public let platform: String?

        /// Creates a value (for comparisons in tests and logs).
        public init(type: String, identityAttributes: [String: String], activationOTP: String?, platform: String?) {
            self.type = type
            self.identityAttributes = identityAttributes
            self.activationOTP = activationOTP
            self.platform = platform
        }
    }

    /// A decrypted activation request awaiting the server's decision.
    public struct ReceivedActivation: Sendable {
        /// What the client asked for.
        public let request: ActivationRequest
        /// KEY_DEVICE_PUBLIC from layer 2.
        public let devicePublicKey: P256.KeyAgreement.PublicKey
        let version: PowerAuth.ProtocolVersion
        /// APP_KEY of the application whose key decrypted the request.
        let applicationKey: String
        let outerEncryptor: PowerAuth.ECIES.ResponseEncryptor
        let innerEncryptor: PowerAuth.ECIES.ResponseEncryptor

        /// Decrypts both layers with the application-scope key (`encryptionKey`: the master
        /// key, or the 3.3 temporary key with its id). Failures are typed: decryption (one
        /// error), malformed JSON, a bad device key.
        public init(_ request: HTTPRequest, application: Application, version: PowerAuth.ProtocolVersion,
                    encryptionKey: P256.KeyAgreement.PrivateKey? = nil, temporaryKeyID: String? = nil) throws(ProtocolError) {
            let key = encryptionKey ?? application.masterAgreementKey
            let outer = try PowerAuth.ECIES.Request(jsonBytes: request.body ?? [])
            let (layer1, outerEncryptor) = try PowerAuth.ECIES.RequestDecryptor(
                privateKey: key, parameters: application.applicationScope(.applicationScopeGeneric, version: version, temporaryKeyID: temporaryKeyID)).decrypt(outer)
            let l1 = try JSONResponse.decode(Layer1.self, from: layer1, what: "activation layer 1")
            let (layer2, innerEncryptor) = try PowerAuth.ECIES.RequestDecryptor(
                privateKey: key, parameters: application.applicationScope(.activationLayer2, version: version, temporaryKeyID: temporaryKeyID))
                .decrypt(try PowerAuth.ECIES.Request(wire: l1.activationData))
            let l2 = try JSONResponse.decode(Layer2.self, from: layer2, what: "activation layer 2")
            let device = try ProtocolError.converting("device public key") { () throws(CryptoError) in
                try P256.KeyAgreement.PublicKey(sec1Representation: Base64.decode(l2.devicePublicKey))
            }
            self.request = ActivationRequest(type: l1.type, identityAttributes: l1.identityAttributes ?? [:], activationOTP: l2.activationOtp,
                                             platform: l2.platform)
            devicePublicKey = device
            self.version = version
            applicationKey = application.applicationKey
            self.outerEncryptor = outerEncryptor
            self.innerEncryptor = innerEncryptor
        }

        /// Accepts (§5.1 server side): a fresh server key pair and CTR_DATA, the activation
        /// record to persist, and the two-layer answer, with the new activation's recovery code
        /// and first PUK when given (§5.2, `activationRecovery`).
        public func accept(activationID: String, recovery: (code: String, puk: SecretBytes)? = nil, timestamp: UInt64,
                           using random: inout some RandomSource) throws(ProtocolError) -> (activation: Activation, response: HTTPResponse) {
            let (serverKey, ctr, counter, master) = try ProtocolError.converting("server key or counter") { () throws(CryptoError) in
                let serverKey = try P256.KeyAgreement.PrivateKey(using: &random)
                let ctr = try random.bytes(count: 16)
                return (serverKey, ctr, try PowerAuth.CounterData(rawRepresentation: ctr),
                        try PowerAuth.KeyDerivation.masterSecret(devicePrivateKey: serverKey, serverPublicKey: devicePublicKey))
            }
            var answer: [(String, JSONText)] = [("activationId", .string(activationID)),
                                                ("serverPublicKey", .string(Base64.encode(serverKey.publicKey.x963Representation))),
                                                ("ctrData", .string(Base64.encode(ctr)))]
            if let recovery {
                let puk = String(decoding: recovery.puk.unsafeExposedBytes, as: UTF8.self)  // the answer is JSON text
                answer.append(("activationRecovery", .object([("recoveryCode", .string(recovery.code)), ("puk", .string(puk))])))
            }
            let inner = try innerEncryptor.encrypt(JSONText.object(answer).bytes, timestamp: timestamp, using: &random)
            let outerResponse = try outerEncryptor.encrypt(JSONText.object([("activationData", inner.json)]).bytes, timestamp: timestamp, using: &random)
            let activation = Activation(id: activationID, version: version, serverKey: serverKey, devicePublicKey: devicePublicKey,
                                        applicationKey: applicationKey, keys: PowerAuth.ActivationKeys(masterSecret: master), counter: counter)
            return (activation, HTTPResponse(status: 200, body: outerResponse.json.bytes))
        }

        private struct Layer1: Decodable {
            let type: String
            let identityAttributes: [String: String]?
            let activationData: PowerAuth.ECIES.Request.Wire
        }

        private struct Layer2: Decodable {
            let devicePublicKey: String
            let activationOtp: String?
            let platform: String?
        }
    }
}

extension PowerAuthServer.Activation {
    /// Both steps at once, for a server that accepts whatever it can decrypt: see
    /// ``PowerAuthServer/ReceivedActivation``.
    public static func process(_ request: HTTPRequest, application: PowerAuthServer.Application, version: PowerAuth.ProtocolVersion,
                               encryptionKey: P256.KeyAgreement.PrivateKey? = nil, temporaryKeyID: String? = nil,
                               activationID: String, recovery: (code: String, puk: SecretBytes)? = nil, timestamp: UInt64,
                               using random: inout some RandomSource) throws(ProtocolError) -> (activation: Self, request: PowerAuthServer.ActivationRequest, response: HTTPResponse) {
        let received = try PowerAuthServer.ReceivedActivation(request, application: application, version: version, encryptionKey: encryptionKey,
                                                              temporaryKeyID: temporaryKeyID)
        let (activation, response) = try received.accept(activationID: activationID, recovery: recovery, timestamp: timestamp, using: &random)
        return (activation, received.request, response)
    }
}
