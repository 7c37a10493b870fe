// Cases the differential fuzz targets found (docs/fuzzing.md, diff-powerauth-*): the client half
// against the server half of this repository, each reduced to the one value that disagreed.

import CryptoPrimitives
import PowerAuth
import PowerAuthServer
import ProtocolSupport
import Testing

@Suite struct DifferentialRegressionTests {
    /// An application and its 3.2 application-scope parameters (docs/protocols/powerauth.md §9.1).
    func application() throws -> (PowerAuthServer.Application, PowerAuth.ECIES.Parameters) {
        var random = SeededRandomSource(seed: 41)
        let application = try PowerAuthServer.Application(using: &random)
        return (application, application.applicationScope(.applicationScopeGeneric, version: .v3_2, temporaryKeyID: nil))
    }

    /// diff-powerauth-ecies: a request timestamp above Int64.max was MACed as itself but written
    /// to JSON clamped to Int64.max, so the server computed SH2 (§9.2) over another timestamp and
    /// refused the client's own request with the decryption error.
    @Test func requestTimestampAboveInt64MaximumRoundTrips() throws {
        let (application, parameters) = try application()
        var random = SeededRandomSource(seed: 42)
        for timestamp in [UInt64(Int64.max) + 1, UInt64.max] {
            let (request, _) = try PowerAuth.ECIES.Encryptor(publicKey: application.masterAgreementKey.publicKey, parameters: parameters)
                .encryptRequest(Array("{}".utf8), timestamp: timestamp, using: &random)
            let received = try PowerAuth.ECIES.Request(jsonBytes: request.json.bytes)
            #expect(received.timestamp == timestamp)
            let (plaintext, _) = try PowerAuth.ECIES.RequestDecryptor(privateKey: application.masterAgreementKey, parameters: parameters).decrypt(received)
            #expect(plaintext == Array("{}".utf8))
        }
    }

    /// The same for the server's response (§9.3): the client must read the timestamp the MAC covers.
    @Test func responseTimestampAboveInt64MaximumRoundTrips() throws {
        let (application, parameters) = try application()
        var random = SeededRandomSource(seed: 43)
        let (request, decryptor) = try PowerAuth.ECIES.Encryptor(publicKey: application.masterAgreementKey.publicKey, parameters: parameters)
            .encryptRequest(Array("{}".utf8), timestamp: 1_700_000_000_000, using: &random)
        let (_, encryptor) = try PowerAuth.ECIES.RequestDecryptor(privateKey: application.masterAgreementKey, parameters: parameters)
            .decrypt(PowerAuth.ECIES.Request(jsonBytes: request.json.bytes))
        let response = try encryptor.encrypt(Array("{\"ok\":1}".utf8), nonce: [UInt8](repeating: 5, count: 16), timestamp: UInt64.max)
        let received = try PowerAuth.ECIES.Response(jsonBytes: response.json.bytes)
        #expect(received.timestamp == UInt64.max)
        #expect(try decryptor.decrypt(received) == Array("{\"ok\":1}".utf8))
    }
}
