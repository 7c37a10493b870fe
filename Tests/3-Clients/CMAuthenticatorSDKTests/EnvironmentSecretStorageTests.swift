// The environment secret on a real secure store (docs/protocols/cm-authenticator.md §8): it is kept as raw
// bytes in the record's binary section, never as Base64 text inside the JSON (JSONDecoder's
// `String` copies cannot be wiped), and a record written in the old all-JSON form still reads.

import CMAuthenticator
import CMAuthenticatorSDK
import CryptoPrimitives
import Foundation
import SecureStore
import Testing
import TestSupport

@Suite struct EnvironmentSecretStorageTests {
    static let id = "7f0c2a52-3d1e-4c4b-9a51-2f1e8d0b6c11"
    static let secret: [UInt8] = Array("environment-secret-0123456789abcdef".utf8)

    /// Whether the secret shows in the JSON in any of its spellings (raw, Base64, hex).
    static func secretInJSON(_ plaintext: [UInt8]) -> Bool {
        let json = RecordBytes.json(plaintext)
        return [secret, Array(Base64.encode(secret).utf8), Array(Hex.encode(secret).utf8)].contains { RecordBytes.contains(json, $0) }
    }

    @Test func theSecretIsStoredOutsideTheJSON() throws {
        let temporary = try TemporaryDirectory("cm-secret")
        defer { temporary.remove() }
        let path = temporary.appending("store")
        let store = try SecureStore(directory: path)
        let records = DeviceRecords(store: store)
        let environment = CMAuthenticator.Environment(id: Self.id, secret: .init(rawRepresentation: SecretBytes(Self.secret)))
        try records.save(StoredEnvironment(environment: environment, name: "Bank", iconURL: "https://example.com/i.png"))
        let plaintext = try #require(try store.read("cm.environment." + Self.id)).unsafeExposedBytes
        #expect(!Self.secretInJSON(plaintext))
        #expect(RecordBytes.contains(plaintext, Self.secret))   // raw, in the binary section
        let stored = try #require(try records.environment(id: Self.id))
        #expect(stored.environment == environment && stored.name == "Bank" && stored.iconURL == "https://example.com/i.png")
    }

    @Test func anOldFormatRecordStillReadsAndMigratesOnSave() throws {
        let temporary = try TemporaryDirectory("cm-secret")
        defer { temporary.remove() }
        let path = temporary.appending("store")
        let store = try SecureStore(directory: path)
        let old = Array(#"{"id":"\#(Self.id)","secretBase64":"\#(Base64.encode(Self.secret))","name":"Bank"}"#.utf8)
        #expect(Self.secretInJSON(old))   // what every record held before
        try store.write(SecretBytes(old), to: "cm.environment." + Self.id)
        let records = DeviceRecords(store: store)
        let stored = try #require(try records.environment(id: Self.id))
        #expect(stored.environment.secret.softwareSecret == SecretBytes(Self.secret) && stored.name == "Bank" && stored.iconURL == nil)
        try records.save(stored)
        #expect(!Self.secretInJSON(try #require(try store.read("cm.environment." + Self.id)).unsafeExposedBytes))
        #expect(try records.environment(id: Self.id)?.environment == stored.environment)
    }
}
