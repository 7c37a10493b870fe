// A Salt Edge connection on a real secure store (docs/protocols/sdk-surfaces.md §5.7–§5.8): the private key and
// the access token are kept as raw bytes (PKCS #8 DER, token bytes) in the record's binary
// section, never as PEM or token text inside the JSON (JSONDecoder's `String` copies cannot be
// wiped); a record written in the old all-JSON form (PEM and token in the JSON) still reads.

import CryptoPrimitives
import Foundation
import SaltEdge
import SaltEdgeSDK
import SecureStore
import Testing
import TestSupport

@Suite struct SaltEdgeConnectionSecretsTests {
    static let privateKeyPEM = TestKeyMaterial.rsa1024PKCS8PEM
    static let accessToken = "access-token-5b0e7f-SECRET"

    /// Whether the token or any part of the private key (a PEM line, DER) shows in the JSON.
    static func secretsInJSON(_ plaintext: [UInt8], key: RSA.Signing.PrivateKey) -> Bool {
        let json = RecordBytes.json(plaintext)
        let pemLine = Array("MIICdgIBADANBgkqhkiG9w0BAQEFAASCAmAwggJcAgEAAoGBALtEcFOVP0KtHTB".utf8)
        return RecordBytes.contains(json, Array(accessToken.utf8)) || RecordBytes.contains(json, pemLine) || RecordBytes.contains(json, key.derRepresentation.unsafeExposedBytes)
    }

    static func connection() throws -> StoredConnection {
        let key = try RSA.Signing.PrivateKey(pemRepresentation: privateKeyPEM)
        let connection = SaltEdge.Connection(id: "333", providerID: "1", scaServiceURL: "https://sca.example.com/base",
                                             key: SaltEdge.ConnectionKey(privateKey: key),
                                             accessToken: .init(rawRepresentation: SecretBytes(accessToken.utf8)),
                                             providerPublicKey: RSA.Encryption.PublicKey(sameKeyAs: key.publicKey))
        return StoredConnection(connection: connection, name: "Bank", providerName: "Demo Bank", isActive: true)
    }

    static func check(_ read: StoredConnection?, _ expected: StoredConnection) {
        #expect(read?.connection.accessToken.rawRepresentation == SecretBytes(accessToken.utf8))
        #expect(read?.connection.key.softwareKey?.derRepresentation == expected.connection.key.softwareKey?.derRepresentation)
        #expect(read?.connection.key.softwareKey != nil)
        #expect(read?.connection.providerPublicKey == expected.connection.providerPublicKey)
        #expect(read?.name == "Bank" && read?.providerName == "Demo Bank" && read?.isActive == true && read?.id == "333")
    }

    @Test func theKeyAndTokenAreStoredOutsideTheJSON() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("saltedge-secrets-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try SecureStore(directory: path)
        let records = ConnectionRecords(store: store)
        let connection = try Self.connection()
        try records.save(connection)
        let plaintext = try #require(try store.read("saltedge.connection.333")).unsafeExposedBytes
        #expect(!Self.secretsInJSON(plaintext, key: try #require(connection.connection.key.softwareKey)))
        #expect(RecordBytes.contains(plaintext, Array(Self.accessToken.utf8)))   // raw, in the binary section
        Self.check(try records.connection(id: "333"), connection)
        // A rename on the freshest record keeps both secrets.
        #expect(try records.update(id: "333", name: "Renamed"))
        #expect(try records.connection(id: "333")?.connection.accessToken.rawRepresentation == SecretBytes(Self.accessToken.utf8))
    }

    @Test func anOldFormatRecordStillReadsAndMigratesOnWrite() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("saltedge-secrets-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try SecureStore(directory: path)
        let connection = try Self.connection()
        let old: [String: Any] = ["id": "333", "providerID": "1", "providerName": "Demo Bank", "scaServiceURL": "https://sca.example.com/base",
                                  "providerPublicKeyPEM": connection.connection.providerPublicKey.pemRepresentation,
                                  "privateKeyPEM": Self.privateKeyPEM, "accessToken": Self.accessToken, "name": "Bank", "isActive": true,
                                  "geolocationRequired": false]
        let oldBytes = Array(try JSONSerialization.data(withJSONObject: old))
        #expect(Self.secretsInJSON(oldBytes, key: try #require(connection.connection.key.softwareKey)))   // what every record held before
        try store.write(SecretBytes(oldBytes), to: "saltedge.connection.333")
        let records = ConnectionRecords(store: store)
        Self.check(try records.connection(id: "333"), connection)
        #expect(try records.update(id: "333", isActive: true))   // any write migrates
        let plaintext = try #require(try store.read("saltedge.connection.333")).unsafeExposedBytes
        #expect(!Self.secretsInJSON(plaintext, key: try #require(connection.connection.key.softwareKey)))
        Self.check(try records.connection(id: "333"), connection)
    }
}
