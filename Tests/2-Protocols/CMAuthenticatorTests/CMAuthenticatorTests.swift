// CM Authenticator: every request checked by the test server half, both token shapes for the
// same request, expiry arithmetic, the signed certificate list, and malformed input.

import CMAuthenticator
import CryptoPrimitives
import Foundation
import ProtocolSupport
import Testing
import ClientTestSupport
import TestSupport

@Suite struct CMAuthenticatorTests {
    let environment: CMAuthenticator.Environment
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    let client = CMAuthenticator.ClientDescription.linux(app: "mfa", version: "1.0", system: "6.12", architecture: "x86_64", locale: "en_US")

    init() throws { environment = try CMAuthenticator.Environment(qrCode: "0f8e4c1a-2b3d-4e5f-8a9b-1c2d3e4f5a6b,k3y,with,commas") }

    @Test func bothTokenShapesForTheSameRequestPassTheServer() throws {
        for style in [CMAuthenticator.TokenStyle.android, .iOS] {
            let requests = CMAuthenticator.Requests(deviceID: "dev-1", client: client, tokenStyle: style)
            let request = try requests.answer(.denied, toRequestID: "auth-9", in: environment, now: now)
            let body = try #require(request.body)
            #expect(body == Array(#"{"auth_status":"denied"}"#.utf8))
            let bearer = String(decoding: try #require(request.secretHeader("Authorization")).unsafeExposedBytes, as: UTF8.self)
            #expect(bearer.hasPrefix("Bearer "))
            let claims = try #require(CMTestServer.verify(String(bearer.dropFirst(7)), secret: "k3y,with,commas", body: body, now: 1_700_000_030))
            #expect((claims["auth_id"] as? String == "auth-9") == (style == .android))
            #expect((claims["sig"] != nil) == (style == .android))
            // Expired a minute later, not yet valid a second earlier, wrong with another secret.
            #expect(CMTestServer.verify(String(bearer.dropFirst(7)), secret: "k3y,with,commas", body: body, now: 1_700_000_060) == nil)
            #expect(CMTestServer.verify(String(bearer.dropFirst(7)), secret: "k3y,with,commas", body: body, now: 1_699_999_999) == nil)
            #expect(CMTestServer.verify(String(bearer.dropFirst(7)), secret: "k3y", body: body, now: 1_700_000_030) == nil)
        }
        // `sig` binds the body.
        let request = try CMAuthenticator.Requests(deviceID: "dev-1", client: client).answer(.approved, toRequestID: "a", in: environment, now: now)
        let token = String(String(decoding: try #require(request.secretHeader("Authorization")).unsafeExposedBytes, as: UTF8.self).dropFirst(7))
        #expect(CMTestServer.verify(token, secret: "k3y,with,commas", body: Array(#"{"auth_status":"denied"}"#.utf8), now: 1_700_000_001) == nil)
    }

    @Test func deviceCallsAreUnauthenticatedAndShapedPerSpec() throws {
        let device = CMAuthenticator.DeviceDescription(manufacturer: "Pine64", osVersion: "6.12", appVersion: "1.0 (7)", appID: "com.example.mfa",
                                                       languageCode: "en", model: "PinePhone", modelID: "pinephone", platform: "Linux", appKey: "app-key")
        let first = CMAuthenticator.Requests(deviceID: nil, client: client).registerDevice(device, update: .phoneNumber(try .init("+31 6 0123 4567")))
        #expect(first.method == .post && first.path == "device" && first.header("Authorization") == nil)
        let body = try #require(try JSONSerialization.jsonObject(with: Data(first.body ?? [])) as? [String: Any])
        #expect(body["phone_number"] as? String == "+31601234567" && body["app_key"] as? String == "app-key" && body["push_token"] == nil)
        let later = CMAuthenticator.Requests(deviceID: "dev 1", client: client).registerDevice(device, update: .pushToken(nil, pushEnabled: false, development: nil))
        #expect(later.method == .put && later.path == "device/dev%201")
        #expect(String(decoding: later.body ?? [], as: UTF8.self).hasSuffix(#""platform":"Linux","push_enabled":false,"app_key":"app-key"}"#))
        let registration = try CMAuthenticator.DeviceRegistration(response: HTTPResponse(status: 200, body: Array(#"{"id":"d1","registration_status":"pending","push_enabled":false,"development":false}"#.utf8)))
        #expect(registration.id == "d1" && registration.registrationStatus == .pending)
        for bad in ["0031601234567", "+0123456789", "+3160", "+31601234567890123", "+31 6 abc", ""] {
            expectError(code: .invalidArgument) { try CMAuthenticator.PhoneNumber(bad) }
        }
        let list = CMAuthenticator.Requests(deviceID: "d1", client: client).listEnvironments()
        #expect(list.header("Authorization") == nil && list.path == "device/d1/environment")
    }

    @Test func authenticationRequestsExpireAfterCreatedAtPlusExpiry() throws {
        let json = #"[{"id":"r1","auth_type":"otp","expiry":90,"pin":"123456","created_at":"2023-11-14T22:13:20+0000","ip":"192.0.2.1","geoip":{"country_code":"NL","latitude":52.1}}]"#
        let request = try #require(try CMAuthenticator.AuthenticationRequest.pending(from: HTTPResponse(status: 200, body: Array(json.utf8))))
        #expect(request.expiresAt == Date(timeIntervalSince1970: 1_700_000_090))
        #expect(!request.isExpired(at: Date(timeIntervalSince1970: 1_700_000_089)) && request.isExpired(at: Date(timeIntervalSince1970: 1_700_000_090)))
        #expect(request.geoIP?["latitude"]?.text == "52.1")
        guard case .oneTimePIN(let pin) = request.kind else { Issue.record("not an OTP"); return }
        #expect(pin.displayText == "123456" && !"\(pin)".contains("123456"))
        let requests = CMAuthenticator.Requests(deviceID: "d1", client: client)
        expectError(code: .invalidArgument) { try requests.answer(.approved, to: request, in: environment, now: now) }

        let instant = #"[{"id":"r2","auth_type":"instant","created_at":"2023-11-14T22:13:20Z"},{"id":"ignored","auth_type":"instant","created_at":"x"}]"#
        let open = try #require(try CMAuthenticator.AuthenticationRequest.pending(from: HTTPResponse(status: 200, body: Array(instant.utf8))))
        #expect(open.expiry == 60)
        #expect(try requests.answer(.approved, to: open, in: environment, now: now).path == "device/d1/instant/r2")
        expectError(code: .requestExpired) { try requests.answer(.approved, to: open, in: environment, now: now.addingTimeInterval(60)) }
        #expect(try CMAuthenticator.AuthenticationRequest.pending(from: HTTPResponse(status: 200, body: Array("[]".utf8))) == nil)
        expectError(code: .requestExpired) { try CMAuthenticator.answerStatus(from: HTTPResponse(status: 410)) }
        #expect(try CMAuthenticator.answerStatus(from: HTTPResponse(status: 204)) == nil)
        #expect(try CMAuthenticator.answerStatus(from: HTTPResponse(status: 200, body: Array(#"{"auth_status":"approved"}"#.utf8))) == "approved")
        expectError(code: .environmentInvalid) { try CMAuthenticator.Requests.checkRegistration(HTTPResponse(status: 401)) }
    }

    @Test(.enabled(if: TestBuild.isOptimized, "heavy unoptimised; swift test -c release runs it"))
    func certificateListKeepsOnlyVerifiedEntries() throws {
        var random = SeededRandomSource(seed: 0xC3)
        let key = try RSA.Signing.PrivateKey(keySize: .bits2048, using: &random)
        let good = try CMTestServer.signedEntry(#"{"hash":"AB12","algorithm":"sha-256","spki_hash":"opbrnm="}"#, key: key)
        var forged = try CMTestServer.signedEntry(#"{"hash":"cd34"}"#, key: key)
        forged["data"] = Data(#"{"hash":"ef56"}"#.utf8).base64EncodedString()
        let body = try JSONSerialization.data(withJSONObject: [good, forged, ["data": "!!", "signature": "??"]])
        let pins = try CMAuthenticator.verifiedPins(from: HTTPResponse(status: 200, body: Array(body)), key: key.publicKey)
        #expect(pins == [CMAuthenticator.CertificatePin(certificateSHA256Hex: "ab12", spkiSHA256Base64: "opbrnm=", algorithm: "sha-256")])
        #expect(pins.first?.okHttpPin == "sha256/opbrnm=")
        // The embedded CM key verifies none of our entries.
        #expect(try CMAuthenticator.verifiedPins(from: HTTPResponse(status: 200, body: Array(body))).isEmpty)
        #expect(try CMAuthenticator.certificateListKey().keySizeInBits == 2048)
    }

    static let garbage = ["", "{", "{}", "[{}]", "[{\"id\":1}]", "null", "[{\"id\":\"x\",\"auth_type\":\"push\",\"created_at\":\"2023-11-14T22:13:20Z\"}]",
                          "[{\"id\":\"x\",\"auth_type\":\"otp\",\"created_at\":\"2023-11-14T22:13:20Z\"}]", String(repeating: "{", count: 5000)]

    @Test(arguments: garbage) func parsersThrowTypedErrors(_ text: String) {
        let response = HTTPResponse(status: 200, body: Array(text.utf8))
        #expect(throws: ProtocolError.self) { try CMAuthenticator.AuthenticationRequest.pending(from: response) }
        #expect(throws: ProtocolError.self) { try CMAuthenticator.DeviceRegistration(response: response) }
        #expect(throws: ProtocolError.self) { try CMAuthenticator.EnvironmentInfo.list(from: response) }
        #expect(throws: ProtocolError.self) { try CMAuthenticator.verifiedPins(from: response) }
        expectError(code: .serverError) { try CMAuthenticator.DeviceRegistration(response: HTTPResponse(status: 500, body: response.body)) }
    }

    @Test func qrCodesAndSecrets() throws {
        #expect(environment.id == "0f8e4c1a-2b3d-4e5f-8a9b-1c2d3e4f5a6b")
        #expect(environment.secret == CMAuthenticator.EnvironmentSecret(rawRepresentation: SecretBytes("k3y,with,commas".utf8)))
        #expect(!"\(environment.secret)".contains("k3y"))
        for bad in ["", ",", "0f8e4c1a-2b3d-4e5f-8a9b-1c2d3e4f5a6b,", "0f8e4c1a-2b3d-4e5f-8a9b-1c2d3e4f5a6", ",0f8e4c1a-2b3d-4e5f-8a9b-1c2d3e4f5a6b"] {
            expectError(code: .invalidQRCode) { try CMAuthenticator.Environment(qrCode: bad) }
        }
    }
}
