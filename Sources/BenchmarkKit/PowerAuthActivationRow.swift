// The `powerauth/activation/client` row: the client's work in one activation — a device key,
// two ECIES requests, then two ECIES responses, the master secret, the keys and the
// fingerprint. The server's answer (PowerAuthServer) is prepared once, outside the timing.

import CryptoPrimitives
import PowerAuth
import PowerAuthServer
import ProtocolSupport

extension BenchmarkCatalog {
    static func powerAuthActivationRows() throws -> [BenchmarkCase] {
        var seeded = SeededRandomSource(seed: 9)
        let application = try PowerAuthServer.Application(using: &seeded)
        let configuration = try application.clientConfiguration(baseURL: "https://pa.example.com")
        let temporary = try P256.KeyAgreement.PrivateKey(using: &seeded)
        let code = try PowerAuth.ActivationCode(parsing: "VVVVV-VVVVV-VVVVV-VTFVA")
        let target = PowerAuth.EncryptionKey(publicKey: temporary.publicKey, temporaryKeyID: "tmp")
        let prepared = try PowerAuth.PendingActivation(method: .code(code), configuration: configuration, encryptionKey: target,
                                                       timestamp: 1_700_000_000_000, using: &seeded)
        let answer = try PowerAuthServer.Activation.process(prepared.request, application: application, version: .v3_3, encryptionKey: temporary,
                                                            temporaryKeyID: "tmp", activationID: "4a5e0fbe-6f9e-4a53-9ad1-1c1d2e3f4a5b",
                                                            timestamp: 1_700_000_000_100, using: &seeded)
        let response = answer.response
        return [
            BenchmarkCase("powerauth/activation/client", repeating: {
                var random = SystemRandomSource()
                let request = try PowerAuth.PendingActivation(method: .code(code), configuration: configuration, encryptionKey: target,
                                                              timestamp: 1_700_000_000_000, using: &random)
                return (request.request.body?.count, try prepared.process(response).fingerprint)
            }),
        ]
    }
}
