// A Salt Edge client on a real temporary store, sending through an in-process transport to the
// provider stand-in, with a fixed clock (2021-03-11T10:01:40Z, inside the vector
// authorization's lifetime) and a seeded random source.

import AuthNetworking
import CryptoPrimitives
import Foundation
import ProtocolSupport
import SaltEdge
import SaltEdgeSDK
import SecureStore
import ClientTestSupport
import TestSupport

struct SaltEdgeClientFixture: Sendable {
    /// The client's clock: 2021-03-11T10:01:40Z.
    static let now = Date(timeIntervalSince1970: 1_615_456_900)

    let provider: SaltEdgeProviderStandIn
    let transport: InProcessTransport
    let client: SaltEdgeAuthenticatorClient
    let store: SecureStore

    static func make(seed: UInt64 = 1, deviceKeys: any DeviceKeyStore = SoftwareDeviceKeyStore()) throws -> SaltEdgeClientFixture {
        let provider = try SaltEdgeProviderStandIn()
        let transport = InProcessTransport { request in try await provider.answer(request) }
        let store = try makeTemporaryStore("saltedge-sdk")
        let configuration = SaltEdgeAuthenticatorClient.Configuration(clock: { now }, random: SeededRandomSource(seed: seed), deviceKeys: deviceKeys)
        let client = SaltEdgeAuthenticatorClient(configuration: configuration, store: store, transport: .single(transport))
        return SaltEdgeClientFixture(provider: provider, transport: transport, client: client, store: store)
    }

    /// The vector redirect of derived_vectors.json (`id=333`, the token encrypted to the iOS key).
    static func vectorRedirect() throws -> (url: String, accessToken: String) {
        let vector = try SaltEdgeVectors.derived("redirect_access_token")
        guard let url = vector["redirect_url_example"] as? String, let token = vector["access_token"] as? String else {
            throw StandInError.malformed("redirect_access_token")
        }
        return (url, token)
    }

    /// A pending connection `333` holding the vector connection key, as `beginConnection` would
    /// have stored it had it drawn that key.
    func storePendingConnection() async throws {
        let key = try SaltEdgeVectors.connectionKey()
        await provider.setConnectionPublicKey(key.publicKey)
        let configuration = try SaltEdge.ProviderConfiguration(responseBody: await provider.configuration().body)
        try ConnectionRecords(store: store).savePending(PendingConnection(id: SaltEdgeProviderStandIn.connectionID,
                                                                          authenticationURL: "https://provider.example.com/auth/333",
                                                                          configuration: configuration, key: key, keyLabel: nil))
    }

    /// A completed connection `333`: the vector connection key and the provider's access token.
    @discardableResult
    func storeConnection() async throws -> SaltEdge.ConnectionKey {
        let key = try SaltEdgeVectors.connectionKey()
        await provider.setConnectionPublicKey(key.publicKey)
        let connection = SaltEdge.Connection(id: SaltEdgeProviderStandIn.connectionID, providerID: "12",
                                             scaServiceURL: SaltEdgeProviderStandIn.scaServiceURL, key: key,
                                             accessToken: SaltEdge.AccessToken(rawRepresentation: SecretBytes(await provider.accessToken.utf8)),
                                             providerPublicKey: await provider.providerPublicKey)
        try ConnectionRecords(store: store).save(StoredConnection(connection: connection, name: "Demo Bank", providerName: "Demo Bank", isActive: true))
        return key
    }

    /// A stored connection and one pending authorization `444` with `code`, listed by the client.
    func listedAuthorization(code: String = "c0de/+=") async throws -> SaltEdge.Authorization {
        try await storeConnection()
        let item = try await provider.item(id: 444, status: "pending", plaintext: SaltEdgeProviderStandIn.authorization(title: "Pay 10 EUR", code: code))
        await provider.setLists([JSONText.object([("data", .array([item]))]).bytes])
        let list = try await client.authorizations(connectionID: SaltEdgeProviderStandIn.connectionID)
        guard let authorization = list.first, list.count == 1 else { throw StandInError.malformed("expected one authorization, got \(list.count)") }
        return authorization
    }
}
