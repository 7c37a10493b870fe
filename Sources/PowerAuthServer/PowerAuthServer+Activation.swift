// The server's activation record (docs/protocols/powerauth.md §6, §7 from the other side): verifying online
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
        /// APP_KEY of the application the activation was created for: a signature header naming
        /// another (`pa_application_key`, docs/protocols/powerauth.md §2, §7.5) is refused. `nil` only for a
        /// record restored from a snapshot written before it was kept, which checks the length only.
        public let applicationKey: String?
        let keys: PowerAuth.ActivationKeys
        /// The server's CTR_DATA: the next value a signature may use.
        public internal(set) var counter: PowerAuth.CounterData
        /// The server's integer counter (its low byte is CTR_BYTE).
        public internal(set) var counterIndex = 0
        /// Failed signatures since the last successful non-possession-only one.
        public internal(set) var failedAttempts: UInt8 = 0
        /// Failed signatures that block the activation.
        public var maxFailedAttempts: UInt8 = 5
        /// The look-ahead window: how many counter values past the expected one a signature may
        /// use (docs/protocols/powerauth.md §6.4). Set with ``setLookAheadWindow(_:)``.
        public private(set) var lookAheadWindow = 20
        /// The activation state (status blob byte, §6.3).
        public var state: PowerAuth.ActivationState = .active

        /// Sets the look-ahead window. Throws `ProtocolError.Code.invalidArgument` outside
        /// 1…64: the window travels in one byte of the status blob (docs/protocols/powerauth.md §6.3), clients
        /// refuse a blob whose window is above 64, and an empty window would refuse every signature.
        public mutating func setLookAheadWindow(_ window: Int) throws(ProtocolError) {
            guard (1...64).contains(window) else {
                throw ProtocolError(.invalidArgument, "look-ahead window \(window) is outside 1…64")
            }
            lookAheadWindow = window
        }

        /// KEY_SERVER_PUBLIC.
        public var serverPublicKey: P256.KeyAgreement.PublicKey { serverKey.publicKey }

        /// KEY_TRANSPORT (for activation-scope ECIES and the vault).
        public var transportKey: SymmetricKey { keys.transport }

        private struct StatusRequest: Decodable {
            struct Inner: Decodable { let activationId: String; let challenge: String? }
            let requestObject: Inner
        }

        /// Verifies an `X-PowerAuth-Authorization` value over `body` (§7.5): the header's fields
        /// (activation id, 16-byte nonce, ``applicationKey``, factors, version), then the
        /// signature at each counter of the window, in the format `pa_version` selects. On
        /// success the counter moves past the match and failures reset (except for
        /// possession-only, §14.2); on failure one attempt is counted and the activation blocks
        /// at the maximum.
        public mutating func verify(header: String, method: String, uriID: String, body: [UInt8], applicationSecret: String) -> SignatureVerification {
            guard state == .active else { return .notActive }
            guard let fields = Self.fields(of: header), fields["pa_activation_id"] == id, let nonce = fields["pa_nonce"],
                  (try? Base64.decode(nonce))?.count == 16, (fields["pa_application_key"].flatMap { try? Base64.decode($0) })?.count == 16,
                  applicationKey == nil || fields["pa_application_key"] == applicationKey,  // docs/protocols/powerauth.md §7.5: this application's APP_KEY
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
                // compute throws for a factor this activation has no key for (biometry never
                // added) or a digit count outside 4–8 (checked before this call): no such
                // signature exists, so nothing can match.
                if let expected = try? PowerAuth.Signature.compute(data: data, counter: candidate, factors: factors, keys: all, format: format),
                   ConstantTimeComparison.isEqual(expected.utf8, received) {
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

        /// `key="value"` pairs after `PowerAuth ` (docs/protocols/powerauth.md §7.5), separated by a comma and
        /// optional spaces; `nil` when the header is not of that shape: an empty pair, a key
        /// that is empty or has characters outside `[A-Za-z0-9_]`, a value not in quotes, or a
        /// key given twice.
        static func fields(of header: String) -> [String: String]? {
            guard header.hasPrefix("PowerAuth ") else { return nil }
            var fields: [String: String] = [:]
            for part in header.dropFirst(10).split(separator: ",", omittingEmptySubsequences: false) {
                let pair = part.trimmingPrefix(" ").split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard pair.count == 2, !pair[0].isEmpty, pair[0].utf8.allSatisfy(isKeyByte),
                      pair[1].hasPrefix("\""), pair[1].hasSuffix("\""), pair[1].count >= 2,
                      fields.updateValue(String(pair[1].dropFirst().dropLast()), forKey: String(pair[0])) == nil else { return nil }
            }
            return fields
        }

        /// `[A-Za-z0-9_]`: the bytes of a header key.
        private static func isKeyByte(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
        }

        /// Answers `POST /pa/v3/activation/status` (§6.1): with a challenge (3.1+ clients), the
        /// 3.1+ blob under the IV of the challenge and a fresh nonce; without one (3.0 clients),
        /// the 3.0 answer as the Java server gives it — a zero IV, no nonce, and random bytes
        /// in the counter fields (CTR_BYTE and the 16 bytes of the counter hash).
        public func status(_ request: HTTPRequest, using random: inout some RandomSource) throws(ProtocolError) -> HTTPResponse {
            let body = try JSONResponse.decode(StatusRequest.self, from: request.body ?? [], what: "status request")
            guard body.requestObject.activationId == id else { throw ProtocolError(.malformedInput, "status request names another activation") }
            let challenge = try body.requestObject.challenge.map { text throws(ProtocolError) in
                try ProtocolError.converting("status challenge") { () throws(CryptoError) in try Base64.decode(text) }
            }
            if let challenge, challenge.count != 16 { throw ProtocolError(.malformedInput, "status challenge is not 16 bytes") }
            let reserved = try ProtocolError.converting("status blob") { () throws(CryptoError) in try random.bytes(count: 5) }
            let counterFields: (byte: UInt8, hash: [UInt8])
            if challenge != nil {
                let counterKey = PowerAuth.KeyDerivation.derive(keys.transport, index: 4000)
                let hash = counter.rawRepresentation.withUnsafeBytes { PowerAuth.KeyDerivation.deriveInternal(counterKey, index: $0) }
                counterFields = (UInt8(truncatingIfNeeded: counterIndex), hash.withUnsafeBytes { Array($0) })
            } else {
                let noise = try ProtocolError.converting("status blob") { () throws(CryptoError) in try random.bytes(count: 17) }
                counterFields = (noise[0], Array(noise[1...]))
            }
            let blob: [UInt8] = [0xDE, 0xC0, 0xDE, 0xD1, state.rawValue, 3, 3] + reserved
                + [counterFields.byte, failedAttempts, maxFailedAttempts, UInt8(lookAheadWindow)] + counterFields.hash
            var members: [(String, JSONText)] = [("activationId", .string(id))]
            let iv: [UInt8]
            if let challenge {
                let nonce = try ProtocolError.converting("status nonce") { () throws(CryptoError) in try random.bytes(count: 16) }
                iv = PowerAuth.StatusBlob.iv(transportKey: keys.transport, challenge: challenge, nonce: nonce)
                members.append(("nonce", .string(Base64.encode(nonce))))
            } else {
                iv = [UInt8](repeating: 0, count: 16)  // §6.1: 3.0 has no challenge, so a zero IV
            }
            let encrypted = try ProtocolError.converting("status blob") { () throws(CryptoError) in
                try AES.UnauthenticatedCBC.encrypt(blob, using: keys.transport, iv: iv, padding: .none)
            }
            members.insert(("encryptedStatusBlob", .string(Base64.encode(encrypted))), at: 1)
            let answer = JSONText.object([("status", .string("OK")), ("responseObject", .object(members))])
            return HTTPResponse(status: 200, body: answer.bytes)
        }
    }
}
