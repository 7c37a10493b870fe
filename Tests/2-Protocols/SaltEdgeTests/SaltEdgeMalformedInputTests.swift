// Every Salt Edge parser fed malformed input: typed errors, never a trap, and one decryption
// error for every way a bundle can fail.

import CryptoPrimitives
import Foundation
import ProtocolSupport
import SaltEdge
import Testing
import ClientTestSupport
import TestSupport

@Suite(.enabled(if: TestBuild.isOptimized, "heavy unoptimised; swift test -c release runs it"))
struct SaltEdgeMalformedInputTests {
    let connectionKey = SaltEdge.ConnectionKey(privateKey: SaltEdgeTestServer.keys.connection)

    static let garbage: [String] = [
        "", "{", "[]", "null", "{\"data\":null}", "{\"data\":[]}", "{\"data\":{}}", "{\"data\":[{\"id\":\"\"}]}",
        "{\"data\":{\"id\":true,\"status\":1}}", "\u{0}\u{1}", String(repeating: "[", count: 10_000), "{\"data\":[{\"id\":1,\"connection_id\":2}]}",
    ]

    @Test(arguments: garbage) func responseParsersThrowTyped(_ text: String) {
        let response = HTTPResponse(status: 200, body: Array(text.utf8))
        #expect(throws: ProtocolError.self) { try SaltEdge.ProviderConfiguration(responseBody: response.body) }
        #expect(throws: ProtocolError.self) { try SaltEdge.CreatedConnection(response: response) }
        #expect(throws: ProtocolError.self) { try SaltEdge.ConnectionInfo(response: response) }
        #expect(throws: ProtocolError.self) { try SaltEdge.DecisionResult(response: response) }
        #expect(throws: ProtocolError.self) { try SaltEdge.EncryptedAuthorization.single(from: response) }
        #expect(throws: ProtocolError.self) { try SaltEdge.connectionID(from: response) }
        #expect(throws: ProtocolError.self) { try SaltEdge.revokedConsentID(from: response) }
        #expect(throws: ProtocolError.self) { try SaltEdge.EncryptedBundle(jsonBytes: response.body) }
        if text != "{\"data\":[]}" {
            #expect(throws: ProtocolError.self) { try SaltEdge.EncryptedAuthorization.list(from: response) }
            #expect(throws: ProtocolError.self) { try SaltEdge.EncryptedConsent.list(from: response) }
        }
    }

    @Test func errorBodiesBecomeTheirClass() {
        let notFound = HTTPResponse(status: 401, body: Array(#"{"error_class":"ConnectionNotFound","error_message":"gone"}"#.utf8))
        expectError(code: .connectionNotFound) { try SaltEdge.EncryptedAuthorization.list(from: notFound) }
        let html = HTTPResponse(status: 502, body: Array("<html>".utf8))
        let error = expectError(code: ProtocolError.Code(rawValue: "ApiResponseError"), "a 502 parsed") { try SaltEdge.connectionID(from: html) }
        #expect(error?.message == "Request Error (502)")
    }

    @Test func everyBundleFailureIsTheSameError() throws {
        let good = try SaltEdgeTestServer.encrypt("{}", to: connectionKey.publicKey, seed: 1)
        let other = try SaltEdgeTestServer.encrypt("{}", to: SaltEdgeTestServer.keys.provider.publicKey, seed: 2)
        let (key, iv, data) = (try #require(good["key"]), try #require(good["iv"]), try #require(good["data"]))
        let broken: [SaltEdge.EncryptedBundle] = [
            .init(key: "", iv: iv, data: data),
            .init(key: "!!!", iv: iv, data: data),
            .init(key: iv, iv: key, data: data),                                  // lengths swapped
            .init(key: key, iv: iv, data: String(data.dropLast(6)) + "AAAA\n"),   // bad padding or length
            .init(key: key, iv: iv, data: ""),
            .init(key: try #require(other["key"]), iv: iv, data: data),           // another recipient
            .init(key: key + key, iv: iv, data: data),                            // two blocks, 64 bytes
            .init(key: String(key.dropFirst(4)), iv: iv, data: data),             // truncated block
        ]
        for bundle in broken {
            let error = expectError(code: .decryptionFailed) { try bundle.decrypt(with: connectionKey) }
            #expect(error?.message == "decryption failed")
        }
        #expect(try SaltEdge.EncryptedBundle(key: key, iv: iv, data: data).decrypt(with: connectionKey) == Array("{}".utf8))
    }

    /// The bundle is one verdict up to and including the JSON parse (docs/protocols/saltedge-v2.md §3.3): a
    /// block that does not conform, a key of the wrong length, a bad pad, and a good pad over
    /// text that is not the expected JSON all give the identical error — code, reason, place.
    @Test func paddingAndPayloadFailuresAreOneIdenticalError() throws {
        struct Payload: Decodable { let title: String }
        var random = SeededRandomSource(seed: 0xB0B)
        let recipient = RSA.Encryption.PublicKey(sameKeyAs: connectionKey.publicKey)
        func bundle(key: [UInt8], iv: [UInt8], plaintext: String, padKey: Bool = true) throws -> SaltEdge.EncryptedBundle {
            let data = try AES.UnauthenticatedCBC.encrypt(Array(plaintext.utf8), using: SymmetricKey(data: Array((key + [UInt8](repeating: 1, count: 32)).prefix(32))), iv: iv)
            return SaltEdge.EncryptedBundle(key: Base64.encode(try recipient.encrypt(key, padding: .insecurePKCS1v1_5, using: &random)),
                                            iv: Base64.encode(try recipient.encrypt(iv, padding: .insecurePKCS1v1_5, using: &random)),
                                            data: Base64.encode(data))
        }
        let key = try random.bytes(count: 32), iv = try random.bytes(count: 16)
        let good = try bundle(key: key, iv: iv, plaintext: #"{"title":"Pay 10 EUR"}"#)
        #expect(try good.decrypt(Payload.self, with: connectionKey).title == "Pay 10 EUR")
        // A raw block that is not PKCS #1 v1.5 (c = 2^…, an arbitrary in-range value).
        let nonConforming = Base64.encode([UInt8](repeating: 0, count: 200) + [UInt8](repeating: 0x42, count: 56))
        let variants: [SaltEdge.EncryptedBundle] = [
            .init(key: nonConforming, iv: good.iv, data: good.data),                       // key block not conforming
            .init(key: good.key, iv: nonConforming, data: good.data),                       // IV block not conforming
            try bundle(key: Array(key.prefix(31)), iv: iv, plaintext: #"{"title":"x"}"#),   // a 31-byte key inside
            try bundle(key: key, iv: iv, plaintext: "not JSON at all"),                     // good pad, bad JSON
            try bundle(key: key, iv: iv, plaintext: #"{"other":1}"#),                       // good pad, wrong shape
            .init(key: good.key, iv: good.iv, data: String(good.data.dropLast(24)) + "AAAAAAAAAAAAAAAAAAAAAA=="), // bad pad
            .init(key: "%%%", iv: good.iv, data: good.data),                                // not Base64
            .init(key: good.key, iv: good.iv, data: "AAAA"),                                // not whole blocks
        ]
        let errors = variants.compactMap { variant in
            expectError(code: .decryptionFailed, "a broken bundle decrypted") { try variant.decrypt(Payload.self, with: connectionKey) }
        }
        #expect(errors.count == variants.count)
        for error in errors {
            #expect(error.message == "decryption failed" && error.cryptoError == nil)
            #expect(error.file == errors[0].file && error.line == errors[0].line, "\(error.file):\(error.line)")
        }
    }

    /// The provider key arrives from the configuration URL: https only, with a loudly named
    /// opt-out that reaches no further than the loopback host.
    @Test func configurationURLsMustBeHTTPS() throws {
        func link(_ url: String) -> String { "authenticator://saltedge.com/connect?configuration=" + url }
        for url in ["http://provider.example.com/configuration", "https://intranet/configuration", "http://localhost:8080/configuration",
                    "https://.example.com/c", "ftp://provider.example.com/c"] {
            expectError(code: .insecureURL) { try SaltEdge.DeepLink(parsing: link(url)) }
        }
        _ = try SaltEdge.DeepLink(parsing: link("https://provider.example.com/configuration"))
        let loopback = URLPolicy.insecureAllowingPlainHTTPToLoopback
        for url in ["http://localhost:8080/api/authenticator/v2/configuration", "http://127.0.0.1:9/c", "https://localhost/c", "http://[::1]:80/c"] {
            _ = try SaltEdge.DeepLink(parsing: link(url), urlPolicy: loopback)
        }
        for url in ["http://provider.example.com/c", "http://127.0.0.1.example.com/c", "http://user@evil.example.com:80/c"] {
            expectError(code: .insecureURL) { try SaltEdge.DeepLink(parsing: link(url), urlPolicy: loopback) }
        }
        // user:password@ is refused even to loopback, and the refusal does not repeat it.
        let refusal = expectError(code: .insecureURL) { try SaltEdge.DeepLink(parsing: link("http://u:s3cret@127.0.0.1:9/c"), urlPolicy: loopback) }
        #expect(refusal.map { !"\($0)".contains("s3cret") && "\($0)".contains("user:password@") } == true, "\(String(describing: refusal))")
        // The configuration's sca_service_url follows the same rule.
        let key = SaltEdgeTestServer.keys.provider.publicKey.pemRepresentation.replacingOccurrences(of: "\n", with: "\\n")
        func configuration(_ url: String) -> [UInt8] {
            Array(#"{"data":{"sca_service_url":"\#(url)","api_version":"2","provider_id":"1","provider_name":"P","provider_public_key":"\#(key)"}}"#.utf8)
        }
        expectError(code: .insecureURL) { try SaltEdge.ProviderConfiguration(responseBody: configuration("http://sca.example.com")) }
        _ = try SaltEdge.ProviderConfiguration(responseBody: configuration("https://sca.example.com/api"))
        _ = try SaltEdge.ProviderConfiguration(responseBody: configuration("http://127.0.0.1:8080"), urlPolicy: loopback)
    }

    @Test func deepLinksAndRedirectsRejectNonsense() {
        for link in ["", "https://saltedge.com/connect?configuration=https://a.b/c", "authenticator://saltedge.com/other?x=1",
                     "authenticator://saltedge.com/connect?configuration=%ZZ", "authenticator://",
                     "authenticator://saltedge.com/action?api_version=2&action_id=1"] {
            expectError(code: .invalidDeepLink) { try SaltEdge.DeepLink(parsing: link) }
        }
        // A well-formed link whose configuration URL the policy refuses says so.
        for link in ["authenticator://saltedge.com/connect?configuration=ftp://a.b",
                     "authenticator://saltedge.com/connect?configuration=https://localhost/v2"] {
            expectError(code: .insecureURL) { try SaltEdge.DeepLink(parsing: link) }
        }
        #expect(SaltEdge.DeepLink.apiVersion(ofConfigurationURL: "https://sca.example.com/api/authenticator/v2/configuration") == 2)
        #expect(SaltEdge.DeepLink.apiVersion(ofConfigurationURL: "https://sca.example.com/api/authenticator/vX/configuration") == 1)
        #expect(SaltEdge.DeepLink.apiVersion(ofConfigurationURL: "https://sca.example.com/configuration") == 1)

        #expect(throws: ProtocolError.self) { try SaltEdge.AccessTokenRedirect(parsing: "https://evil.example/redirect?id=1&access_token=x") }
        #expect(throws: ProtocolError.self) { try SaltEdge.AccessTokenRedirect(parsing: "authenticator://oauth/redirect?access_token=%4") }
        let failure = try? SaltEdge.AccessTokenRedirect(parsing: "authenticator://oauth/redirect?id=3&error_message=Bad%20login")
        #expect(failure == .failure(connectionID: "3", errorClass: "AuthenticationError", errorMessage: "Bad login"))
        expectError(code: .authenticationFailed) { try failure?.accessToken(with: connectionKey) }
        let junk = SaltEdge.AccessTokenRedirect.success(connectionID: "1", encryptedAccessToken: "bm90IGEgYmxvY2s=")
        #expect(throws: ProtocolError.decryptionFailure()) { try junk.accessToken(with: connectionKey) }
    }

    @Test func providerKeysInEveryAcceptedShapeAndNothingElse() throws {
        let key = SaltEdgeTestServer.keys.provider.publicKey
        let spki = key.pemRepresentation
        let pkcs1 = key.pkcs1PEMRepresentation
        let bare = Data(key.pkcs1DERRepresentation).base64EncodedString(options: [.lineLength64Characters, .endLineWithCarriageReturn])
        for text in [spki, pkcs1, bare, spki.replacingOccurrences(of: "\n", with: "\\n"), spki.replacingOccurrences(of: "\n", with: "\\r\\n")] {
            #expect(try SaltEdge.providerPublicKey(fromText: text).modulus == key.modulus)
        }
        for text in ["", "-----BEGIN PUBLIC KEY-----\n-----END PUBLIC KEY-----\n", "AAAA", "MIIB" + String(repeating: "A", count: 100)] {
            expectError(code: .malformedInput) { try SaltEdge.providerPublicKey(fromText: text) }
        }
        #expect(throws: ProtocolError.self) { try SaltEdge.Geolocation(latitude: "91", longitude: "0") }
        #expect(throws: ProtocolError.self) { try SaltEdge.Geolocation(latitude: "1e1", longitude: "0") }
    }
}
