// Environment secrets in a token (CMAuthenticatorClient.Configuration.deviceKeys,
// docs/protocols/cm-authenticator.md §3, §5): a token that cannot be reached stops linking before any request
// and is a `deviceKey` error; a record of a token-held secret keeps only its label; such an
// environment is unusable where its token is not (the software store, an absent module), with
// nothing sent; removing it touches nothing until the token can delete the key. The token is a
// real `PKCS11DeviceKeyStore` whose module cannot be loaded; SoftHSM2 imports and uses the secret
// in the Servers hardware-key matrix (tpm2-pkcs11 refuses the import; the secret stays sealed).

import AuthNetworking
import CMAuthenticator
import CMAuthenticatorSDK
import CryptoPrimitives
import Foundation
import PKCS11
import ProtocolSupport
import SecureStore
import Testing
import ClientTestSupport
import TestSupport

@Suite struct EnvironmentKeyTests {
    static let id = "7f0c2a52-3d1e-4c4b-9a51-2f1e8d0b6c11"
    static let secret = "environment-secret-0123456789abcdef"
    static let label = "cm-00112233445566778899aabbccddeeff"

    static func unreachableToken() throws -> PKCS11DeviceKeyStore {
        let uri = try PKCS11URI("pkcs11:token=absent?module-path=/nonexistent/libabsent-pkcs11.so")
        return PKCS11DeviceKeyStore(provider: try PKCS11KeyProvider(uri: uri, pin: SecretBytes(Array("1234".utf8)),
                                                                    storeIdentifier: try PKCS11StoreIdentifier.random()))
    }

    /// A registered device's client over `store`, its keys in `deviceKeys`, sending to `transport`.
    static func client(_ store: SecureStore, _ transport: InProcessTransport, _ deviceKeys: any DeviceKeyStore) throws -> CMAuthenticatorClient {
        try DeviceRecords(store: store).updateDevice { $0.deviceID = "device-1" }
        return try CMAuthenticatorClient(configuration: .init(baseURL: "https://cm.example/authenticator/v1.0", device: ClientLocalChecksTests.device,
                                                              pinning: .disabledTransportCannotPin, deviceKeys: deviceKeys),
                                         store: store, transport: HTTPTransportFactory { _, _ in transport })
    }

    /// An environment whose record names its secret by label.
    static func storeHeldEnvironment(_ store: SecureStore) throws {
        let environment = CMAuthenticator.Environment(id: id, secret: .init(rawRepresentation: SecretBytes(Array(secret.utf8))))
        try DeviceRecords(store: store).save(StoredEnvironment(environment: environment, name: "Bank", iconURL: nil, keyLabel: label))
    }

    @Test func anUnreachableTokenStopsLinkingBeforeAnyRequest() async throws {
        let temporary = try TemporaryDirectory("cm-keys")
        defer { temporary.remove() }
        let store = try SecureStore(directory: temporary.appending("store"))
        let transport = InProcessTransport()
        let client = try Self.client(store, transport, try Self.unreachableToken())
        let error = await expectError(CMClientError.self, code: .deviceKey) { try await client.addEnvironment(qrCode: Self.id + "," + Self.secret) }
        #expect(error?.deviceKeyError?.code == .unavailable)
        #expect(await transport.sent.isEmpty)
        #expect(try !store.names().contains("cm.environment." + Self.id))
    }

    @Test func aHeldSecretsRecordKeepsOnlyItsLabel() throws {
        let temporary = try TemporaryDirectory("cm-keys")
        defer { temporary.remove() }
        let store = try SecureStore(directory: temporary.appending("store"))
        try Self.storeHeldEnvironment(store)
        let plaintext = try #require(try store.read("cm.environment." + Self.id)).unsafeExposedBytes
        #expect(!RecordBytes.contains(plaintext, Array(Self.secret.utf8)))
        #expect(RecordBytes.contains(plaintext, Array(Self.label.utf8)))
    }

    @Test(arguments: [true, false]) func aHeldSecretIsRefusedWhereItsTokenIsNot(_ software: Bool) async throws {
        let temporary = try TemporaryDirectory("cm-keys")
        defer { temporary.remove() }
        let store = try SecureStore(directory: temporary.appending("store"))
        try Self.storeHeldEnvironment(store)
        let transport = InProcessTransport()
        let client = try Self.client(store, transport, software ? SoftwareDeviceKeyStore() : try Self.unreachableToken())
        // Listing needs no key; a request, whose bearer JWT the key makes, fails before it is sent.
        #expect(try await client.environments().map(\.id) == [Self.id])
        let error = await expectError(CMClientError.self, code: .deviceKey) { try await client.pendingRequests() }
        #expect(error?.deviceKeyError?.code == (software ? .unsupported : .unavailable))
        #expect(await transport.sent.isEmpty)
        // Removal waits for the token too: the key is never left behind unnamed.
        let refused = await expectError(CMClientError.self, code: .deviceKey) { try await client.removeEnvironmentLocally(id: Self.id) }
        #expect(refused?.deviceKeyError?.code == (software ? .unsupported : .unavailable))
        #expect(try store.names().contains("cm.environment." + Self.id))
    }
}

/// A key-holding store's flows: the secret is imported before the registration (which it signs,
/// checked here with the secret itself), re-linking the environment replaces its key and
/// deletes the old one, and removing the environment deletes its key.
@Suite struct EnvironmentHeldKeyFlowTests {
    /// A linking killed after the import and before the environment's record was written leaves
    /// its intent (made, then dropped, as a dead process leaves it); the next linking deletes
    /// that key first and leaves no intent of its own.
    @Test func theNextLinkingDeletesTheKeyOfAKilledOne() async throws {
        let keys = MemoryDeviceKeyStore()
        let temporary = try TemporaryDirectory("cm-killed")
        defer { temporary.remove() }
        let store = try SecureStore(directory: temporary.appending("store"))
        let orphan = "cm-" + String(repeating: "cd", count: 16)
        do {
            let intent = try store.beginDeviceKeyIntent(label: orphan)
            _ = try keys.makeHMACKey(label: orphan, secret: SecretBytes(Array("secret".utf8)))
            _ = intent  // never finished
        }
        let transport = InProcessTransport { request in
            request.method == .put ? HTTPResponse(status: 204, body: [])
                                   : HTTPResponse(status: 200, body: Array(#"[{"id":"\#(EnvironmentKeyTests.id)","name":"Bank"}]"#.utf8))
        }
        let client = try EnvironmentKeyTests.client(store, transport, keys)
        let stored = try await client.addEnvironment(qrCode: EnvironmentKeyTests.id + "," + EnvironmentKeyTests.secret)
        #expect(keys.hmacLabels == [try #require(stored.keyLabel)])
        #expect(try !store.names().contains { $0.hasPrefix("devicekey.intent.") })
    }

    /// A deterministic source (a value: every copy starts over): byte i of the stream is i.
    struct CountingRandomSource: RandomSource, Sendable {
        var next: UInt8 = 0
        mutating func fill(_ buffer: UnsafeMutableRawBufferPointer) throws(CryptoError) {
            for index in buffer.indices {
                buffer[index] = next
                next &+= 1
            }
        }
    }

    /// The client draws from one source for its life: a second linking gets the next bytes,
    /// not the first ones again (a wrapper made per call restarted a value-type source, so
    /// both labels were `cm-000102…0f` and the second import collided with the first key).
    @Test func successiveLinkingsDrawFreshLabelsFromTheConfiguredSource() async throws {
        let keys = MemoryDeviceKeyStore()
        let temporary = try TemporaryDirectory("cm-random")
        defer { temporary.remove() }
        let store = try SecureStore(directory: temporary.appending("store"))
        let transport = InProcessTransport { request in
            request.method == .put ? HTTPResponse(status: 204, body: [])
                                   : HTTPResponse(status: 200, body: Array(#"[{"id":"\#(EnvironmentKeyTests.id)","name":"Bank"}]"#.utf8))
        }
        try DeviceRecords(store: store).updateDevice { $0.deviceID = "device-1" }
        let client = try CMAuthenticatorClient(configuration: .init(baseURL: "https://cm.example/authenticator/v1.0", device: ClientLocalChecksTests.device,
                                                                    pinning: .disabledTransportCannotPin, random: CountingRandomSource(), deviceKeys: keys),
                                               store: store, transport: HTTPTransportFactory { _, _ in transport })
        let first = try await client.addEnvironment(qrCode: EnvironmentKeyTests.id + "," + EnvironmentKeyTests.secret)
        let second = try await client.addEnvironment(qrCode: EnvironmentKeyTests.id + "," + EnvironmentKeyTests.secret)
        #expect(first.keyLabel == "cm-" + Hex.encode([UInt8](0..<16)))
        #expect(second.keyLabel == "cm-" + Hex.encode([UInt8](16..<32)))
        #expect(keys.hmacLabels == [try #require(second.keyLabel)])
    }

    @Test func aLinkedSecretIsHeldReplacedAndDeleted() async throws {
        let keys = MemoryDeviceKeyStore()
        let temporary = try TemporaryDirectory("cm-held")
        defer { temporary.remove() }
        let store = try SecureStore(directory: temporary.appending("store"))
        let transport = InProcessTransport { request in
            request.method == .put ? HTTPResponse(status: 204, body: [])
                                   : HTTPResponse(status: 200, body: Array(#"[{"id":"\#(EnvironmentKeyTests.id)","name":"Bank"}]"#.utf8))
        }
        let client = try EnvironmentKeyTests.client(store, transport, keys)
        let first = try await client.addEnvironment(qrCode: EnvironmentKeyTests.id + "," + EnvironmentKeyTests.secret)
        let label = try #require(first.keyLabel)
        #expect(keys.hmacLabels == [label] && first.name == "Bank")
        // The registration's bearer JWT is an HS256 over the QR secret, made where the key is held.
        let bearer = String(decoding: try #require(await transport.sent.first?.secretHeader("Authorization")).unsafeExposedBytes, as: UTF8.self)
        let parts = bearer.dropFirst("Bearer ".count).split(separator: ".")
        let mac = HMAC<SHA256>.authenticationCode(for: Array("\(parts[0]).\(parts[1])".utf8), using: SymmetricKey(data: Array(EnvironmentKeyTests.secret.utf8)))
        #expect(parts.count == 3 && String(parts[2]) == Base64.encode(mac.bytes, alphabet: .urlSafe, padded: false))
        let second = try await client.addEnvironment(qrCode: EnvironmentKeyTests.id + "," + EnvironmentKeyTests.secret)
        #expect(keys.hmacLabels == [try #require(second.keyLabel)] && second.keyLabel != label)
        try await client.removeEnvironmentLocally(id: EnvironmentKeyTests.id)
        #expect(keys.hmacLabels.isEmpty)
        #expect(try !store.names().contains("cm.environment." + EnvironmentKeyTests.id))
    }
}

