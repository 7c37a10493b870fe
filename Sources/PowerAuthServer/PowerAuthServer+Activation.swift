// The server's activation record (powerauth.md §5, §6, §7 from the other side): processing
// activation/create, verifying signatures with the look-ahead window, counting failures, and
// answering status.

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

    /// The outcome of a signature check.
    public enum SignatureVerification: Sendable, Equatable {
        /// Valid at `steps` positions ahead of the server's counter (0 = in step).
        case valid(steps: Int)
        /// Not valid within the window; a failed attempt was counted.
        case invalid
        /// The activation is not ACTIVE (or just became BLOCKED).
        case notActive
    }

    /// One activation as the server keeps it. Persist it after every change.
    public struct Activation: Sendable {
        public let id: String
        public let version: PowerAuth.ProtocolVersion
        let serverKey: P256.KeyAgreement.PrivateKey
        /// KEY_DEVICE_PUBLIC as received.
        public let devicePublicKey: P256.KeyAgreement.PublicKey
        let keys: PowerAuth.ActivationKeys
        /// The server's CTR_DATA: the next value a signature may use.
        public private(set) var counter: PowerAuth.CounterData
        /// The server's integer counter (its low byte is CTR_BYTE).
        public private(set) var counterIndex = 0
        public private(set) var failedAttempts: UInt8 = 0
        public var maxFailedAttempts: UInt8 = 5
        /// The look-ahead window (1…64).
        public var lookAheadWindow = 20
        public var state: PowerAuth.ActivationState = .active

        /// KEY_SERVER_PUBLIC.
        public var serverPublicKey: P256.KeyAgreement.PublicKey { serverKey.publicKey }

        /// KEY_TRANSPORT (for activation-scope ECIES and the vault).
        public var transportKey: SymmetricKey { keys.transport }

        /// Processes `POST /pa/v3/activation/create` (§5.1): decrypts both layers with the
        /// application-scope key (`encryptionKey`: the master key, or the 3.3 temporary key with
        /// its id), creates the server key pair and CTR_DATA, and answers (with recovery data
        /// when given). Failures are typed: decryption (one error), malformed JSON, a bad device key.
        public static func process(_ request: HTTPRequest, application: Application, version: PowerAuth.ProtocolVersion,
                                   encryptionKey: P256.KeyAgreement.PrivateKey? = nil, temporaryKeyID: String? = nil,
                                   activationID: String, recovery: (code: String, puk: String)? = nil, timestamp: UInt64,
                                   using random: inout some RandomSource) throws(ProtocolError) -> (activation: Activation, request: ActivationRequest, response: HTTPResponse) {
            let key = encryptionKey ?? application.masterAgreementKey
            let outer = try PowerAuth.ECIES.Request(jsonBytes: request.body ?? [])
            let (layer1, outerEncryptor) = try PowerAuth.ECIES.RequestDecryptor(
                privateKey: key, parameters: application.applicationScope(.applicationScopeGeneric, version: version, temporaryKeyID: temporaryKeyID)).decrypt(outer)
            let l1 = try JSONResponse.decode(Layer1.self, from: layer1, what: "activation layer 1")
            let (layer2, innerEncryptor) = try PowerAuth.ECIES.RequestDecryptor(
                privateKey: key, parameters: application.applicationScope(.activationLayer2, version: version, temporaryKeyID: temporaryKeyID))
                .decrypt(try PowerAuth.ECIES.Request(wire: l1.activationData))
            let l2 = try JSONResponse.decode(Layer2.self, from: layer2, what: "activation layer 2")
            guard let deviceBytes = try? Base64.decode(l2.devicePublicKey),
                  let device = try? P256.KeyAgreement.PublicKey(sec1Representation: deviceBytes) else {
                throw ProtocolError(.malformedInput, "device public key")
            }
            guard let serverKey = try? P256.KeyAgreement.PrivateKey(using: &random), let ctr = try? random.bytes(count: 16),
                  let counter = try? PowerAuth.CounterData(rawRepresentation: ctr),
                  let master = try? PowerAuth.KeyDerivation.masterSecret(devicePrivateKey: serverKey, serverPublicKey: device) else {
                throw ProtocolError(.cryptoFailure, "server key or counter")
            }
            var answer: [(String, JSONText)] = [("activationId", .string(activationID)),
                                                ("serverPublicKey", .string(Base64.encode(serverKey.publicKey.x963Representation))),
                                                ("ctrData", .string(Base64.encode(ctr)))]
            if let recovery {
                answer.append(("activationRecovery", .object([("recoveryCode", .string(recovery.code)), ("puk", .string(recovery.puk))])))
            }
            let inner = try innerEncryptor.encrypt(JSONText.object(answer).bytes, timestamp: timestamp, using: &random)
            let outerResponse = try outerEncryptor.encrypt(JSONText.object([("activationData", inner.json)]).bytes, timestamp: timestamp, using: &random)
            let activation = Activation(id: activationID, version: version, serverKey: serverKey, devicePublicKey: device,
                                        keys: PowerAuth.ActivationKeys(masterSecret: master), counter: counter)
            let parsed = ActivationRequest(type: l1.type, identityAttributes: l1.identityAttributes ?? [:], activationOTP: l2.activationOtp, platform: l2.platform)
            return (activation, parsed, HTTPResponse(status: 200, body: outerResponse.json.bytes))
        }

        private struct Layer1: Decodable {
            let type: String
            let identityAttributes: [String: String]?
            let activationData: PowerAuth.ECIES.Request.Wire
        }

        private struct StatusRequest: Decodable {
            struct Inner: Decodable { let activationId: String; let challenge: String }
            let requestObject: Inner
        }

        private struct Layer2: Decodable {
            let devicePublicKey: String
            let activationOtp: String?
            let platform: String?
        }

        /// Verifies an `X-PowerAuth-Authorization` value over `body` (§7.5): the header's fields,
        /// then the signature at each counter of the window. On success the counter moves past
        /// the match and failures reset (except for possession-only, §14.2); on failure one
        /// attempt is counted and the activation blocks at the maximum.
        public mutating func verify(header: String, method: String, uriID: String, body: [UInt8], applicationSecret: String) -> SignatureVerification {
            guard state == .active else { return .notActive }
            guard let fields = Self.fields(of: header), fields["pa_activation_id"] == id, let nonce = fields["pa_nonce"],
                  (try? Base64.decode(nonce))?.count == 16, let type = fields["pa_signature_type"],
                  let factors = PowerAuth.SignatureFactors(rawValue: type), let signature = fields["pa_signature"],
                  let versionText = fields["pa_version"], let version = PowerAuth.ProtocolVersion(rawValue: versionText) else { return fail() }
            let data = PowerAuth.NormalizedData.make(method: method, uriID: uriID, nonce: nonce, body: body, secret: applicationSecret)
            let all = PowerAuth.SignatureKeys(possession: keys.possession, knowledge: keys.knowledge, biometry: keys.biometry)
            var candidate = counter
            for step in 0..<lookAheadWindow {
                let expected = try? PowerAuth.Signature.compute(data: data, counter: candidate, factors: factors, keys: all,
                                                                format: version == .v3_0 ? .decimal(digits: 8) : .base64)
                if let expected, Array(expected.utf8) == Array(signature.utf8) {
                    counter = candidate.next
                    counterIndex += step + 1
                    if factors != .possession { failedAttempts = 0 }
                    return .valid(steps: step)
                }
                candidate = candidate.next
            }
            return fail()
        }

        private mutating func fail() -> SignatureVerification {
            failedAttempts &+= 1
            if failedAttempts >= maxFailedAttempts { state = .blocked; return .notActive }
            return .invalid
        }

        /// `key="value"` pairs after `PowerAuth `; `nil` when the header is not of that shape.
        static func fields(of header: String) -> [String: String]? {
            guard header.hasPrefix("PowerAuth ") else { return nil }
            var fields: [String: String] = [:]
            for part in header.dropFirst(10).split(separator: ",") {
                let pair = part.trimmingPrefix(" ").split(separator: "=", maxSplits: 1)
                guard pair.count == 2, pair[1].hasPrefix("\""), pair[1].hasSuffix("\""), pair[1].count >= 2 else { return nil }
                fields[String(pair[0])] = String(pair[1].dropFirst().dropLast())
            }
            return fields
        }

        /// Answers `POST /pa/v3/activation/status` (§6): the 3.1+ blob under a fresh nonce.
        public func status(_ request: HTTPRequest, using random: inout some RandomSource) throws(ProtocolError) -> HTTPResponse {
            let body = try JSONResponse.decode(StatusRequest.self, from: request.body ?? [], what: "status request")
            guard body.requestObject.activationId == id, let challenge = try? Base64.decode(body.requestObject.challenge), challenge.count == 16,
                  let nonce = try? random.bytes(count: 16), let reserved = try? random.bytes(count: 5) else {
                throw ProtocolError(.malformedInput, "status request")
            }
            let counterKey = PowerAuth.KeyDerivation.derive(keys.transport, index: 4000)
            let hash = PowerAuth.KeyDerivation.deriveInternal(counterKey, index: counter.rawRepresentation.unsafeExposedBytes).withUnsafeBytes { Array($0) }
            let blob: [UInt8] = [0xDE, 0xC0, 0xDE, 0xD1, state.rawValue, 3, 3] + reserved
                + [UInt8(truncatingIfNeeded: counterIndex), failedAttempts, maxFailedAttempts, UInt8(lookAheadWindow)] + hash
            let iv = PowerAuth.StatusBlob.iv(transportKey: keys.transport, challenge: challenge, nonce: nonce)
            guard let encrypted = try? AES.UnauthenticatedCBC.encrypt(blob, using: keys.transport, iv: iv, padding: .none) else {
                throw ProtocolError(.cryptoFailure, "status blob")
            }
            let answer = JSONText.object([("status", .string("OK")), ("responseObject", .object([
                ("activationId", .string(id)), ("encryptedStatusBlob", .string(Base64.encode(encrypted))), ("nonce", .string(Base64.encode(nonce))),
            ]))])
            return HTTPResponse(status: 200, body: answer.bytes)
        }
    }
}
