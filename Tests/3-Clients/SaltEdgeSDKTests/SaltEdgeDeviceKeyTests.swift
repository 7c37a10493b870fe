// Connection keys in a token (SaltEdgeAuthenticatorClient.Configuration.deviceKeys): a token that
// cannot be reached stops enrolment before any request and is a `deviceKey` error, never a bad
// answer; a connection whose key lives in a token is unusable anywhere that token is not (a store
// moved away from it, the software store), with nothing sent; removing it touches nothing until
// the token can delete the key. The token here is a real `PKCS11DeviceKeyStore` whose module
// cannot be loaded; a reachable SoftHSM2 and swtpm token run the whole flow in the Servers
// hardware-key matrix.

import AuthNetworking
import CryptoPrimitives
import Foundation
import PKCS11
import ProtocolSupport
import SaltEdge
import SaltEdgeSDK
import SecureStore
import Testing
import ClientTestSupport
import TestSupport

@Suite(.enabled(if: SaltEdgeVectors.isAvailable, "needs ../shared/vectors/saltedge"))
struct SaltEdgeDeviceKeyTests {
    /// A device key store on a token whose module is not there.
    static func unreachableToken() throws -> PKCS11DeviceKeyStore {
        let uri = try PKCS11URI("pkcs11:token=absent?module-path=/nonexistent/libabsent-pkcs11.so")
        return PKCS11DeviceKeyStore(provider: try PKCS11KeyProvider(uri: uri, pin: SecretBytes(Array("1234".utf8)),
                                                                    storeIdentifier: try PKCS11StoreIdentifier.random()))
    }

    /// A stored connection `333` whose key the record names by label (the vector key, so the
    /// provider's list decrypts only where that label is found).
    static func storeTokenConnection(_ f: SaltEdgeClientFixture) async throws {
        let key = try SaltEdgeVectors.connectionKey()
        await f.provider.setConnectionPublicKey(key.publicKey)
        let connection = SaltEdge.Connection(id: SaltEdgeProviderStandIn.connectionID, providerID: "12",
                                             scaServiceURL: SaltEdgeProviderStandIn.scaServiceURL, key: key,
                                             accessToken: SaltEdge.AccessToken(rawRepresentation: SecretBytes(await f.provider.accessToken.utf8)),
                                             providerPublicKey: await f.provider.providerPublicKey)
        try ConnectionRecords(store: f.store).save(StoredConnection(connection: connection, name: "Demo Bank", providerName: "Demo Bank",
                                                                    isActive: true, keyLabel: "saltedge-00112233445566778899aabbccddeeff"))
    }

    @Test func anUnreachableTokenStopsEnrolmentBeforeAnyRequest() async throws {
        let f = try SaltEdgeClientFixture.make(deviceKeys: try Self.unreachableToken())
        let error = await expectError(SaltEdgeClientError.self, code: .deviceKey) { try await f.client.beginConnection(deepLink: SaltEdgeProviderStandIn.connectLink) }
        #expect(error?.deviceKeyError?.code == .unavailable)
        #expect(await f.transport.count == 0)
        // Whether the token made the key before it went away cannot be told, and it cannot be
        // deleted now: only the intent is left, for the next enrolment's sweep.
        let names = try f.store.names()
        #expect(names.count == 1 && names.allSatisfy { $0.hasPrefix("devicekey.intent.saltedge-") }, "\(names)")
    }

    /// The record keeps the label and no key: the key bytes are nowhere in the store.
    @Test func aTokenConnectionsRecordHoldsOnlyTheLabel() async throws {
        let f = try SaltEdgeClientFixture.make()
        try await Self.storeTokenConnection(f)
        let plaintext = try #require(try f.store.read("saltedge.connection.333")).unsafeExposedBytes
        let der = try SaltEdgeVectors.connectionKey().softwareKey?.derRepresentation.unsafeExposedBytes ?? []
        #expect(!der.isEmpty && !RecordBytes.contains(plaintext, der))
        #expect(RecordBytes.contains(plaintext, Array("saltedge-00112233445566778899aabbccddeeff".utf8)))
    }

    @Test(arguments: [true, false]) func aTokenConnectionIsRefusedWhereItsTokenIsNot(_ moved: Bool) async throws {
        // moved: the store read with the software store (its records moved off the token);
        // else: read with a token that is not there.
        let base = try SaltEdgeClientFixture.make()
        try await Self.storeTokenConnection(base)
        let deviceKeys: any DeviceKeyStore = moved ? SoftwareDeviceKeyStore() : try Self.unreachableToken()
        let client = SaltEdgeAuthenticatorClient(configuration: .init(clock: { SaltEdgeClientFixture.now }, deviceKeys: deviceKeys),
                                                 store: base.store, transport: .single(base.transport))
        // Listing needs no key (the record holds the public half); a signed request does, and
        // fails before it is sent.
        #expect(try await client.connections().map(\.id) == ["333"])
        let error = await expectError(SaltEdgeClientError.self, code: .deviceKey) { try await client.revokeConnection(id: "333") }
        #expect(error?.deviceKeyError?.code == (moved ? .unsupported : .unavailable))
        #expect(await base.transport.count == 0)
        #expect(try SaltEdgeAuthenticatorClient.connectionsWithHeldKeys(in: base.store) == ["333"])
    }

    @Test func removingATokenConnectionWaitsForTheToken() async throws {
        let f = try SaltEdgeClientFixture.make(deviceKeys: try Self.unreachableToken())
        try await Self.storeTokenConnection(f)
        await expectError(SaltEdgeClientError.self, code: .deviceKey) { try await f.client.removeConnectionLocally(id: "333") }
        #expect(try f.store.names().contains("saltedge.connection.333"))
    }

    @Test func aSoftwareConnectionIsNotHeld() async throws {
        let f = try SaltEdgeClientFixture.make()
        try await f.storeConnection()
        #expect(try SaltEdgeAuthenticatorClient.connectionsWithHeldKeys(in: f.store).isEmpty)
        #expect(try #require(try await f.client.connection(id: "333")).keyLabel == nil)
    }
}

/// The flows of a key-holding store end to end against the provider stand-in: the label made at
/// enrolment is the one the stored connection names, its key decrypts the vector redirect where
/// it is held, and removing the connection deletes it; a refused enrolment leaves no key behind.
@Suite(.enabled(if: SaltEdgeVectors.isAvailable, "needs ../shared/vectors/saltedge"))
struct SaltEdgeHeldKeyFlowTests {
    static func keys() throws -> MemoryDeviceKeyStore {
        let key = try SaltEdgeVectors.connectionKey()
        let template: RSA.Signing.PrivateKey = try #require(key.softwareKey)
        return MemoryDeviceKeyStore(template: template)
    }

    @Test func theEnrolmentKeyIsHeldNamedAndDeletedWithItsConnection() async throws {
        let keys = try Self.keys()
        let f = try SaltEdgeClientFixture.make(deviceKeys: keys)
        let pending = try await f.client.beginConnection(deepLink: SaltEdgeProviderStandIn.connectLink)
        let label = try #require(pending.keyLabel)
        #expect(label.hasPrefix("saltedge-") && label.count == "saltedge-".count + 32)
        #expect(keys.rsaLabels == [label])
        // The pending record holds the label and the public key, never the private key.
        let der = try #require(try SaltEdgeVectors.connectionKey().softwareKey).derRepresentation.unsafeExposedBytes
        let pendingBytes = try #require(try f.store.read("saltedge.pending.333")).unsafeExposedBytes
        #expect(!RecordBytes.contains(pendingBytes, der) && RecordBytes.contains(pendingBytes, Array(label.utf8)))
        let (redirect, token) = try SaltEdgeClientFixture.vectorRedirect()
        let stored = try await f.client.completeConnection(id: "333", redirectURL: redirect)
        #expect(stored.keyLabel == label)
        #expect(stored.connection.accessToken == SaltEdge.AccessToken(rawRepresentation: SecretBytes(token.utf8)))
        #expect(try f.store.read("saltedge.pending.333") == nil)
        #expect(try SaltEdgeAuthenticatorClient.connectionsWithHeldKeys(in: f.store) == ["333"])
        try await f.client.removeConnectionLocally(id: "333")
        #expect(keys.rsaLabels.isEmpty)
        #expect(try f.store.names().isEmpty)
    }

    /// An enrolment killed after the token made its key and before the pending record was
    /// written leaves its intent (here: made, then dropped, as a dead process leaves it); the
    /// next enrolment deletes that key first.
    @Test func theNextEnrolmentDeletesTheKeyOfAKilledOne() async throws {
        let keys = try Self.keys()
        let f = try SaltEdgeClientFixture.make(deviceKeys: keys)
        let orphan = "saltedge-" + String(repeating: "ab", count: 16)
        do {
            let intent = try f.store.beginDeviceKeyIntent(label: orphan)
            _ = try keys.makeRSAKey(label: orphan)
            _ = intent  // never finished
        }
        #expect(keys.rsaLabels == [orphan])
        let pending = try await f.client.beginConnection(deepLink: SaltEdgeProviderStandIn.connectLink)
        let label = try #require(pending.keyLabel)
        #expect(keys.rsaLabels == [label])
        #expect(try f.store.names() == ["saltedge.pending.333"])  // no intent is left either
        // An abandoned intent for a key a record names (a write that threw after the record
        // was in place): the sweep keeps the key and drops only the intent.
        do { _ = try f.store.beginDeviceKeyIntent(label: label) }
        try ConnectionRecords(store: f.store, deviceKeys: keys).sweepAbandonedKeys()
        #expect(keys.rsaLabels == [label])
        #expect(try f.store.names() == ["saltedge.pending.333"])
    }

    @Test func aRefusedEnrolmentLeavesNoKey() async throws {
        let keys = try Self.keys()
        let provider = try SaltEdgeProviderStandIn()
        let transport = InProcessTransport { request in
            request.method == .post ? HTTPResponse(status: 400, body: Array(#"{"error_class":"InvalidConnectQuery","error_message":"no"}"#.utf8))
                                    : try await provider.answer(request)
        }
        let store = try makeTemporaryStore("saltedge-refused")
        let client = SaltEdgeAuthenticatorClient(configuration: .init(clock: { SaltEdgeClientFixture.now }, random: SeededRandomSource(seed: 5), deviceKeys: keys),
                                                 store: store, transport: .single(transport))
        await expectError(SaltEdgeClientError.self, code: .server) { try await client.beginConnection(deepLink: SaltEdgeProviderStandIn.connectLink) }
        #expect(keys.rsaLabels.isEmpty)
        #expect(try store.names().isEmpty)
    }
}
