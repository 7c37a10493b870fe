// The 3.3 keystore: our request JWT checked by a test server (HS256 with the raw APP_SECRET or
// the activation-scope key), its ES256 answer verified, every mismatch refused; and the time
// synchronisation rule.

import CryptoPrimitives
import Foundation
import PowerAuth
import ProtocolSupport
import Testing
import TestSupport

@Suite struct PowerAuthKeystoreTests {
    static func b64url(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static func unb64url(_ text: Substring) -> [UInt8] {
        var s = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while s.count % 4 != 0 { s += "=" }
        return Array(Data(base64Encoded: s) ?? Data())
    }

    /// The server: checks the request JWT's HS256 with `key`, answers with an ES256 JWT.
    static func answer(_ request: HTTPRequest, key: SymmetricKey, signer: P256.Signing.PrivateKey, temporary: P256.KeyAgreement.PublicKey,
                       tamper: (inout [String: Any]) -> Void = { _ in }) throws -> HTTPResponse? {
        let body = try JSONSerialization.jsonObject(with: Data(request.body ?? [])) as? [String: [String: String]]
        let parts = (body?["requestObject"]?["jwt"] ?? "").split(separator: ".")
        guard parts.count == 3, parts[0] == "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9",
              HMAC<SHA256>.authenticationCode(for: Array((parts[0] + "." + parts[1]).utf8), using: key).bytes == unb64url(parts[2]) else { return nil }
        var claims = try JSONSerialization.jsonObject(with: Data(unb64url(parts[1]))) as? [String: Any] ?? [:]
        claims["sub"] = "tmp-42"
        claims["publicKey"] = Data(temporary.compressedRepresentation).base64EncodedString()
        claims["iat_ms"] = 1_700_000_000_000
        claims["exp_ms"] = 1_700_000_300_000
        tamper(&claims)
        let header = b64url(Array(#"{"alg":"ES256","typ":"JWT"}"#.utf8))
        let payload = b64url(Array(try JSONSerialization.data(withJSONObject: claims)))
        let signature = try signer.signature(for: Array((header + "." + payload).utf8))
        let jwt = header + "." + payload + "." + b64url(signature.rawRepresentation)
        return HTTPResponse(status: 200, body: Array(try JSONSerialization.data(withJSONObject: ["status": "OK", "responseObject": ["jwt": jwt]])))
    }

    /// A master key, a temporary key and a configuration trusting the master key.
    static func fixture(_ random: inout SeededRandomSource) throws
        -> (master: P256.Signing.PrivateKey, temporary: P256.KeyAgreement.PublicKey, configuration: PowerAuth.Configuration) {
        let master = try P256.Signing.PrivateKey(using: &random)
        let temporary = try P256.KeyAgreement.PrivateKey(using: &random).publicKey
        let configuration = try PowerAuth.Configuration(applicationKey: "lceX5qe+O+Sb0t8TQqg35A==", applicationSecret: "m3JdVJMIu65fXXFi4VqjjA==",
                                                        masterServerPublicKey: master.publicKey, baseURL: "https://x")
        return (master, temporary, configuration)
    }

    @Test func bothScopesRoundTrip() throws {
        var random = SeededRandomSource(seed: 400)
        let (master, temporary, configuration) = try Self.fixture(&random)
        let appPending = try PowerAuth.PendingKeystore(configuration: configuration, using: &random)
        let appKey = SymmetricKey(data: Array(Data(base64Encoded: "m3JdVJMIu65fXXFi4VqjjA==") ?? Data()))
        let appAnswer = try #require(try Self.answer(appPending.request, key: appKey, signer: master, temporary: temporary))
        let key = try appPending.process(appAnswer, serverKey: master.publicKey)
        #expect(key.id == "tmp-42" && key.publicKey == temporary && key.encryptionKey.temporaryKeyID == "tmp-42")
        #expect(!key.isExpired(atMilliseconds: 1_700_000_289_999) && key.isExpired(atMilliseconds: 1_700_000_290_000))

        let transport = SymmetricKey(data: Array(repeating: 3, count: 16))
        let actPending = try PowerAuth.PendingKeystore(configuration: configuration, activation: ("act-9", transport), using: &random)
        // The application-scope key does not sign an activation-scope request.
        #expect(try Self.answer(actPending.request, key: appKey, signer: master, temporary: temporary) == nil)
        let actKey = PowerAuth.KeyDerivation.deriveInternal(transport, index: Array(Data(base64Encoded: "m3JdVJMIu65fXXFi4VqjjA==") ?? Data()))
        let server = try P256.Signing.PrivateKey(using: &random)
        let actAnswer = try #require(try Self.answer(actPending.request, key: actKey, signer: server, temporary: temporary))
        #expect(try actPending.process(actAnswer, serverKey: server.publicKey).id == "tmp-42")
        #expect(throws: ProtocolError(.invalidSignature, "")) { try actPending.process(actAnswer, serverKey: master.publicKey) }

        // Claims that do not match the request are refused.
        for tamper: (inout [String: Any]) -> Void in [{ $0["challenge"] = "AAAA" }, { $0["applicationKey"] = "x" }, { $0["activationId"] = "act-1" },
                                                      { $0["publicKey"] = "AAAA" }, { $0.removeValue(forKey: "exp_ms") }] {
            let response = try #require(try Self.answer(appPending.request, key: appKey, signer: master, temporary: temporary, tamper: tamper))
            #expect(throws: ProtocolError(.malformedInput, "")) { try appPending.process(response, serverKey: master.publicKey) }
        }
        for garbage in ["", "{}", #"{"responseObject":{"jwt":"a.b"}}"#, #"{"responseObject":{"jwt":"a.b.c"}}"#] {
            #expect(throws: ProtocolError.self) { try appPending.process(HTTPResponse(status: 200, body: Array(garbage.utf8)), serverKey: master.publicKey) }
        }
    }

    @Test func timeSynchronizationFollowsTheSDKRule() {
        var sync = PowerAuth.TimeSynchronization()
        // Round trip of 200 ms: the server time is taken as serverTime + elapsed/2 at the response (§11.4).
        sync.observe(serverTime: 1_000_000 + 5_000, requestStart: 999_800, responseEnd: 1_000_000)
        #expect(sync.isSynchronized && sync.adjustment == 5_100)
        // Within 10 s of the old adjustment once synchronised: kept.
        sync.observe(serverTime: 2_000_000 + 8_000, requestStart: 2_000_000, responseEnd: 2_000_000)
        #expect(sync.adjustment == 5_100)
        // A jump of more than 10 s replaces it; a round trip over 16 s is ignored.
        sync.observe(serverTime: 3_000_000 + 60_000, requestStart: 3_000_000, responseEnd: 3_000_000)
        #expect(sync.adjustment == 60_000 && sync.serverTime(atLocal: 10) == 60_010)
        sync.observe(serverTime: 0, requestStart: 0, responseEnd: 16_001)
        #expect(sync.adjustment == 60_000)
        sync.reset()
        #expect(!sync.isSynchronized && sync.adjustment == 0)
    }
}
