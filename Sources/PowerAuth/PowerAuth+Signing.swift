// Signing a request with a persisted activation (docs/protocols/powerauth.md §7): normalised data, the
// signature in the version's format, the `X-PowerAuth-Authorization` header, and the next
// state — which the caller must persist before the request leaves (§7.1).

public import CryptoPrimitives
public import ProtocolSupport

extension PowerAuth {
    /// A signature over one request and the activation state to persist first.
    public struct SignedRequest: Sendable {
        /// `X-PowerAuth-Authorization` and its value.
        public let header: HTTPHeader
        /// The activation with CTR_DATA and the counter byte advanced. Persist it before sending.
        public let next: ActivationData
    }

    /// Signs `body` for `uriID` (docs/protocols/powerauth.md §7.2–§7.5): a fresh 16-byte nonce, decimal
    /// signatures for 3.0 and Base64 from 3.1. For a GET, pass the bytes of
    /// ``NormalizedData/canonicalQuery(_:)`` of its query parameters as `body`; for every other
    /// method (DELETE included) the exact body bytes sent, empty when there are none: a DELETE's
    /// query is not signed (§7.2).
    public static func sign(method: String, uriID: String, body: [UInt8], activation: ActivationData, factors: SignatureFactors,
                            keys: SignatureKeys, configuration: Configuration, version: ProtocolVersion = .v3_3,
                            using random: inout some RandomSource) throws(ProtocolError) -> SignedRequest {
        let nonceBytes = try ProtocolError.converting("nonceBytes") { () throws(CryptoError) in try random.bytes(count: 16) }
        let nonce = Base64.encode(nonceBytes)
        let data = NormalizedData.make(method: method, uriID: uriID, nonce: nonce, body: body, secret: configuration.applicationSecret)
        let signature = try Signature.compute(data: data, counter: activation.counter, factors: factors, keys: keys,
                                              format: version == .v3_0 ? .decimal(digits: 8) : .base64)
        let value = authorizationHeader(version: version, activationID: activation.activationID, applicationKey: configuration.applicationKey,
                                        nonce: nonce, factors: factors, signature: signature)
        return SignedRequest(header: HTTPHeader("X-PowerAuth-Authorization", value), next: activation.advanced)
    }

    /// An offline signature (docs/protocols/powerauth.md §7.6): `POST`, the server's 24-character nonce
    /// verbatim, the secret `offline`, 4–8 digits per factor. Returns the digits and the state
    /// to persist.
    public static func offlineSignature(uriID: String = "/operation/authorize/offline", nonce: String, data body: [UInt8],
                                        activation: ActivationData, factors: SignatureFactors, keys: SignatureKeys,
                                        digits: Int = 8) throws(ProtocolError) -> (signature: String, next: ActivationData) {
        guard nonce.utf8.count == 24, (try? Base64.decode(nonce))?.count == 16 else {
            throw ProtocolError(.invalidArgument, "the offline nonce is 24 characters of Base64")
        }
        let data = NormalizedData.make(method: "POST", uriID: uriID, nonce: nonce, body: body, secret: "offline")
        let signature = try Signature.compute(data: data, counter: activation.counter, factors: factors, keys: keys, format: .decimal(digits: digits))
        return (signature, activation.advanced)
    }

    /// Verifies data signed by the server (docs/protocols/powerauth.md §8): ECDSA-P256-SHA256, DER, with the
    /// master key or the activation's personalised server key. Malformed signatures are invalid.
    public static func isValidServerSignature(_ derSignature: [UInt8], for data: [UInt8], publicKey: P256.Signing.PublicKey) -> Bool {
        guard let signature = try? P256.Signing.ECDSASignature(derRepresentation: derSignature) else { return false }
        return publicKey.isValidSignature(signature, for: data)
    }
}

extension PowerAuth {
    /// The `X-PowerAuth-Authorization` value (docs/protocols/powerauth.md §7.5), in the SDK's order.
    public static func authorizationHeader(version: ProtocolVersion, activationID: String, applicationKey: String, nonce: String,
                                           factors: SignatureFactors, signature: String) -> String {
        "PowerAuth pa_version=\"\(version.rawValue)\", pa_activation_id=\"\(activationID)\", pa_application_key=\"\(applicationKey)\", "
            + "pa_nonce=\"\(nonce)\", pa_signature_type=\"\(factors.rawValue)\", pa_signature=\"\(signature)\""
    }
}
