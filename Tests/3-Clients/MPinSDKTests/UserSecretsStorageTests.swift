// A user's secrets on a real secure store (docs/protocols/mpin.md §6): the token, the signing token, the
// pending client secret and the registration's one-time token are kept as raw bytes in the
// record's binary section, never as hex or text inside the JSON (JSONDecoder's `String` copies
// cannot be wiped); a record written in the old all-JSON form still reads and migrates.

import CryptoPrimitives
import Foundation
import MPinSDK
import SecureStore
import Testing
import TestSupport

@Suite struct UserSecretsStorageTests {
    static let backend = "https://mfa.example"
    static let token: [UInt8] = [0x04] + (1...64).map { UInt8($0) }
    static let signingToken: [UInt8] = [0x04] + (1...64).map { UInt8(200 - $0) }
    static let clientSecret: [UInt8] = [0x04] + (1...64).map { UInt8($0 &* 3) }
    static let regOTT = Array("regott-7c1e9d0a-secret".utf8)

    /// The secrets that show in the JSON, raw, as hex or as Base64.
    static func secretsInJSON(_ plaintext: [UInt8]) -> Int {
        let json = RecordBytes.json(plaintext)
        return [token, signingToken, clientSecret, regOTT].filter { secret in
            [secret, Array(Hex.encode(secret).utf8), Array(Base64.encode(secret).utf8)].contains { RecordBytes.contains(json, $0) }
        }.count
    }

    static func record() -> UserRecord {
        var user = MPinUser(identity: "alice@example.com", backend: backend, deviceName: "laptop")
        user.mpinID = "abcd"
        var record = UserRecord(user)
        record.secrets.token = SecretBytes(token)
        record.secrets.signingToken = SecretBytes(signingToken)
        record.secrets.pendingClientSecret = SecretBytes(clientSecret)
        record.secrets.regOTT = SecretBytes(regOTT)
        record.secrets.signingDTAs = "dtas"
        return record
    }

    static func check(_ read: UserRecord?) {
        #expect(read?.secrets.token == SecretBytes(token) && read?.secrets.signingToken == SecretBytes(signingToken))
        #expect(read?.secrets.pendingClientSecret == SecretBytes(clientSecret) && read?.secrets.regOTT == SecretBytes("regott-7c1e9d0a-secret".utf8))
        #expect(read?.secrets.signingDTAs == "dtas" && read?.mpinID == "abcd" && read?.deviceName == "laptop")
    }

    @Test func theSecretsAreStoredOutsideTheJSON() throws {
        let temporary = try TemporaryDirectory("mpin-secrets")
        defer { temporary.remove() }
        let path = temporary.appending("store")
        let store = try SecureStore(directory: path)
        let records = UserRecords(store: store)
        try records.write(Self.record())
        let name = UserRecords.recordName(identity: "alice@example.com", backend: Self.backend)
        let plaintext = try #require(try store.read(name)).unsafeExposedBytes
        #expect(Self.secretsInJSON(plaintext) == 0)
        #expect([Self.token, Self.signingToken, Self.clientSecret, Self.regOTT].allSatisfy { RecordBytes.contains(plaintext, $0) })
        Self.check(try records.read(identity: "alice@example.com", backend: Self.backend))
    }

    /// The old form: the same record with the secrets as JSON members (points in hex).
    @Test func anOldFormatRecordStillReadsAndMigratesOnWrite() throws {
        let temporary = try TemporaryDirectory("mpin-secrets")
        defer { temporary.remove() }
        let path = temporary.appending("store")
        let store = try SecureStore(directory: path)
        var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(Self.record())) as? [String: Any])
        var secrets = try #require(object["secrets"] as? [String: Any])
        secrets["token"] = Hex.encode(Self.token)
        secrets["signingToken"] = Hex.encode(Self.signingToken)
        secrets["pendingClientSecret"] = Hex.encode(Self.clientSecret)
        secrets["regOTT"] = "regott-7c1e9d0a-secret"
        object["secrets"] = secrets
        let old = Array(try JSONSerialization.data(withJSONObject: object))
        #expect(Self.secretsInJSON(old) == 4)   // what every record held before
        let name = UserRecords.recordName(identity: "alice@example.com", backend: Self.backend)
        try store.write(SecretBytes(old), to: name)
        let records = UserRecords(store: store)
        let read = try records.read(identity: "alice@example.com", backend: Self.backend)
        Self.check(read)
        try records.write(try #require(read))
        #expect(Self.secretsInJSON(try #require(try store.read(name)).unsafeExposedBytes) == 0)
        Self.check(try records.read(identity: "alice@example.com", backend: Self.backend))
        // A legacy secret that is not hex is a corrupt record, not a missing token.
        secrets["token"] = "not hex"
        object["secrets"] = secrets
        try store.write(SecretBytes(try JSONSerialization.data(withJSONObject: object)), to: name)
        #expect(throws: MPinError.self) { try records.read(identity: "alice@example.com", backend: Self.backend) }
    }
}
