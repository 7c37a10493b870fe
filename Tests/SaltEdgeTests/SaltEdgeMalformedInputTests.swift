// Every Salt Edge parser fed malformed input: typed errors, never a trap, and one decryption
// error for every way a bundle can fail.

import CryptoPrimitives
import Foundation
import ProtocolSupport
import SaltEdge
import Testing
import TestSupport

@Suite struct SaltEdgeMalformedInputTests {
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
        #expect(throws: ProtocolError(.connectionNotFound, "")) { try SaltEdge.EncryptedAuthorization.list(from: notFound) }
        let html = HTTPResponse(status: 502, body: Array("<html>".utf8))
        do {
            _ = try SaltEdge.connectionID(from: html)
            Issue.record("a 502 parsed")
        } catch {
            #expect(error.code.rawValue == "ApiResponseError" && error.reason == "Request Error (502)")
        }
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
            #expect(throws: ProtocolError.decryptionFailure()) { try bundle.decrypt(with: connectionKey) }
            do { _ = try bundle.decrypt(with: connectionKey) } catch { #expect(error.reason == "decryption failed") }
        }
        #expect(try SaltEdge.EncryptedBundle(key: key, iv: iv, data: data).decrypt(with: connectionKey) == Array("{}".utf8))
    }

    @Test func deepLinksAndRedirectsRejectNonsense() {
        for link in ["", "https://saltedge.com/connect?configuration=https://a.b/c", "authenticator://saltedge.com/other?x=1",
                     "authenticator://saltedge.com/connect?configuration=%ZZ", "authenticator://saltedge.com/connect?configuration=ftp://a.b",
                     "authenticator://saltedge.com/connect?configuration=https://localhost/v2", "authenticator://",
                     "authenticator://saltedge.com/action?api_version=2&action_id=1"] {
            #expect(throws: ProtocolError(.invalidDeepLink, "")) { try SaltEdge.DeepLink(parsing: link) }
        }
        #expect(SaltEdge.DeepLink.apiVersion(ofConfigurationURL: "https://sca.example.com/api/authenticator/v2/configuration") == 2)
        #expect(SaltEdge.DeepLink.apiVersion(ofConfigurationURL: "https://sca.example.com/api/authenticator/vX/configuration") == 1)
        #expect(SaltEdge.DeepLink.apiVersion(ofConfigurationURL: "https://sca.example.com/configuration") == 1)

        #expect(throws: ProtocolError.self) { try SaltEdge.AccessTokenRedirect(parsing: "https://evil.example/redirect?id=1&access_token=x") }
        #expect(throws: ProtocolError.self) { try SaltEdge.AccessTokenRedirect(parsing: "authenticator://oauth/redirect?access_token=%4") }
        let failure = try? SaltEdge.AccessTokenRedirect(parsing: "authenticator://oauth/redirect?id=3&error_message=Bad%20login")
        #expect(failure == .failure(connectionID: "3", errorClass: "AuthenticationError", errorMessage: "Bad login"))
        #expect(throws: ProtocolError(.authenticationFailed, "")) { try failure?.accessToken(with: connectionKey) }
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
            #expect(throws: ProtocolError(.malformedInput, "")) { try SaltEdge.providerPublicKey(fromText: text) }
        }
        #expect(throws: ProtocolError.self) { try SaltEdge.Geolocation(latitude: "91", longitude: "0") }
        #expect(throws: ProtocolError.self) { try SaltEdge.Geolocation(latitude: "1e1", longitude: "0") }
    }
}
