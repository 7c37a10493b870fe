// The status exchange (docs/protocols/powerauth.md §6.1) and the counter-synchronisation decision (§6.4).

public import CryptoPrimitives
public import ProtocolSupport

extension PowerAuth {
    /// A status request in flight: the request and the challenge its answer is bound to.
    public struct PendingStatus: Sendable {
        /// `POST /pa/v3/activation/status` with `{"requestObject":{"activationId","challenge"}}`.
        public let request: HTTPRequest
        let challenge: [UInt8]
        let activationID: String

        /// Builds the request with a fresh 16-byte challenge.
        public init(activationID: String, using random: inout some RandomSource) throws(ProtocolError) {
            let challenge = try ProtocolError.converting("challenge") { () throws(CryptoError) in try random.bytes(count: 16) }
            self.challenge = challenge
            self.activationID = activationID
            let body = JSONText.object([("requestObject", .object([("activationId", .string(activationID)), ("challenge", .string(Base64.encode(challenge)))]))])
            request = HTTPRequest(method: .post, path: "pa/v3/activation/status",
                                  headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("Accept", "application/json")], body: body.bytes)
        }

        /// Decrypts the answer's blob with the transport key (§6.2); the answer must name the
        /// activation that was asked about.
        public func process(_ response: HTTPResponse, transportKey: SymmetricKey) throws(ProtocolError) -> ActivationStatus {
            try PowerAuth.requireSuccess(response)
            let wire = try JSONResponse.decode(Wire.self, from: response.body, what: "status response")
            guard wire.status == "OK", wire.responseObject.activationId == activationID else {
                throw ProtocolError(.malformedInput, "status response is not OK for this activation")
            }
            let (blob, nonce) = try ProtocolError.converting("status response fields") { () throws(CryptoError) in
                (try Base64.decode(wire.responseObject.encryptedStatusBlob), try Base64.decode(wire.responseObject.nonce))
            }
            return try StatusBlob.decrypt(blob, transportKey: transportKey, challenge: challenge, nonce: nonce)
        }

        private struct Wire: Decodable {
            struct Body: Decodable { let activationId: String; let encryptedStatusBlob: String; let nonce: String }
            let status: String
            let responseObject: Body
        }
    }

    /// What the client should do about its counter after a status check (§6.4).
    public enum CounterSynchronization: Sendable, Equatable {
        /// In step.
        case synchronized
        /// The client is ahead by more than half the window: send a possession-only signed
        /// `POST /pa/v3/signature/validate` with reason `COUNTER_SYNCHRONIZATION`.
        case signatureRecommended
        /// The server is ahead: persist this counter and byte.
        case adopt(counterByte: UInt8, steps: Int)
        /// The counters cannot be reconciled: the client-only DEADLOCK state.
        case deadlock
    }

    /// The decision of §6.4 for `activation` and `status` (the transport key unlocked).
    public static func counterSynchronization(for activation: ActivationData, status: ActivationStatus,
                                              transportKey: SymmetricKey) -> CounterSynchronization {
        let window = Int(status.lookAheadWindow)
        let hashDistance = StatusBlob.counterDistance(from: activation.counter, serverHash: status.counterDataHash,
                                                      transportKey: transportKey, window: window)
        // The signed shortest distance local − server, modulo 256.
        let l = Int(activation.counterByte), s = Int(status.counterByte)
        let byteDistance = [l - s, 256 + l - s, l - (256 + s)].min { abs($0) < abs($1) } ?? 0
        if hashDistance == 0 && byteDistance == 0 { return .synchronized }
        if byteDistance > 0 && hashDistance == nil {
            if byteDistance > window { return .deadlock }
            return byteDistance > window / 2 ? .signatureRecommended : .synchronized
        }
        if let hashDistance, -byteDistance == hashDistance { return .adopt(counterByte: status.counterByte, steps: hashDistance) }
        return .deadlock
    }
}
