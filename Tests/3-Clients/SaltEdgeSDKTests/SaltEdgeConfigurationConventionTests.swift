// The layer-3 configuration convention for the Salt Edge Authenticator client (docs/design.md §1;
// the shared defaults are checked over the five clients in ClientConventionTests): the connection key pair comes from the configured random source (a failing
// one stops enrolment before create-connection is sent); a configured logger sees a signed
// request with its `Access-Token` and signature redacted. Real store on disk, in-process transport.

import AuthNetworking
import CryptoPrimitives
import Foundation
import ProtocolSupport
import SaltEdge
import SaltEdgeSDK
import SecureStore
import Testing
import ClientTestSupport
import TestSupport

@Suite struct SaltEdgeConfigurationConventionTests {
    /// A random source that always fails.
    struct RefusingRandomSource: RandomSource, Sendable {
        mutating func fill(_ buffer: UnsafeMutableRawBufferPointer) throws(CryptoError) { throw .randomSourceFailure }
    }

    /// Keeps every log line.
    final class Capture: LogSink, @unchecked Sendable {
        let lock = NSLock()
        var lines: [String] = []
        func write(_ line: String, level: LogLevel) { lock.withLock { lines.append(line) } }
        var text: String { lock.withLock { lines.joined(separator: "\n") } }
    }

    static func store() throws -> SecureStore {
        try makeTemporaryStore("saltedge-convention")
    }

    /// The RSA key pair of the connection is drawn from the configured (failing) source before
    /// any request, so neither the configuration nor create-connection is fetched.
    @Test func failingRandomSourceStopsEnrolmentBeforeCreateConnection() async throws {
        let providerKey = try RSA.Signing.PrivateKey(pemRepresentation: TestKeyMaterial.rsa1024PKCS8PEM).publicKey
        let object: [String: Any] = ["data": ["sca_service_url": "https://sca.example.com", "api_version": "2", "provider_id": 12,
                                              "provider_name": "Bank", "provider_logo_url": NSNull(), "provider_support_email": "s@example.com",
                                              "geolocation_required": false, "provider_public_key": providerKey.pemRepresentation]]
        let body = Array(try JSONSerialization.data(withJSONObject: object))
        let transport = InProcessTransport { _ in HTTPResponse(status: 200, body: body) }
        let client = SaltEdgeAuthenticatorClient(configuration: .init(random: RefusingRandomSource()), store: try Self.store(), transport: .single(transport))
        let link = "authenticator://saltedge.com/connect?configuration=https://provider.example.com/api/authenticator/v2/configuration&connect_query=A1"
        await #expect(throws: SaltEdgeClientError(.invalidInput, "")) { _ = try await client.beginConnection(deepLink: link) }
        let sent = await transport.sent
        #expect(sent.isEmpty, "\(sent.map(\.path))")
    }

    /// A signed request of a stored connection is logged with `Access-Token` and the signature masked.
    @Test func loggerRedactsTheAccessToken() async throws {
        let store = try Self.store()
        try ConnectionRecords(store: store).save(try SaltEdgeConnectionSecretsTests.connection())
        let capture = Capture()
        let transport = InProcessTransport { _ in HTTPResponse(status: 200, body: Array(#"{"data":{}}"#.utf8)) }
        let client = SaltEdgeAuthenticatorClient(configuration: .init(logger: Logger(level: .debug, sink: capture)), store: store, transport: .single(transport))
        try await client.updatePushToken("push-1", connectionID: "333")
        let sent = try #require(await transport.sent.first)
        #expect(sent.secretHeader("Access-Token") == SecretBytes(SaltEdgeConnectionSecretsTests.accessToken.utf8))
        let log = capture.text
        #expect(log.contains("→ "))
        #expect(log.contains("Access-Token: <redacted"))
        #expect(!log.contains(SaltEdgeConnectionSecretsTests.accessToken))
        if let signature = sent.header("Signature") ?? sent.header("x-jws-signature") { #expect(!log.contains(signature)) }
    }
}
