// The signed certificate list (docs/protocols/cm-authenticator.md §6): `GET /certificate` returns entries of
// Base64 `data` (a JSON object) and a Base64 RSASSA-PKCS1-v1_5 / SHA-256 `signature` over the
// decoded bytes, checked with CM's embedded RSA-2048 key. Entries that fail are skipped.

public import CryptoPrimitives
public import ProtocolSupport

extension CMAuthenticator {
    /// CM's certificate-list signing key as the iOS SDK embeds it: PKCS #1 `RSAPublicKey`,
    /// Base64 (the Android SDK embeds the same key as SPKI). Values from the SDK sources.
    public static let certificateListKeyBase64 =
        "MIIBCgKCAQEAsH+SP53J8v5qORDS4I6S3tuFGuw/RtariaYEg+he2jlgXfpD+MQCtyWmAtTvZtOwFxsDJvLr9O1iDlsKAvMTBZ0UVkixfWGg0Uo5+Qty23WnNH74CHDv2aD1A7GmTjC8ixC5QOjSFqHHP3j8OHtA6TQNTfpWHiZD7jHZRc1dRh+ga/SPrVeTqIDFrs7QfclXnricX/3VoPgWPL7GWy0zHjpBqVP106ETh0tDWFAiZ9ie/eDXUt9s/hHbuJVe4zeOsiZ2TGmZfx2Lf1w57c9EtEuPhsBiWt+HBiq1tqMT5DJZ3hj+vM/mgzaWRQhzz661E+D61R2/jhLf9Hx6SBBBMQIDAQAB"

    /// The embedded key, loaded.
    public static func certificateListKey() throws(ProtocolError) -> RSA.Signing.PublicKey {
        guard let der = try? Base64.decode(certificateListKeyBase64), let key = try? RSA.Signing.PublicKey(derRepresentation: der) else {
            throw ProtocolError(.cryptoFailure, "embedded certificate-list key does not load")
        }
        return key
    }

    /// One verified pin (§6).
    public struct CertificatePin: Sendable, Hashable {
        /// Lower-case hex SHA-256 of the leaf certificate's DER (what iOS pins).
        public let certificateSHA256Hex: String?
        /// Base64 SHA-256 of the SubjectPublicKeyInfo (what Android pins as `sha256/<b64>`).
        public let spkiSHA256Base64: String?
        /// The `algorithm` member as given (e.g. `sha-256`).
        public let algorithm: String?

        /// Creates a pin.
        public init(certificateSHA256Hex: String?, spkiSHA256Base64: String?, algorithm: String?) {
            self.certificateSHA256Hex = certificateSHA256Hex
            self.spkiSHA256Base64 = spkiSHA256Base64
            self.algorithm = algorithm
        }

        /// Android's pin text: `<algorithm without '-'>/<spki hash>`, when both are present.
        public var okHttpPin: String? {
            guard let spkiSHA256Base64, let algorithm else { return nil }
            return algorithm.filter { $0 != "-" } + "/" + spkiSHA256Base64
        }
    }

    /// `GET /certificate`: unauthenticated and, as in both SDKs, not pinned itself (§6).
    public static func certificateListRequest(client: ClientDescription) -> HTTPRequest {
        HTTPRequest(method: .get, path: "certificate", headers: client.headers)
    }

    /// The pins of every entry whose signature verifies under `key` (the embedded key by
    /// default); entries that do not verify or do not parse are skipped (§6). A body that is not
    /// an array of `{data, signature}` throws `ProtocolError.Code.malformedInput`.
    public static func verifiedPins(from response: HTTPResponse, key: RSA.Signing.PublicKey? = nil) throws(ProtocolError) -> [CertificatePin] {
        try requireSuccess(response)
        let signingKey: RSA.Signing.PublicKey
        if let key { signingKey = key } else { signingKey = try certificateListKey() }
        let entries = try JSONResponse.decode([SignedEntry].self, from: response.body, what: "certificate list")
        return entries.compactMap { entry in
            guard let data = try? Base64.decodeLenient(entry.data), let signature = try? Base64.decodeLenient(entry.signature),
                  signingKey.isValidSignature(RSA.Signing.RSASignature(rawRepresentation: signature), for: data, padding: .pkcs1v1_5),
                  let pin = try? JSONResponse.decode(PinWire.self, from: data, what: "pin"),
                  pin.hash != nil || pin.spki_hash != nil else { return nil }
            return CertificatePin(certificateSHA256Hex: pin.hash?.lowercased(), spkiSHA256Base64: pin.spki_hash, algorithm: pin.algorithm)
        }
    }

    private struct SignedEntry: Decodable {
        let data: String
        let signature: String
    }

    private struct PinWire: Decodable {
        let hash: String?
        let algorithm: String?
        let spki_hash: String?
    }
}
