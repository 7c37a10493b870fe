// The PowerAuth records in the store's one record form (SecureStore's sealed records: JSON, then
// the secrets apart): an activation and tokens stored by earlier releases, the activation as
// format-1 JSON and the tokens in their binary version 1, still sign and authenticate against
// the back end, and are replaced in the sealed form at their next write; records that do not
// hold what their form needs are store errors, never a reset. The earlier forms are written
// by what wrote them before: the activation's portable format-1 serialization, which the store
// kept, and the token list from its documented layout (TokenRecords.swift), by the test.

import AuthNetworking
import ClientTestSupport
import CryptoPrimitives
import Foundation
import PowerAuth
@_spi(Internals) import PowerAuthSDK
import ProtocolSupport
import SecureStore
import Testing
import TestSupport

@Suite struct StoreRecordFormatTests {
    /// The binary token record of earlier releases: 0x01 ‖ count:u16 ‖ (nameLength:u16 ‖ name ‖
    /// idLength:u16 ‖ id ‖ secret:16)…, big-endian.
    static func tokensVersion1(_ tokens: [(name: String, token: PowerAuth.Token)]) -> [UInt8] {
        func length(_ count: Int) -> [UInt8] { [UInt8(count >> 8), UInt8(count & 0xFF)] }
        var bytes: [UInt8] = [1] + length(tokens.count)
        for (name, token) in tokens {
            bytes += length(name.utf8.count) + Array(name.utf8) + length(token.id.utf8.count) + Array(token.id.utf8)
            bytes += token.secret.withUnsafeBytes { Array($0) }
        }
        return bytes
    }

    /// A record in the sealed form (SealedRecord.swift): JSON length:u32 ‖ JSON ‖ (nameLength:u8
    /// ‖ name ‖ valueLength:u32 ‖ value)….
    static func sealed(json: String, secrets: [(String, [UInt8])]) -> SecretBytes {
        func length(_ count: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(count).bigEndian) { Array($0) } }
        var bytes = length(json.utf8.count) + Array(json.utf8)
        for (name, value) in secrets { bytes += [UInt8(name.utf8.count)] + Array(name.utf8) + length(value.count) + value }
        return SecretBytes(bytes)
    }

    /// The JSON part of a sealed record, as text; nil when the record is not in the sealed form.
    static func jsonOfSealed(_ record: SecretBytes) -> String? {
        let bytes = record.unsafeExposedBytes
        guard bytes.count >= 4, bytes[0] == 0 else { return nil }
        let count = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
        guard bytes.count >= 4 + count else { return nil }
        return String(decoding: bytes[4..<(4 + count)], as: UTF8.self)
    }

    @Test func recordsOfTheEarlierFormsStillWorkAndAreRewritten() async throws {
        let fixture = try PowerAuthClientFixture()
        try await fixture.activate()
        let token = try await fixture.client.requestAccessToken(named: "pay", authentication: fixture.authentication)
        let activation = try #require(try ActivationStore(store: fixture.store, instanceID: "app").activation())
        try fixture.store.write(SecretBytes(activation.serialized), to: "powerauth.app.activation")
        try fixture.store.write(SecretBytes(Self.tokensVersion1([("pay", token)])), to: "powerauth.app.tokens")

        // The token of the binary record is read and the back end accepts its header.
        let header = try await fixture.client.tokenHeader(named: "pay")
        _ = try await fixture.server.send(HTTPRequest(method: .get, path: "api/hello", headers: [header]))
        #expect(fixture.server.calls.last?.valid == true)
        // The format-1 activation signs with the counter and keys it held.
        #expect(try await fixture.signatureVerifies(Array(#"{"after":"migration"}"#.utf8)))

        // That signature rewrote the activation: sealed, its JSON without a secret member.
        let activationRecord = try #require(try fixture.store.read("powerauth.app.activation"))
        let activationJSON = try #require(Self.jsonOfSealed(activationRecord))
        #expect(activationJSON.contains(#""format":2"#))
        for member in ["ctrData", "possessionKey", "knowledgeKey", "transportKey", "devicePrivateKey"] {
            #expect(!activationJSON.contains(member), "\(member) is still in the JSON")
        }
        let counter = try #require(try ActivationStore(store: fixture.store, instanceID: "app").activation()).counter
        #expect(counter == activation.counter.next, "the migrated record was not the one that signed")
        #expect(!activationJSON.contains(Base64.encode(counter.rawRepresentation.unsafeExposedBytes)))
        // The next token change rewrites the token list, keeping the old token.
        _ = try await fixture.client.requestAccessToken(named: "view", authentication: fixture.authentication)
        let tokensRecord = try #require(try fixture.store.read("powerauth.app.tokens"))
        let tokensJSON = try #require(Self.jsonOfSealed(tokensRecord))
        #expect(tokensJSON.contains(#""name":"pay""#) && tokensJSON.contains(#""name":"view""#))
        #expect(try await fixture.client.localToken(named: "pay")?.id == token.id)
        _ = try await fixture.server.send(HTTPRequest(method: .get, path: "api/hello", headers: [try await fixture.client.tokenHeader(named: "pay")]))
        #expect(fixture.server.calls.last?.valid == true)
    }

    /// Every field of a format-1 activation survives the migration, the optional ones too:
    /// biometry key, recovery data and the external-encryption-key layer; a format-1 record
    /// without a secret, or with one that is not Base64, is a store error.
    @Test func aFormat1ActivationWithEveryOptionalFieldMigratesWhole() throws {
        let server = try PowerAuthTestServer(version: .v3_3, seed: 410)
        var random = SeededRandomSource(seed: 411)
        let pending = try server.pendingCodeActivation(random: &random)
        let result = try pending.process(try server.activate(pending.request, recovery: ("VVVVV-VVVVV-VVVVV-VTFVA", "9876543210")).response)
        let original = try result.persist(password: SecretBytes("4321".utf8), possessionUnlockKey: SymmetricKey(data: Array(repeating: 0x44, count: 16)),
                                          biometryUnlockKey: SymmetricKey(data: Array(repeating: 0x55, count: 16)),
                                          externalEncryptionKey: SymmetricKey(data: Array(0x10..<0x20)), using: &random)
        #expect(original.lockedBiometryKey != nil && original.sealedRecoveryData != nil && original.usesExternalEncryptionKey)
        let store = try makeTemporaryStore("pa-format")
        let activations = try ActivationStore(store: store, instanceID: "app")
        try store.write(SecretBytes(original.serialized), to: "powerauth.app.activation")
        let migrated = try #require(try activations.activation())
        // Format 1 is the portable form: equal serializations, equal activations.
        #expect(migrated.serialized == original.serialized)
        try activations.save(migrated)
        #expect(Self.jsonOfSealed(try #require(try store.read("powerauth.app.activation"))) != nil)
        #expect(try #require(try activations.activation()).serialized == original.serialized)

        let text = String(decoding: original.serialized, as: UTF8.self)
        let transportKey = Base64.encode(original.lockedTransportKey)
        for (name, broken) in [("no transport key", text.replacingOccurrences(of: #","transportKey":"\#(transportKey)""#, with: "")),
                               ("a counter that is not Base64", text.replacingOccurrences(of: #""ctrData":""#, with: #""ctrData":"!!"#))] {
            #expect(broken != text, "\(name): the test did not change the record")
            try store.write(SecretBytes(Array(broken.utf8)), to: "powerauth.app.activation")
            #expect(throws: PowerAuthSDKError.self, "\(name)") { try activations.activation() }
        }
    }

    /// An activation record of an unknown format, one without a secret it needs, or a format-1
    /// text that arrives with a secret section is a store error.
    @Test func activationRecordsThatDoNotHoldTheirFormAreStoreErrors() async throws {
        let fixture = try PowerAuthClientFixture()
        try await fixture.activate()
        let stored = try #require(try ActivationStore(store: fixture.store, instanceID: "app").activation())
        let json = #"{"format":2,"activationId":"act-1","protocolVersion":"3.2","serverPublicKey":"AA==","devicePublicKey":"AA==","#
            + #""ctrByte":0,"salt":"AAAAAAAAAAAAAAAAAAAAAA==","iterations":10000}"#
        let key = [UInt8](repeating: 1, count: 16)
        let all: [(String, [UInt8])] = [("ctrData", key), ("possessionKey", key), ("knowledgeKey", key), ("transportKey", key),
                                        ("devicePrivateKey", key + key + key)]
        let cases: [(String, SecretBytes)] = [
            ("format 3", Self.sealed(json: json.replacingOccurrences(of: #""format":2"#, with: #""format":3"#), secrets: all)),
            ("no counter", Self.sealed(json: json, secrets: Array(all.dropFirst()))),
            ("a short key", Self.sealed(json: json, secrets: all.map { $0.0 == "transportKey" ? ($0.0, [1, 2]) : $0 })),
            ("format 1 with a secret section", Self.sealed(json: String(decoding: stored.serialized, as: UTF8.self), secrets: all)),
            ("no secrets at all", SecretBytes(Array(json.utf8))),
            ("an unknown secret", Self.sealed(json: json, secrets: all + [("pin", key)])),
            ("a secret in the JSON as well", Self.sealed(json: json.replacingOccurrences(of: "}", with: #","ctrData":"AAAAAAAAAAAAAAAAAAAAAA=="}"#),
                                                        secrets: all)),
        ]
        // The well-formed record reads: the cases differ from it in one thing each.
        try fixture.store.write(Self.sealed(json: json, secrets: all), to: "powerauth.app.activation")
        #expect(try ActivationStore(store: fixture.store, instanceID: "app").activation()?.activationID == "act-1")
        for (name, record) in cases {
            try fixture.store.write(record, to: "powerauth.app.activation")
            _ = await expectError(PowerAuthSDKError.self, code: .store, "\(name)") {
                try await fixture.client.requestSignature(method: "POST", uriID: "/pay", body: [], factors: .possession,
                                                          authentication: fixture.authentication)
            }
        }
    }

    /// Cut short at every length and with a byte flipped at every position, the sealed records
    /// of a real activation and token list read or fail with a store error: no trap, no other
    /// error. (A flip inside a Base64 member or a key can still read; the signature fails later.)
    @Test func damagedRecordsReadOrFailAsStoreErrors() async throws {
        let fixture = try PowerAuthClientFixture()
        try await fixture.activate()
        _ = try await fixture.client.requestAccessToken(named: "pay", authentication: fixture.authentication)
        let activations = try ActivationStore(store: fixture.store, instanceID: "app")
        let tokens = try TokenRecords(store: fixture.store, instanceID: "app")
        for (name, read) in [("activation", { () throws(PowerAuthSDKError) in _ = try activations.activation() }),
                             ("tokens", { () throws(PowerAuthSDKError) in _ = try tokens.all() })] {
            let good = try #require(try fixture.store.read("powerauth.app." + name)).unsafeExposedBytes
            var damaged = (0..<good.count).map { Array(good.prefix($0)) }
            for position in good.indices {
                var flipped = good
                flipped[position] ^= 0xFF
                damaged.append(flipped)
            }
            var readCuts: [Int] = []
            for (index, bytes) in damaged.enumerated() {
                try fixture.store.write(SecretBytes(bytes), to: "powerauth.app." + name)
                do {
                    try read()
                    if index < good.count { readCuts.append(index) }
                } catch {
                    #expect(error.code == .store, "\(name): \(error)")
                }
            }
            // Every cut is refused: a record read from a prefix would be a silent loss.
            #expect(readCuts.isEmpty, "\(name): cut at \(readCuts) and read")
        }
    }

    /// A token list whose secrets do not match its entries, or a binary record cut short, is a
    /// store error.
    @Test func tokenRecordsThatDoNotHoldTheirFormAreStoreErrors() async throws {
        let fixture = try PowerAuthClientFixture()
        let key = [UInt8](repeating: 7, count: 16)
        let json = #"{"format":2,"entries":[{"name":"pay","id":"token-1"}]}"#
        let cases: [(String, SecretBytes)] = [
            ("no secret", Self.sealed(json: json, secrets: [])),
            ("a short secret", Self.sealed(json: json, secrets: [("token.0", [1, 2, 3])])),
            ("an extra secret", Self.sealed(json: json, secrets: [("token.0", key), ("token.1", key)])),
            ("format 3", Self.sealed(json: json.replacingOccurrences(of: "2", with: "3"), secrets: [("token.0", key)])),
            ("version 1 cut short", SecretBytes(Self.tokensVersion1([("pay", PowerAuth.Token(id: "token-1", secret: SymmetricKey(data: key)))]).dropLast())),
        ]
        try fixture.store.write(Self.sealed(json: json, secrets: [("token.0", key)]), to: "powerauth.app.tokens")
        #expect(try await fixture.client.localToken(named: "pay")?.id == "token-1")
        for (name, record) in cases {
            try fixture.store.write(record, to: "powerauth.app.tokens")
            _ = await expectError(PowerAuthSDKError.self, code: .store, "\(name)") { _ = try await fixture.client.localToken(named: "pay") }
        }
    }
}
