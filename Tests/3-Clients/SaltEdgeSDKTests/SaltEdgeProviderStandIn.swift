// The provider's side of Salt Edge API v2 for the client tests, built from the `SaltEdge` core
// (it holds both halves of the hybrid encryption, docs/protocols/saltedge-v2.md §3): it serves the
// configuration, decrypts the connection key sent at create-connection with the provider key,
// encrypts the access token of the redirect (§4) and the authorizations (§6.6) to the connection
// key, and checks every signed request (§5.2) against the raw body before it decrypts the
// decision (§6.7, §8). Everything it received stays readable for the test's checks. Keys are the
// vector pairs of ../shared/vectors/saltedge: the iOS pair is the connection key, the Android pair
// the provider key, as in derived_vectors.json.

import CryptoPrimitives
import Foundation
import ProtocolSupport
import SaltEdge
import ClientTestSupport
import TestSupport

/// The Salt Edge test vectors this target reads.
enum SaltEdgeVectors {
    /// Whether ../shared/vectors is present.
    static var isAvailable: Bool { SharedVectors.isAvailable }

    static func text(_ relative: String) throws -> String {
        try String(contentsOfFile: SharedVectors.path("saltedge/" + relative), encoding: .utf8)
    }

    /// The iOS fixture key: the connection key of the generated vectors.
    static func connectionKey() throws -> SaltEdge.ConnectionKey {
        try SaltEdge.ConnectionKey(privateKeyPEM: text("ios-fixtures/test_private.pem"))
    }

    /// The Android fixture key: the provider key of the generated vectors.
    static func providerKey() throws -> RSA.Signing.PrivateKey {
        try RSA.Signing.PrivateKey(pemRepresentation: text("android-test-tools/private_key.pem"))
    }

    /// A member of derived_vectors.json.
    static func derived(_ member: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: SharedVectors.path("saltedge/derived_vectors.json")))
        guard let all = try JSONSerialization.jsonObject(with: data) as? [String: Any], let value = all[member] as? [String: Any] else {
            throw StandInError.malformed("derived_vectors.json has no \(member)")
        }
        return value
    }
}

enum StandInError: Error { case malformed(String) }

/// The in-process Salt Edge provider. Hand ``answer(_:)`` to an `InProcessTransport`.
actor SaltEdgeProviderStandIn {
    /// What the provider made of one signed request.
    struct SignedRequest: Sendable {
        let request: HTTPRequest
        /// Whether `x-jws-signature` verified over the exact body bytes with the connection key.
        let signatureIsValid: Bool
        /// The body's `exp`.
        let expiresAt: Int64?
        /// The decrypted decision payload (confirm / deny), as text.
        let payload: String?
    }

    static let configurationURL = "https://provider.example.com/api/authenticator/v2/configuration"
    static let scaServiceURL = "https://sca.example.com"
    static let connectLink = "authenticator://saltedge.com/connect?configuration=" + configurationURL + "&connect_query=A12345678"
    static let connectionID = "333"

    let providerKey: RSA.Signing.PrivateKey
    /// The connection's public key: learned from create-connection, or set by the test.
    private(set) var connectionPublicKey: RSA.Signing.PublicKey?
    /// The PEM the client sent at create-connection, decrypted.
    private(set) var receivedPublicKeyPEM: String?
    /// The create-connection body's `data` members other than the key.
    private(set) var createConnectionData: [String: String] = [:]
    /// The access token the redirect delivers and every later call must carry.
    var accessToken = "3b1f8c2e9a7d4e60b5c1"
    /// Whether the connection is gone (every call answers 401 `ConnectionNotFound`).
    private(set) var isRevoked = false
    /// When set, what revoke answers instead of revoking (§6.5, §10).
    private var revokeRefusal: HTTPResponse?
    /// The answer to show-authorization (§6.6), any id.
    private var shown: [UInt8] = Array(#"{"data":{}}"#.utf8)
    /// The list answers in turn; the last one repeats.
    private var lists: [[UInt8]] = [Array(#"{"data":[]}"#.utf8)]
    private var listIndex = 0
    private(set) var signedRequests: [SignedRequest] = []
    private var random = SeededRandomSource(seed: 0x5A17_ED9E_0002)

    init() throws {
        providerKey = try SaltEdgeVectors.providerKey()
    }

    var providerPublicKey: RSA.Encryption.PublicKey { RSA.Encryption.PublicKey(sameKeyAs: providerKey.publicKey) }

    func setConnectionPublicKey(_ key: RSA.Signing.PublicKey) { connectionPublicKey = key }
    func setAccessToken(_ token: String) { accessToken = token }
    func revoke() { isRevoked = true }
    /// Makes revoke answer `response` (an error) instead of revoking.
    func refuseRevoke(with response: HTTPResponse) { revokeRefusal = response }

    /// What show-authorization answers: `{"data": item}`.
    func setShown(_ item: JSONText) { shown = JSONText.object([("data", item)]).bytes }

    /// The authorization lists to answer, in turn (raw bodies).
    func setLists(_ bodies: [[UInt8]]) {
        lists = bodies
        listIndex = 0
    }

    /// An authorization list item: `plaintext` encrypted to the connection key (§3.2, §6.6), or
    /// without a bundle when `plaintext` is nil (a final item).
    func item(id: Int, status: String, plaintext: String?, connectionID: JSONText? = .integer(333)) throws -> JSONText {
        var members: [(String, JSONText)] = [("id", .integer(Int64(id)))] + (connectionID.map { [("connection_id", $0)] } ?? []) + [("status", .string(status))]
        if let plaintext {
            guard let connectionPublicKey else { throw StandInError.malformed("no connection key yet") }
            let bundle = try SaltEdge.EncryptedBundle.encrypt(Array(plaintext.utf8), to: RSA.Encryption.PublicKey(sameKeyAs: connectionPublicKey),
                                                              using: &random)
            members += [("key", .string(bundle.key)), ("iv", .string(bundle.iv)), ("data", .string(bundle.data))]
        }
        return .object(members)
    }

    /// The plaintext of an authorization (§6.6, §7.1).
    static func authorization(title: String, code: String, createdAt: String = "2021-03-11T10:00:00Z", expiresAt: String = "2021-03-11T10:05:00Z") -> String {
        JSONText.object([("title", .string(title)), ("description", .object([("text", .string(title))])),
                         ("authorization_code", .string(code)), ("created_at", .string(createdAt)), ("expires_at", .string(expiresAt))]).text
    }

    /// The redirect to the return URL after the web authentication (§4): `id` and the access
    /// token JSON RSA-encrypted to the connection key, Base64, percent-encoded.
    func redirect(connectionID: String = SaltEdgeProviderStandIn.connectionID) throws -> String {
        guard let connectionPublicKey else { throw StandInError.malformed("no connection key yet") }
        let token = JSONText.object([("access_token", .string(accessToken))]).bytes
        let encrypted = try RSA.Encryption.PublicKey(sameKeyAs: connectionPublicKey).encrypt(token, padding: .insecurePKCS1v1_5, using: &random)
        return SaltEdge.defaultReturnURL + "?id=" + connectionID + "&access_token=" + URLText.percentEncoded(Base64.encode(encrypted))
    }

    /// Answers one request of the client.
    func answer(_ request: HTTPRequest) throws -> HTTPResponse {
        let api = SaltEdge.apiPath + "/"
        switch (request.method, request.path) {
        case (.get, ""):
            return configuration()
        case (.post, api + "connections"):
            return try createConnection(request)
        case _ where isRevoked || request.secretHeader("Access-Token") != SecretBytes(accessToken.utf8):
            return Self.error(401, "ConnectionNotFound")
        case (.get, api + "authorizations"):
            defer { listIndex = min(listIndex + 1, lists.count - 1) }
            return HTTPResponse(status: 200, body: lists[listIndex])
        case (.get, let path) where path.hasPrefix(api + "authorizations/"):
            return HTTPResponse(status: 200, body: shown)
        case (.put, api + "connections/" + Self.connectionID + "/revoke"):
            return try revokeConnection(request)
        case (.put, let path) where path.hasPrefix(api + "authorizations/"):
            return try decide(request, path: String(path.dropFirst(api.count + "authorizations/".count)))
        default:
            return Self.error(404, "WrongRequestFormat")
        }
    }

    /// §6.1, with this provider's key.
    func configuration() -> HTTPResponse {
        HTTPResponse(status: 200, body: JSONText.object([("data", .object([
            ("sca_service_url", .string(Self.scaServiceURL)), ("api_version", .string("2")), ("provider_id", .integer(12)),
            ("provider_name", .string("Demo Bank")), ("provider_logo_url", .null), ("provider_support_email", .string("s@example.com")),
            ("geolocation_required", .bool(false)), ("provider_public_key", .string(providerPublicKey.pemRepresentation)),
        ]))]).bytes)
    }

    /// §6.2: the connection's public key PEM is decrypted with the provider key.
    private func createConnection(_ request: HTTPRequest) throws -> HTTPResponse {
        let object = try Self.object(request.body)
        guard let data = object["data"] as? [String: Any], let encrypted = data["enc_rsa_public_key"] else {
            return Self.error(400, "WrongRequestFormat")
        }
        let bundle = try SaltEdge.EncryptedBundle(jsonBytes: Array(try JSONSerialization.data(withJSONObject: encrypted)))
        let pem = String(decoding: try bundle.decrypt(with: RSA.Encryption.PrivateKey(sameKeyAs: providerKey)), as: UTF8.self)
        receivedPublicKeyPEM = pem
        connectionPublicKey = try RSA.Signing.PublicKey(pemRepresentation: pem)
        createConnectionData = data.compactMapValues { $0 as? String }
        return HTTPResponse(status: 200, body: Array(#"{"data":{"connection_id":333,"authentication_url":"https://provider.example.com/auth/333"}}"#.utf8))
    }

    /// §6.7: the signature over the raw body first, then the decision decrypted with the provider key.
    private func decide(_ request: HTTPRequest, path: String) throws -> HTTPResponse {
        let parts = path.split(separator: "/")
        guard parts.count == 2, let verb = parts.last, verb == "confirm" || verb == "deny", let key = connectionPublicKey else {
            return Self.error(404, "AuthorizationNotFound")
        }
        let body = request.body ?? []
        let isValid = request.header("x-jws-signature").map { SaltEdge.isValidDetachedSignature($0, for: body, publicKey: key) } ?? false
        let object = try Self.object(body)
        let exp = (object["exp"] as? NSNumber)?.int64Value
        var payload: String?
        if let data = object["data"] {
            let bundle = try SaltEdge.EncryptedBundle(jsonBytes: Array(try JSONSerialization.data(withJSONObject: data)))
            payload = String(decoding: try bundle.decrypt(with: RSA.Encryption.PrivateKey(sameKeyAs: providerKey)), as: UTF8.self)
        }
        signedRequests.append(SignedRequest(request: request, signatureIsValid: isValid, expiresAt: exp, payload: payload))
        guard isValid else { return Self.error(400, "InvalidSignature") }
        let status = verb == "confirm" ? "confirm_processing" : "deny_processing"
        return HTTPResponse(status: 200, body: Array(#"{"data":{"id":\#(parts[0]),"status":"\#(status)"}}"#.utf8))
    }

    /// §6.5: a signed `{"data":{},"exp":N}`; the connection is gone afterwards.
    private func revokeConnection(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = request.body ?? []
        let isValid = connectionPublicKey.map { key in
            request.header("x-jws-signature").map { SaltEdge.isValidDetachedSignature($0, for: body, publicKey: key) } ?? false
        } ?? false
        let object = try Self.object(body)
        signedRequests.append(SignedRequest(request: request, signatureIsValid: isValid, expiresAt: (object["exp"] as? NSNumber)?.int64Value,
                                            payload: nil))
        guard isValid, (object["data"] as? [String: Any])?.isEmpty == true else { return Self.error(400, "InvalidSignature") }
        if let revokeRefusal { return revokeRefusal }
        isRevoked = true
        return HTTPResponse(status: 200, body: Array(#"{"data":{"connection_id":333}}"#.utf8))
    }

    /// The error body of §10.
    static func error(_ status: Int, _ errorClass: String) -> HTTPResponse {
        HTTPResponse(status: status, body: Array(#"{"error_class":"\#(errorClass)","error_message":"refused by the test provider"}"#.utf8))
    }

    static func object(_ body: [UInt8]?) throws -> [String: Any] {
        guard let body, let object = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
            throw StandInError.malformed("the body is not a JSON object")
        }
        return object
    }
}
