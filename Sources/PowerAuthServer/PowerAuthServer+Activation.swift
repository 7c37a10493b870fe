// The server's activation record (powerauth.md §6, §7 from the other side): verifying online
// and offline signatures with the look-ahead window, counting failures, and answering status.
// Creating it is in PowerAuthServer+ActivationCreate.swift.

public import CryptoPrimitives
public import PowerAuth
public import ProtocolSupport

extension PowerAuthServer {
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
        /// The activation id.
        public let id: String
        /// The protocol version the activation was created with.
        public let version: PowerAuth.ProtocolVersion
        let serverKey: P256.KeyAgreement.PrivateKey
        /// KEY_DEVICE_PUBLIC as received.
        public let devicePublicKey: P256.KeyAgreement.PublicKey
        let keys: PowerAuth.ActivationKeys
        /// The server's CTR_DATA: the next value a signature may use.
        public private(set) var counter: PowerAuth.CounterData
        /// The server's integer counter (its low byte is CTR_BYTE).
        public private(set) var counterIndex = 0
        /// Failed signatures since the last successful non-possession-only one.
        public private(set) var failedAttempts: UInt8 = 0
        /// Failed signatures that block the activation.
        public var maxFailedAttempts: UInt8 = 5
        /// The look-ahead window (1…64).
        public var lookAheadWindow = 20
        /// The activation state (status blob byte, §6.2).
        public var state: PowerAuth.ActivationState = .active

        /// KEY_SERVER_PUBLIC.
        public var serverPublicKey: P256.KeyAgreement.PublicKey { serverKey.publicKey }

        /// KEY_TRANSPORT (for activation-scope ECIES and the vault).
        public var transportKey: SymmetricKey { keys.transport }

        private struct StatusRequest: Decodable {
            struct Inner: Decodable { let activationId: String; let challenge: String }
            let requestObject: Inner
        }

        /// Verifies an `X-PowerAuth-Authorization` value over `body` (§7.5): the header's fields
        /// (activation id, 16-byte nonce and application key, factors, version), then the
        /// signature at each counter of the window, in the format `pa_version` selects. On
        /// success the counter moves past the match and failures reset (except for
        /// possession-only, §14.2); on failure one attempt is counted and the activation blocks
        /// at the maximum.
        public mutating func verify(header: String, method: String, uriID: String, body: [UInt8], applicationSecret: String) -> SignatureVerification {
            guard state == .active else { return .notActive }
            guard let fields = Self.fields(of: header), fields["pa_activation_id"] == id, let nonce = fields["pa_nonce"],
                  (try? Base64.decode(nonce))?.count == 16, (fields["pa_application_key"].flatMap { try? Base64.decode($0) })?.count == 16,
                  let type = fields["pa_signature_type"], let factors = PowerAuth.SignatureFactors(rawValue: type),
                  let signature = fields["pa_signature"], let versionText = fields["pa_version"],
                  let version = PowerAuth.ProtocolVersion(rawValue: versionText) else { return fail() }
            let data = PowerAuth.NormalizedData.make(method: method, uriID: uriID, nonce: nonce, body: body, secret: applicationSecret)
            return match(signature, data: data, factors: factors, format: version == .v3_0 ? .decimal(digits: 8) : .base64)
        }

        /// Verifies an offline signature as the user typed it (§7.6): `POST`, the 24-character
        /// nonce the server put in the operation data, the secret `offline`, one group of 4–8
        /// digits per factor joined by `-`; the window, counter and failure rules are those of
        /// ``verify(header:method:uriID:body:applicationSecret:)``.
        public mutating func verifyOffline(_ signature: String, factors: PowerAuth.SignatureFactors, nonce: String, data body: [UInt8],
                                           uriID: String = "/operation/authorize/offline") -> SignatureVerification {
            guard state == .active else { return .notActive }
            let groups = signature.split(separator: "-", omittingEmptySubsequences: false)
            guard nonce.utf8.count == 24, (try? Base64.decode(nonce))?.count == 16, let digits = groups.first?.utf8.count,
                  (4...8).contains(digits), groups.allSatisfy({ $0.utf8.count == digits }) else { return fail() }
            let data = PowerAuth.NormalizedData.make(method: "POST", uriID: uriID, nonce: nonce, body: body, secret: "offline")
            return match(signature, data: data, factors: factors, format: .decimal(digits: digits))
        }

        /// Tries each counter of the window; the comparison of each candidate is constant-time
        /// (the window's position of a match is not secret: it is the answer).
        private mutating func match(_ signature: String, data: [UInt8], factors: PowerAuth.SignatureFactors,
                                    format: PowerAuth.SignatureFormat) -> SignatureVerification {
            let all = PowerAuth.SignatureKeys(possession: keys.possession, knowledge: keys.knowledge, biometry: keys.biometry)
            let received = Array(signature.utf8)
            var candidate = counter
            for step in 0..<lookAheadWindow {
                if let expected = try? PowerAuth.Signature.compute(data: data, counter: candidate, factors: factors, keys: all, format: format),
                   ConstantTime.isEqual(expected.utf8, received).isTrueVartime {
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
