// The provider configuration (docs/protocols/saltedge-v2.md §6.1) and its RSA public key, which arrives as SPKI
// PEM but is parsed leniently (§2.3): armour lines stripped, whitespace and literal `\n` / `\r`
// escape pairs dropped, then SPKI or bare PKCS #1 accepted by DER shape.

public import CryptoPrimitives
public import ProtocolSupport

extension SaltEdge {
    /// What `GET <configuration URL>` returns (docs/protocols/saltedge-v2.md §6.1).
    public struct ProviderConfiguration: Sendable {
        /// Base URL of every API call (a path prefix in it is kept).
        public let scaServiceURL: String
        /// The API version the provider speaks (`"2"`).
        public let apiVersion: String
        /// The provider's identifier, as text.
        public let providerID: String
        /// Display name.
        public let providerName: String
        /// Logo URL, if any.
        public let providerLogoURL: String?
        /// Support e-mail address, if any.
        public let providerSupportEmail: String?
        /// Whether the provider asks for the device location on confirmation (§8: only a warning).
        public let geolocationRequired: Bool
        /// The provider's key: client → server bundles are encrypted to it.
        public let providerPublicKey: RSA.Encryption.PublicKey

        /// Parses the response body. Throws `ProtocolError.Code.malformedInput` for a body that
        /// is not the configuration, whose provider key does not load or whose `api_version` is
        /// not 2 (`"2"`, or `"2."` and digits: this client speaks v2 only, §6.1), and
        /// `ProtocolError.Code.insecureURL` when `urlPolicy` refuses its `sca_service_url`
        /// (by default anything but `https` to a host whose name has a dot).
        public init(responseBody body: some Sequence<UInt8>, urlPolicy: URLPolicy = .httpsOnly) throws(ProtocolError) {
            let wire = try JSONResponse.decode(Envelope<Wire>.self, from: body, what: "provider configuration").data
            guard urlPolicy.permits(wire.sca_service_url) else {
                throw ProtocolError(refusing: wire.sca_service_url, in: "sca_service_url")
            }
            // §6.1: a v1 provider signs and encrypts differently (§5.3); refuse it up front.
            guard Self.isVersion2(wire.api_version) else {
                throw ProtocolError(.malformedInput, "the provider's api_version is not 2; only Salt Edge API v2 is spoken")
            }
            scaServiceURL = wire.sca_service_url
            apiVersion = wire.api_version
            providerID = wire.provider_id.value
            providerName = wire.provider_name
            providerLogoURL = wire.provider_logo_url
            providerSupportEmail = wire.provider_support_email
            geolocationRequired = wire.geolocation_required ?? false
            providerPublicKey = try SaltEdge.providerPublicKey(fromText: wire.provider_public_key)
        }

        /// `"2"`, or `"2."` followed by one or more ASCII digits.
        static func isVersion2(_ text: String) -> Bool {
            let bytes = Array(text.utf8)
            guard bytes.first == UInt8(ascii: "2") else { return false }
            guard bytes.count > 1 else { return true }
            return bytes.count > 2 && bytes[1] == UInt8(ascii: ".") && bytes.dropFirst(2).allSatisfy { (0x30...0x39).contains($0) }
        }

        private struct Wire: Decodable {
            let sca_service_url: String
            let api_version: String
            let provider_id: FlexibleID
            let provider_name: String
            let provider_logo_url: String?
            let provider_support_email: String?
            let geolocation_required: Bool?
            let provider_public_key: String
        }
    }

    /// Loads a provider key from its text (docs/protocols/saltedge-v2.md §2.3): PEM armour optional, whitespace
    /// and literal two-character `\n` / `\r` escapes ignored, SubjectPublicKeyInfo or PKCS #1
    /// `RSAPublicKey` DER inside. Throws `ProtocolError.Code.malformedInput` otherwise.
    public static func providerPublicKey(fromText text: String) throws(ProtocolError) -> RSA.Encryption.PublicKey {
        var body = text.replacingEscapedNewlines
        body = body.split(whereSeparator: { $0 == "\n" || $0 == "\r" })
            .filter { !$0.hasPrefix("-----") }
            .joined()
        guard let der = try? Base64.decodeLenient(body), !der.isEmpty else {
            throw ProtocolError(.malformedInput, "provider key is not Base64")
        }
        // SPKI and PKCS #1 both start with a SEQUENCE; the public-key loader tells them apart.
        if let key = try? RSA.Encryption.PublicKey(derRepresentation: der) { return key }
        throw ProtocolError(.malformedInput, "provider key is neither SPKI nor PKCS #1 RSA")
    }
}

/// The `{"data": …}` wrapper of every v2 response (docs/protocols/saltedge-v2.md §6).
struct Envelope<Payload: Decodable>: Decodable {
    let data: Payload
}

extension String {
    /// The text with literal backslash-n and backslash-r pairs turned into line breaks.
    var replacingEscapedNewlines: String {
        var out = ""
        var iterator = makeIterator()
        var pending: Character?
        while let c = pending ?? iterator.next() {
            pending = nil
            guard c == "\\" else { out.append(c); continue }
            guard let next = iterator.next() else { out.append(c); break }
            if next == "n" || next == "r" { out.append("\n") } else { out.append(c); pending = next }
        }
        return out
    }
}
