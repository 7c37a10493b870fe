// The `powerauth/activation/client` row: the client's work in one activation — a device key,
// two ECIES requests, then two ECIES responses, the master secret, the keys and the
// fingerprint. The server's answer is prepared once, outside the timing.

import CryptoPrimitives
import FoundationEssentials
import PowerAuth
import ProtocolSupport

extension BenchmarkCatalog {
    static var powerAuthActivationRows: [BenchmarkCase] {
        var seeded = SeededRandomSource(seed: 9)
        guard let master = try? P256.KeyAgreement.PrivateKey(using: &seeded),
              let signingMaster = try? P256.Signing.PublicKey(x963Representation: master.publicKey.x963Representation),
              let configuration = try? PowerAuth.Configuration(applicationKey: "lceX5qe+O+Sb0t8TQqg35A==", applicationSecret: "m3JdVJMIu65fXXFi4VqjjA==",
                                                               masterServerPublicKey: signingMaster, baseURL: "https://pa.example.com"),
              let code = try? PowerAuth.ActivationCode(parsing: "VVVVV-VVVVV-VVVVV-VTFVA") else { return [] }
        let target = PowerAuth.EncryptionKey(publicKey: master.publicKey, temporaryKeyID: "tmp")
        guard let prepared = try? PowerAuth.PendingActivation(method: .code(code), configuration: configuration, encryptionKey: target,
                                                              timestamp: 1_700_000_000_000, using: &seeded),
              let response = answer(prepared.request, master: master, configuration: configuration, random: &seeded) else { return [] }
        return [
            BenchmarkCase("powerauth/activation/client", repeating: {
                var random = SystemRandomSource()
                let request = try? PowerAuth.PendingActivation(method: .code(code), configuration: configuration, encryptionKey: target,
                                                               timestamp: 1_700_000_000_000, using: &random)
                return (request?.request.body?.count, try? prepared.process(response).fingerprint)
            }),
        ]
    }

    /// The server's answer to an activation request (both layers), for preparing the row.
    private static func answer(_ request: HTTPRequest, master: P256.KeyAgreement.PrivateKey, configuration: PowerAuth.Configuration,
                               random: inout SeededRandomSource) -> HTTPResponse? {
        func parameters(_ sh1: PowerAuth.ECIES.SharedInfo1) -> PowerAuth.ECIES.Parameters {
            .applicationScope(sh1, version: .v3_3, applicationKey: configuration.applicationKey, applicationSecret: configuration.applicationSecret,
                              temporaryKeyID: "tmp")
        }
        struct Layer1: Decodable { let activationData: Inner; struct Inner: Codable {
            let temporaryKeyId: String?; let ephemeralPublicKey: String; let encryptedData: String; let mac: String; let nonce: String?; let timestamp: UInt64? } }
        guard let outer = try? PowerAuth.ECIES.Request(jsonBytes: request.body ?? []),
              let (layer1, outerEncryptor) = try? PowerAuth.ECIES.RequestDecryptor(privateKey: master, parameters: parameters(.applicationScopeGeneric)).decrypt(outer),
              let inner = try? JSONDecoder().decode(Layer1.self, from: Data(layer1)).activationData,
              let innerJSON = try? JSONEncoder().encode(inner),
              let (_, innerEncryptor) = try? PowerAuth.ECIES.RequestDecryptor(privateKey: master, parameters: parameters(.activationLayer2))
                  .decrypt(try PowerAuth.ECIES.Request(jsonBytes: Array(innerJSON))),
              let server = try? P256.KeyAgreement.PrivateKey(using: &random), let ctr = try? random.bytes(count: 16) else { return nil }
        let layer2 = JSONText.object([("activationId", .string("4a5e0fbe-6f9e-4a53-9ad1-1c1d2e3f4a5b")),
                                      ("serverPublicKey", .string(Base64.encode(server.publicKey.x963Representation))), ("ctrData", .string(Base64.encode(ctr)))])
        guard let innerResponse = try? innerEncryptor.encrypt(layer2.bytes, timestamp: 1_700_000_000_100, using: &random),
              let outerResponse = try? outerEncryptor.encrypt(JSONText.object([("activationData", innerResponse.json)]).bytes,
                                                              timestamp: 1_700_000_000_100, using: &random) else { return nil }
        return HTTPResponse(status: 200, body: outerResponse.json.bytes)
    }
}
