// Benchmark rows of the Salt Edge v2 and CM Authenticator clients: the
// steps a device repeats — decrypting an authorization, signing a request, making a connection
// key, and minting a CM bearer token.

import CMAuthenticator
import CryptoPrimitives
import FoundationEssentials
import ProtocolSupport
import SaltEdge

extension BenchmarkCatalog {
    static func protocolRows() throws -> [BenchmarkCase] {
        // The 2048-bit fixture key plays the connection key (and, for encryption, its own server).
        let connectionKey = try SaltEdge.ConnectionKey(privateKeyPEM: BenchmarkFixtures.rsa2048PrivateKeyPEM)
        var seeded = SeededRandomSource(seed: 7)
        let plaintext = #"{"title":"Payment confirmation","description":{"text":"Pay 10.00 EUR to Merchant"},"authorization_code":"vvUb5wXcHBN3cOxkRyNdsv5JIhJMKSPjH-GJg5qvtvY","created_at":"2021-03-11T10:00:00Z","expires_at":"2021-03-11T10:05:00Z"}"#
        let recipient = RSA.Encryption.PublicKey(sameKeyAs: connectionKey.publicKey)
        let bundle = try SaltEdge.EncryptedBundle.encrypt(Array(plaintext.utf8), to: recipient, using: &seeded)
        let item = #"{"data":{"id":444,"connection_id":333,"status":"pending","key":"\#(bundle.key)","iv":"\#(bundle.iv)","data":"\#(bundle.data)"}}"#
        let response = HTTPResponse(status: 200, body: Array(item.utf8))
        let connection = SaltEdge.Connection(id: "333", providerID: "1", scaServiceURL: "https://sca.example.com", key: connectionKey,
                                             accessToken: .init(rawRepresentation: SecretBytes("token".utf8)), providerPublicKey: recipient)
        let requests = SaltEdge.Requests(connection: connection, client: .init(userAgent: "bench"))
        let now = Date(timeIntervalSince1970: 1_615_456_800)

        // The same bundle with its key block replaced by a raw in-range value that is no
        // PKCS #1 v1.5 block: implicit rejection, then the same AES pass, then the same failure.
        var rawBlock = [UInt8](repeating: 0x42, count: 256)
        rawBlock[0] = 0
        let invalidKeyBlock = SaltEdge.EncryptedBundle(key: Base64.encode(rawBlock), iv: bundle.iv, data: bundle.data)
        struct Payload: Decodable { let title: String }

        let environment = try CMAuthenticator.Environment(qrCode: "0f8e4c1a-2b3d-4e5f-8a9b-1c2d3e4f5a6b,s3cr3t-Env1ronment-Dev1ce-Secret")
        let body = Array(#"{"auth_status":"approved"}"#.utf8)
        return [
            // Parse the show-authorization answer, unwrap key and IV, AES-decrypt, parse the model.
            BenchmarkCase("saltedge/decrypt-authorization", repeating: {
                try SaltEdge.EncryptedAuthorization.single(from: response).decrypt(with: connectionKey)
            }),
            // The bundle alone, valid and with a key block that does not conform: the pair whose
            // ratio must stay within noise (no Bleichenbacher/Marvin timing signal).
            BenchmarkCase("saltedge/decrypt-bundle/valid", repeating: { try bundle.decrypt(Payload.self, with: connectionKey) }),
            BenchmarkCase("saltedge/decrypt-bundle/invalid-key-block", rejecting: {
                _ = try invalidKeyBlock.decrypt(Payload.self, with: connectionKey)
            }),
            // Serialise a signed body and its detached RS256 JWS (revoke: the smallest body).
            BenchmarkCase("saltedge/sign-request", repeating: { try requests.revokeConnection(now: now) }),
            BenchmarkCase("saltedge/connection-keygen", repeating: {
                var random = SystemRandomSource()
                return try SaltEdge.ConnectionKey(generatingWith: &random)
            }),
            // An Android-style token with `auth_id` and `sig` over the answer body.
            BenchmarkCase("cm/jwt", repeating: {
                try CMAuthenticator.bearerToken(secret: environment.secret, now: now, authenticationID: "7d1e2f30", body: body)
            }),
        ]
    }
}
