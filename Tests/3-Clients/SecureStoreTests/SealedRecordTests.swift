// Records with secrets (SealedRecord.swift) on the real file system: the secrets round-trip as
// SecretBytes, the decrypted record holds them only in its binary section (never in the JSON
// text), a record of the old all-JSON form still reads and is rewritten sealed, and a malformed
// binary section is corrupt, never a trap.

import CryptoPrimitives
import Foundation
import SecureStore
import Testing
import ClientTestSupport
import TestSupport

@Suite struct SealedRecordTests {
    /// A record with one public field and two secrets; `token` was once kept in the JSON.
    struct Sample: SealedRecordValue, Equatable {
        var label: String
        var token: SecretBytes?
        var key: SecretBytes?
        private var legacyToken: String?

        enum CodingKeys: String, CodingKey { case label, legacyToken = "token" }

        init(label: String, token: SecretBytes?, key: SecretBytes?) {
            self.label = label
            self.token = token
            self.key = key
        }

        func sealSecrets(into secrets: inout RecordSecrets) {
            secrets["token"] = token
            secrets["key"] = key
        }

        mutating func unsealSecrets(from secrets: RecordSecrets) throws(SecureStoreError) {
            if let legacyToken { token = SecretBytes(legacyToken.utf8) }
            legacyToken = nil
            token = secrets["token"] ?? token
            key = secrets["key"] ?? key
        }
    }

    static let token = Array("tok-3f9a1c-SECRET".utf8)
    static let key: [UInt8] = (0..<48).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }

    static func withStore(_ body: (SecureStore) throws -> Void) throws {
        try withTemporaryStore("sealed", body)
    }

    /// Whether `needle` occurs in `haystack`.

    /// The decrypted record split as JSON length ‖ JSON ‖ binary section (nil: not that form).
    static func sections(_ plaintext: SecretBytes) -> (json: [UInt8], binary: [UInt8])? {
        let bytes = plaintext.unsafeExposedBytes
        guard bytes.count >= 4, bytes[0] == 0 else { return nil }
        let count = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
        guard bytes.count >= 4 + count else { return nil }
        return (Array(bytes[4..<4 + count]), Array(bytes[(4 + count)...]))
    }

    @Test func secretsRoundTripOutsideTheJSON() throws {
        try Self.withStore { store in
            let records = try RecordStore<Sample>(store: store, name: "s")
            let sample = Sample(label: "public label", token: SecretBytes(Self.token), key: SecretBytes(Self.key))
            try records.write(sample)
            #expect(try records.read() == sample)
            let plaintext = try #require(try store.read("s"))
            let (json, binary) = try #require(Self.sections(plaintext))
            #expect(RecordBytes.contains(json, Array("public label".utf8)))
            // The secrets are in the binary section, raw, and nowhere in the JSON, in no spelling.
            for secret in [Self.token, Self.key] {
                #expect(RecordBytes.contains(binary, secret))
                #expect(!RecordBytes.contains(json, secret))
                #expect(!RecordBytes.contains(json, Array(Hex.encode(secret).utf8)) && !RecordBytes.contains(json, Array(Base64.encode(secret).utf8)))
            }
            #expect(!RecordBytes.contains(json, Array("tok-".utf8)) && !RecordBytes.contains(json, Array("\"token\"".utf8)))
            // An update on the freshest copy keeps the secrets.
            try records.update({ (value: inout Sample?) throws(SecureStoreError) in value?.label = "renamed" }, storeError: { $0 })
            #expect(try records.read() == Sample(label: "renamed", token: SecretBytes(Self.token), key: SecretBytes(Self.key)))
            // A secret set to nil is gone from the record.
            try records.write(Sample(label: "no key", token: SecretBytes(Self.token), key: nil))
            #expect(try records.read()?.key == nil)
            #expect(!RecordBytes.contains(try #require(try store.read("s")).unsafeExposedBytes, Self.key))
        }
    }

    /// The encoding before encryption, without a store: length ‖ JSON ‖ TLV, secrets only in the TLV.
    @Test func encodedRecordHasTheDocumentedLayout() throws {
        let encoded = try RecordStore<Sample>.encode(Sample(label: "L", token: SecretBytes([0xAA, 0xBB]), key: nil), name: "s")
        let json = Array(#"{"label":"L"}"#.utf8)
        #expect(encoded.unsafeExposedBytes == [0, 0, 0, UInt8(json.count)] + json + [5] + Array("token".utf8) + [0, 0, 0, 2, 0xAA, 0xBB])
    }

    /// A record written before the secrets left the JSON: the secret was there as text (what the
    /// checks above refuse); it still reads, and the next write moves it to the binary section.
    @Test func anOldFormatRecordStillReadsAndMigratesOnWrite() throws {
        try Self.withStore { store in
            let old = Array(#"{"label":"old","token":"tok-3f9a1c-SECRET"}"#.utf8)
            #expect(RecordBytes.contains(old, Self.token))                 // the old form held the secret as JSON text
            try store.write(SecretBytes(old), to: "s")
            let records = try RecordStore<Sample>(store: store, name: "s")
            let read = try #require(try records.read())
            #expect(read == Sample(label: "old", token: SecretBytes(Self.token), key: nil))
            try records.write(read)
            let migrated = try #require(try store.read("s"))
            let (json, binary) = try #require(Self.sections(migrated))
            #expect(!RecordBytes.contains(json, Self.token) && RecordBytes.contains(binary, Self.token))
            #expect(try records.read() == read)
        }
    }

    @Test func aMalformedSecretSectionIsCorrupt() throws {
        try Self.withStore { store in
            let records = try RecordStore<Sample>(store: store, name: "s")
            let json = Array(#"{"label":"L"}"#.utf8)
            let head: [UInt8] = [0, 0, 0, UInt8(json.count)] + json
            let bad: [[UInt8]] = [
                [0, 0, 0],                                                          // a cut length
                [0, 0, 0, 200] + json,                                              // JSON longer than the record
                head + [5] + Array("tok".utf8),                                     // a cut name
                head + [5] + Array("token".utf8) + [0, 0, 0, 9, 1],                 // a value longer than the record
                head + [0, 0, 0, 0, 0],                                             // an empty name
                head + [1, 0x6B, 0, 0, 0, 1, 7] + [1, 0x6B, 0, 0, 0, 1, 8],         // the same name twice
                head + [5] + Array("token".utf8) + [0xFF, 0xFF, 0xFF, 0xFF],        // a huge value length
            ]
            for bytes in bad {
                try store.write(SecretBytes(bytes), to: "s")
                expectError(kind: .corrupt) { _ = try records.read() }
            }
            // A plain Codable value is unaffected: still JSON alone.
            let plain = try RecordStore<[String: Int]>(store: store, name: "p")
            try plain.write(["a": 1])
            #expect(try store.read("p")?.unsafeExposedBytes == Array(#"{"a":1}"#.utf8))
        }
    }
}
