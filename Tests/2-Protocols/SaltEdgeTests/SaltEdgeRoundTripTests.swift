// Client ↔ server round trips: the test server (primitives + Foundation only) encrypts
// authorizations and consents to the connection key, decrypts what the client sends to the
// provider key, and verifies the client's detached JWS over the raw body.

import CryptoPrimitives
import Foundation
import ProtocolSupport
import SaltEdge
import Testing
import ClientTestSupport
import TestSupport

@Suite(.enabled(if: TestBuild.isOptimized, "heavy unoptimised; swift test -c release runs it"))
struct SaltEdgeRoundTripTests {
    let connectionKey = SaltEdge.ConnectionKey(privateKey: SaltEdgeTestServer.keys.connection)
    let server = SaltEdgeTestServer(providerKey: RSA.Encryption.PrivateKey(sameKeyAs: SaltEdgeTestServer.keys.provider))
    let providerPublicKey = RSA.Encryption.PublicKey(sameKeyAs: SaltEdgeTestServer.keys.provider.publicKey)
    let now = Date(timeIntervalSince1970: 1_615_456_800)

    var requests: SaltEdge.Requests {
        let connection = SaltEdge.Connection(id: "333", providerID: "1", scaServiceURL: "https://sca.example.com/base", key: connectionKey,
                                             accessToken: .init(rawRepresentation: SecretBytes("tok-1".utf8)), providerPublicKey: providerPublicKey)
        return SaltEdge.Requests(connection: connection, client: .linux(app: "mfa", version: "1.0", build: "7", system: "Debian 13"))
    }

    @Test func authorizationEncryptedByTheServerDecryptsAndConfirms() throws {
        let plaintext = #"{"title":"Pay","description":{"text":"10 EUR","payment":{"amount":10.5,"payee":"Shop"}},"authorization_code":"c0de/+=","created_at":"2021-03-11T10:00:00Z","expires_at":"2021-03-11T10:05:00+00:00"}"#
        var item = try SaltEdgeTestServer.encrypt(plaintext, to: connectionKey.publicKey, seed: 7) as [String: Any]
        item["id"] = 444
        item["connection_id"] = 333
        item["status"] = "pending"
        let body = try JSONSerialization.data(withJSONObject: ["data": [item]])
        let list = try SaltEdge.EncryptedAuthorization.list(from: HTTPResponse(status: 200, body: Array(body)))
        let authorization = try #require(list.first).decrypt(with: connectionKey)
        #expect(authorization.title == "Pay")
        #expect(authorization.authorizationCode == "c0de/+=")
        #expect(authorization.description.payment?["amount"]?.text == "10.5")
        #expect(!authorization.isExpired(at: Date(timeIntervalSince1970: 1_615_456_800 + 299)))
        #expect(authorization.isExpired(at: Date(timeIntervalSince1970: 1_615_457_100)))

        var random = SeededRandomSource(seed: 8)
        let geolocation = try SaltEdge.Geolocation(latitude: "52.506931", longitude: "13.144558")
        let request = try requests.answer(.confirm(authorization, unlockedWith: .biometrics, geolocation: geolocation), using: &random, now: now)
        #expect(request.method == .put)
        #expect(request.url(relativeTo: "https://sca.example.com/base/") == "https://sca.example.com/base/api/authenticator/v2/authorizations/444/confirm")
        #expect(request.secretHeader("Access-Token") == SecretBytes("tok-1".utf8))
        let sent = try #require(request.body)
        #expect(SaltEdgeTestServer.verify(signature: try #require(request.header("x-jws-signature")), body: sent, connectionPublicKey: connectionKey.publicKey))
        let json = try SaltEdgeTestServer.object(sent)
        #expect(json["exp"] as? Int == 1_615_457_100)
        let inner = try server.decrypt(try #require(json["data"] as? [String: Any]))
        #expect(inner == #"{"authorization_code":"c0de/+=","user_authorization_type":"biometrics","geolocation":"GEO:52.506931;13.144558"}"#)
    }

    @Test func denyWithoutLocationSendsEmptyStrings() throws {
        var random = SeededRandomSource(seed: 9)
        let decision = SaltEdge.Decision(authorizationID: "5", isConfirmation: false, authorizationCode: "", userAuthorizationType: .passcode, geolocation: nil)
        let request = try requests.answer(decision, using: &random, now: now)
        #expect(request.path == "api/authenticator/v2/authorizations/5/deny")
        let json = try SaltEdgeTestServer.object(request.body)
        #expect(try server.decrypt(try #require(json["data"] as? [String: Any])) == #"{"authorization_code":"","user_authorization_type":"passcode","geolocation":""}"#)
    }

    @Test func createConnectionSendsThePublicKeyPEMToTheProvider() throws {
        let configuration = try SaltEdge.ProviderConfiguration(responseBody: Array(#"""
        {"data":{"sca_service_url":"https://sca.example.com","api_version":"2","provider_id":12,"provider_name":"Bank",
        "provider_logo_url":null,"provider_support_email":"s@example.com","geolocation_required":true,
        "provider_public_key":"\#(providerPublicKey.pemRepresentation.replacingOccurrences(of: "\n", with: "\\\\n"))"}}
        """#.utf8))
        #expect(configuration.providerID == "12")
        #expect(configuration.geolocationRequired)
        var random = SeededRandomSource(seed: 10)
        let request = try SaltEdge.Enrollment.createConnection(configuration: configuration, connectionKey: connectionKey,
                                                               client: .init(userAgent: "ua"), connectQuery: "A1", using: &random)
        #expect(request.header("Access-Token") == nil && request.header("x-jws-signature") == nil)
        let json = try SaltEdgeTestServer.object(request.body)
        let data = try #require(json["data"] as? [String: Any])
        #expect(data["provider_id"] as? String == "12" && data["connect_query"] as? String == "A1" && data["push_token"] == nil)
        #expect(data["platform"] as? String == "android" && data["return_url"] as? String == "authenticator://oauth/redirect")
        let pem = try server.decrypt(try #require(data["enc_rsa_public_key"] as? [String: Any]))
        #expect(pem == connectionKey.publicKeyPEM)
        #expect(pem.hasPrefix("-----BEGIN PUBLIC KEY-----\n") && pem.hasSuffix("\n-----END PUBLIC KEY-----\n"))
        #expect(pem.split(separator: "\n").dropFirst().dropLast().dropLast().allSatisfy { $0.count == 64 })
    }

    @Test func accessTokenFromTheRedirectInEveryEncoding() throws {
        var random = SeededRandomSource(seed: 11)
        let encrypted = try RSA.Encryption.PublicKey(sameKeyAs: connectionKey.publicKey)
            .encrypt(Array(#"{"access_token":"secret-token"}"#.utf8), padding: .insecurePKCS1v1_5, using: &random)
        let standard = Data(encrypted).base64EncodedString()
        for text in [standard, SaltEdgeTestServer.base64URLEncode(encrypted), SaltEdgeTestServer.rubyBase64(encrypted)] {
            let url = "authenticator://oauth/redirect?id=333&access_token=" + URLText.percentEncoded(text)
            let redirect = try SaltEdge.AccessTokenRedirect(parsing: url)
            let token = try redirect.accessToken(with: connectionKey)
            #expect(token.rawRepresentation == SecretBytes("secret-token".utf8))
            #expect(!"\(token)".contains("secret") && !String(reflecting: token).contains("secret"))
        }
        // A '+' left unencoded in the query is Base64 data, not a space.
        #expect(try SaltEdge.AccessTokenRedirect(parsing: "authenticator://oauth/redirect?id=1&access_token=" + standard).accessToken(with: connectionKey).rawRepresentation == SecretBytes("secret-token".utf8))
        // Two blocks: iOS decrypts chunk by chunk.
        let second = try RSA.Encryption.PublicKey(sameKeyAs: connectionKey.publicKey).encrypt(Array(#"xyz"}"#.utf8), padding: .insecurePKCS1v1_5, using: &random)
        let first = try RSA.Encryption.PublicKey(sameKeyAs: connectionKey.publicKey).encrypt(Array(#"{"access_token":"ab"#.utf8), padding: .insecurePKCS1v1_5, using: &random)
        let chunked = SaltEdge.AccessTokenRedirect.success(connectionID: "1", encryptedAccessToken: Data(first + second).base64EncodedString())
        #expect(try chunked.accessToken(with: connectionKey).rawRepresentation == SecretBytes("abxyz".utf8))
    }

    @Test func consentsDecryptAndRevoke() throws {
        let plaintext = #"{"tpp_name":"TPP","consent_type":"aisp","accounts":[{"name":"Main","iban":"DE00"}],"shared_data":{"balance":true},"created_at":"2021-03-11T10:00:00Z","expires_at":"2021-06-11T10:00:00Z"}"#
        var item = try SaltEdgeTestServer.encrypt(plaintext, to: connectionKey.publicKey, seed: 12) as [String: Any]
        item["id"] = "77"
        item["connection_id"] = 333
        item["algorithm"] = "AES-256-CBC"
        let response = HTTPResponse(status: 200, body: Array(try JSONSerialization.data(withJSONObject: ["data": [item]])))
        let consent = try #require(try SaltEdge.EncryptedConsent.list(from: response).first).decrypt(with: connectionKey)
        #expect(consent.id == "77" && consent.tppName == "TPP" && consent.consentType == .aisp)
        #expect(consent.accounts.first?.iban == "DE00" && consent.sharesBalance == true && consent.sharesTransactions == nil)
        item["algorithm"] = "AES-128-GCM"
        let foreign = HTTPResponse(status: 200, body: Array(try JSONSerialization.data(withJSONObject: ["data": [item]])))
        expectError(code: .unsupported) { try SaltEdge.EncryptedConsent.list(from: foreign).first?.decrypt(with: connectionKey) }
        let revoke = try requests.revokeConsent(id: "77", now: now)
        #expect(revoke.path == "api/authenticator/v2/consents/77/revoke" && revoke.body == Array(#"{"data":{},"exp":1615457100}"#.utf8))
        #expect(try SaltEdge.revokedConsentID(from: HTTPResponse(status: 200, body: Array(#"{"data":{"id":77}}"#.utf8))) == "77")
    }

    @Test func theServerVerifiesBothOfficialBodyShapes() throws {
        // iOS: sorted keys, pretty-printed, `/` escaped; Android and we: compact, `data` then `exp`.
        let logical: [String: Any] = ["data": ["push_token": "a/b"], "exp": 1_615_457_100]
        let iOSBody = try SaltEdgeTestServer.iOSShape(logical)
        let ours = try requests.updatePushToken("a/b", now: now)
        let oursBody = try #require(ours.body)
        #expect(oursBody == Array(#"{"data":{"push_token":"a/b"},"exp":1615457100}"#.utf8))
        #expect(iOSBody != oursBody)
        let iOSSignature = try SaltEdgeTestServer.sign(body: iOSBody, with: try #require(connectionKey.softwareKey))
        #expect(SaltEdgeTestServer.verify(signature: iOSSignature, body: iOSBody, connectionPublicKey: connectionKey.publicKey))
        #expect(SaltEdge.isValidDetachedSignature(iOSSignature, for: iOSBody, publicKey: connectionKey.publicKey))
        let ourSignature = try #require(ours.header("x-jws-signature"))
        #expect(SaltEdgeTestServer.verify(signature: ourSignature, body: oursBody, connectionPublicKey: connectionKey.publicKey))
        // Signatures are over raw bytes: neither verifies over the other shape.
        #expect(!SaltEdgeTestServer.verify(signature: ourSignature, body: iOSBody, connectionPublicKey: connectionKey.publicKey))
        #expect(!SaltEdgeTestServer.verify(signature: iOSSignature, body: oursBody, connectionPublicKey: connectionKey.publicKey))
        #expect(ours.method == .patch && ours.path == "api/authenticator/v2/connections/333/update")
    }

    @Test func generatedConnectionKeysAreFreshAndRedacted() throws {
        var random = SeededRandomSource(seed: 13)
        let a = try SaltEdge.ConnectionKey(generatingWith: &random)
        let b = try SaltEdge.ConnectionKey(generatingWith: &random)
        #expect(a.publicKey.modulus != b.publicKey.modulus && a.publicKey.keySizeInBits == 2048)
        #expect(a.publicKey.publicExponent == [1, 0, 1])
        #expect("\(a)" == "SaltEdge.ConnectionKey(2048 bits, redacted)")
        var dumped = ""
        dump(a, to: &dumped)
        #expect(!dumped.contains("modulus") && dumped.count < 80)
    }
}
