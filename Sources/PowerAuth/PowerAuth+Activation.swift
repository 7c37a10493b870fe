// Activation (docs/protocols/powerauth.md §5): the layer-2 plaintext with the device key, encrypted for
// `/pa/activation`; the layer-1 plaintext with the activation type, encrypted for
// `/pa/generic/application`; then both responses decrypted, validated and turned into keys.

public import CryptoPrimitives
public import ProtocolSupport

extension PowerAuth {
    /// How the activation is identified (docs/protocols/powerauth.md §5.2 layer 1 `type`).
    public enum ActivationMethod: Sendable {
        /// `CODE` with `{"code": …}`; `otp` goes into layer 2 (`activationOtp`).
        case code(ActivationCode, otp: String? = nil)
        /// `RECOVERY` with `{"recoveryCode": …, "puk": …}` (§13): the code with or without
        /// `R:` (sent without it), the PUK ten digits; both are checked when the request is built.
        case recovery(code: String, puk: SecretBytes)
        /// `CUSTOM` (deprecated upstream in favour of `DIRECT`) with the app's attributes.
        case custom([String: String])
        /// `DIRECT` with the app's attributes (e.g. `method: oidc`).
        case direct([String: String])
    }

    /// The ECIES key of the application scope: the master key (3.0–3.2) or a temporary key
    /// from the keystore with its id (3.3, docs/protocols/powerauth.md §10).
    public struct EncryptionKey: Sendable {
        /// The P-256 key requests are encrypted to.
        public let publicKey: P256.KeyAgreement.PublicKey
        /// The temporary key id (3.3), else `nil`.
        public let temporaryKeyID: String?

        /// Wraps a key and its id.
        public init(publicKey: P256.KeyAgreement.PublicKey, temporaryKeyID: String? = nil) {
            self.publicKey = publicKey
            self.temporaryKeyID = temporaryKeyID
        }
    }

    /// What the device says about itself in layer 2 (all optional, omitted when absent).
    public struct DeviceDescription: Sendable {
        /// `activationName`: a label for the activation shown in the back office.
        public var activationName: String?
        /// `extras`: free text for the server, opaque to the protocol.
        public var extras: String?
        /// `ios`, `android`, `hw`, `unknown`…; `unknown` is what a Linux client should send unless
        /// the server knows better (assumed).
        public var platform: String?
        /// `deviceInfo`: a description of the device (model, OS).
        public var deviceInfo: String?

        /// Creates a description.
        public init(activationName: String? = nil, extras: String? = nil, platform: String? = "unknown", deviceInfo: String? = nil) {
            self.activationName = activationName
            self.extras = extras
            self.platform = platform
            self.deviceInfo = deviceInfo
        }
    }

    /// An activation in flight: the request to send and what is needed to read the answer.
    public struct PendingActivation: Sendable {
        /// `POST /pa/v3/activation/create`, body = the layer-1 ECIES request, with
        /// `X-PowerAuth-Encryption` (§5.1 step 6).
        public let request: HTTPRequest
        let devicePrivateKey: P256.KeyAgreement.PrivateKey
        let layer1: ECIES.ResponseDecryptor
        let layer2: ECIES.ResponseDecryptor
        let version: ProtocolVersion

        /// Builds both layers (§5.1 steps 2–6). `timestamp` is the synchronised time in ms.
        public init(method: ActivationMethod, device: DeviceDescription = DeviceDescription(), configuration: Configuration,
                    encryptionKey: EncryptionKey, version: ProtocolVersion = .v3_3, timestamp: UInt64,
                    using random: inout some RandomSource) throws(ProtocolError) {
            guard version >= .v3_0 else { throw ProtocolError(.unsupported, "version") }
            do { devicePrivateKey = try P256.KeyAgreement.PrivateKey(using: &random) } catch { throw ProtocolError(.cryptoFailure, "key generation failed") }
            self.version = version
            var layer2Members: [(String, JSONText)] = []
            if let name = device.activationName { layer2Members.append(("activationName", .string(name))) }
            layer2Members.append(("devicePublicKey", .string(Base64.encode(devicePrivateKey.publicKey.compressedRepresentation))))
            if let extras = device.extras { layer2Members.append(("extras", .string(extras))) }
            if case .code(_, let otp?) = method { layer2Members.append(("activationOtp", .string(otp))) }
            if let platform = device.platform { layer2Members.append(("platform", .string(platform))) }
            if let info = device.deviceInfo { layer2Members.append(("deviceInfo", .string(info))) }

            func parameters(_ sh1: ECIES.SharedInfo1) -> ECIES.Parameters {
                .applicationScope(sh1, version: version, applicationKey: configuration.applicationKey,
                                  applicationSecret: configuration.applicationSecret, temporaryKeyID: encryptionKey.temporaryKeyID)
            }
            let (inner, innerDecryptor) = try ECIES.Encryptor(publicKey: encryptionKey.publicKey, parameters: parameters(.activationLayer2))
                .encryptRequest(JSONText.object(layer2Members).bytes, timestamp: timestamp, using: &random)
            let (type, identity): (String, [(String, JSONText)]) = switch method {
            case .code(let code, _): ("CODE", [("code", .string(code.code))])
            case .recovery(let code, let puk):
                // §3.3: a recovery code without `R:` and a ten-digit PUK.
                try ("RECOVERY", [("recoveryCode", .string(PowerAuth.recoveryCode(parsing: code))), ("puk", .secret(PowerAuth.validatedPUK(puk)))])
            case .custom(let attributes): ("CUSTOM", attributes.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })
            case .direct(let attributes): ("DIRECT", attributes.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })
            }
            let layer1Plaintext = JSONText.object([("type", .string(type)), ("identityAttributes", .object(identity)), ("activationData", inner.json)])
            var layer1Bytes = layer1Plaintext.bytes
            defer { SecretBytes.wipe(&layer1Bytes) }   // it may hold the recovery PUK
            let (outer, outerDecryptor) = try ECIES.Encryptor(publicKey: encryptionKey.publicKey, parameters: parameters(.applicationScopeGeneric))
                .encryptRequest(layer1Bytes, timestamp: timestamp, using: &random)
            layer1 = outerDecryptor
            layer2 = innerDecryptor
            request = HTTPRequest(method: .post, path: "pa/v3/activation/create", headers: [
                HTTPHeader("Content-Type", "application/json"), HTTPHeader("Accept", "application/json"),
                HTTPHeader("X-PowerAuth-Encryption", "PowerAuth version=\"\(version.rawValue)\", application_key=\"\(configuration.applicationKey)\""),
            ], body: outer.json.bytes)
        }

        /// Decrypts both layers and validates the result (§5.1 steps 7–8): a non-empty
        /// activation id, a server key on the curve, 16 bytes of CTR_DATA, well-formed recovery
        /// data. Decryption failures are the one decryption error; the rest
        /// `ProtocolError.Code.malformedInput`; an error envelope its `code` (§14.2).
        public func process(_ response: HTTPResponse) throws(ProtocolError) -> ActivationResult {
            try PowerAuth.requireSuccess(response)
            let outer = try ECIES.Response(jsonBytes: response.body)
            let layer1Plaintext = try layer1.decrypt(outer)
            let layer1Wire = try JSONResponse.decode(Layer1.self, from: layer1Plaintext, what: "activation layer 1")
            let inner = try ECIES.Response(wire: layer1Wire.activationData)
            var layer2Plaintext = try layer2.decrypt(inner)
            defer { SecretBytes.wipe(&layer2Plaintext) }
            let wire = try JSONResponse.decode(Layer2.self, from: layer2Plaintext, what: "activation layer 2")
            guard !wire.activationId.isEmpty else { throw ProtocolError(.malformedInput, "activation response without an id") }
            // CTR_DATA and the PUK are read from the plaintext into secret bytes, never into a String.
            guard let ctrText = try JSONSecretMember.value(at: ["ctrData"], in: layer2Plaintext, what: "activation layer 2") else {
                throw ProtocolError(.malformedInput, "activation response without CTR_DATA")
            }
            let (serverKeyBytes, serverKey, ctr) = try ProtocolError.converting("activation response fields") { () throws(CryptoError) in
                let serverKeyBytes = try Base64.decode(wire.serverPublicKey)
                return (serverKeyBytes, try P256.KeyAgreement.PublicKey(sec1Representation: serverKeyBytes),
                        try Base64.decode(secret: ctrText).withUnsafeBytes { raw throws(CryptoError) in try CounterData(rawRepresentation: raw) })
            }
            var recovery: RecoveryData?
            if let r = wire.activationRecovery {
                let puk = try JSONSecretMember.value(at: ["activationRecovery", "puk"], in: layer2Plaintext, what: "activation layer 2")
                guard PowerAuth.isValidCode(r.recoveryCode), let puk, PowerAuth.isValidPUK(puk) else { throw ProtocolError(.malformedInput, "recovery data") }
                recovery = RecoveryData(recoveryCode: r.recoveryCode, puk: puk)
            }
            let master: SymmetricKey
            do { master = try KeyDerivation.masterSecret(devicePrivateKey: devicePrivateKey, serverPublicKey: serverKey) } catch {
                throw ProtocolError(.malformedInput, "server key unusable")
            }
            return ActivationResult(activationID: wire.activationId, serverPublicKey: serverKeyBytes, devicePrivateKey: devicePrivateKey,
                                    counter: ctr, recovery: recovery, keys: ActivationKeys(masterSecret: master),
                                    fingerprint: activationFingerprint(devicePublicKey: devicePrivateKey.publicKey, activationID: wire.activationId,
                                                                       serverPublicKey: serverKey))
        }

        private struct Layer1: Decodable {
            let activationData: ECIES.Response.Wire
        }

        /// The public members of layer 2; `ctrData` and `activationRecovery.puk` are read with
        /// `JSONSecretMember`, so JSONDecoder never makes them into text.
        private struct Layer2: Decodable {
            struct Recovery: Decodable { let recoveryCode: String }
            let activationId: String
            let serverPublicKey: String
            let activationRecovery: Recovery?
        }
    }
}
