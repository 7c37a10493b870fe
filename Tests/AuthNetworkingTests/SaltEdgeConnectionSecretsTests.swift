// A Salt Edge connection on a real secure store (sdk-surfaces.md §5.7–§5.8): the private key and
// the access token are kept as raw bytes (PKCS #8 DER, token bytes) in the record's binary
// section, never as PEM or token text inside the JSON (JSONDecoder's `String` copies cannot be
// wiped); a record written in the old all-JSON form (PEM and token in the JSON) still reads.

import CryptoPrimitives
import Foundation
import SaltEdge
@testable import SaltEdgeAuthenticator
import SecureStore
import Testing

@Suite struct SaltEdgeConnectionSecretsTests {
    /// A 1024-bit test key (small, so the unoptimised build parses it quickly).
    static let privateKeyPEM = """
        -----BEGIN PRIVATE KEY-----
        MIICdgIBADANBgkqhkiG9w0BAQEFAASCAmAwggJcAgEAAoGBALtEcFOVP0KtHTB/
        kWn4/PRRwyps60YTvNPU/s1DRIZ03/PxAktFi4usvlslr6mikcHn6UtFYPZpw7y9
        LnBoDwyg592jWXT040INxPrKIClntrySoo0CMBIXmSij23Gz/r9vAvB2HDLVAkFk
        4jcFzurJQXtBf+zq+/a/63NOOdxHAgMBAAECgYAXvJYMUiehmPXRNupEp3XQtihp
        0UKFMG1H4ICnnfYqoNfeQNdMmTUV8EB0pzM76kpVbMLqcpHWyhMwcj5Xqyj09fJ9
        BFIAO9DAb0ETd7hNvq8l0GZ0UQtmWt+/4C2K0BhPdiIozAjBOevH7pO33HEYE6EK
        puZozezqXvsKwkP4MQJBAPXxLR4G/oqLddmHydZHAnvzfLWOhpfCCl0cMfSo7UZQ
        TAre/cSgrLr4zK4jNmr0foBkiHD8X/kvR4hgD/+Jvb8CQQDC7PuwtmLiAd8Aoo7j
        5FMNQ7Y3XWj0UMWtqjYT9RFWMd6nHkeeuoGsiuS5WHWdEs2FoZ3KiI1Vt9e+ukTp
        dhN5AkAB24t6sZTUmQ8P0I2+t5SWORWVDXmIxedsIp1h+rCoGk0ou9xw0sHbO6vY
        GN39WtFlyNya9d0Htcq1hfw48uJjAkB4cxpAIyPNRpy3drvXRLKxYqMJaTY+ql7M
        pn5OLMRuv9g26nYVNmiE5zrY8TmUOxc2uRyZF3JGgpjVaaLFpMn5AkEAyX3T015B
        k+g3fnUt7va4f/LhRBPWDcv/lFxZ73UBP1Wcq3RfItTUVaG2+u023oxV7fozg2Yz
        n5hktaQdG41Hzg==
        -----END PRIVATE KEY-----

        """
    static let accessToken = "access-token-5b0e7f-SECRET"

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<$0 + needle.count]) == needle }
    }

    /// The JSON part of a decrypted record (all of it in the old form).
    static func json(_ plaintext: [UInt8]) -> [UInt8] {
        guard plaintext.count >= 4, plaintext[0] == 0 else { return plaintext }
        let count = plaintext[0..<4].reduce(0) { $0 << 8 | Int($1) }
        return Array(plaintext[4..<min(plaintext.count, 4 + count)])
    }

    /// Whether the token or any part of the private key (a PEM line, DER) shows in the JSON.
    static func secretsInJSON(_ plaintext: [UInt8], key: RSA.Signing.PrivateKey) -> Bool {
        let json = json(plaintext)
        let pemLine = Array("MIICdgIBADANBgkqhkiG9w0BAQEFAASCAmAwggJcAgEAAoGBALtEcFOVP0KtHTB".utf8)
        return contains(json, Array(accessToken.utf8)) || contains(json, pemLine) || contains(json, key.derRepresentation.unsafeExposedBytes)
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
        #expect(read?.connection.key.signingKey.derRepresentation == expected.connection.key.signingKey.derRepresentation)
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
        #expect(!Self.secretsInJSON(plaintext, key: connection.connection.key.signingKey))
        #expect(Self.contains(plaintext, Array(Self.accessToken.utf8)))   // raw, in the binary section
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
        #expect(Self.secretsInJSON(oldBytes, key: connection.connection.key.signingKey))   // what every record held before
        try store.write(SecretBytes(oldBytes), to: "saltedge.connection.333")
        let records = ConnectionRecords(store: store)
        Self.check(try records.connection(id: "333"), connection)
        #expect(try records.update(id: "333", isActive: true))   // any write migrates
        let plaintext = try #require(try store.read("saltedge.connection.333")).unsafeExposedBytes
        #expect(!Self.secretsInJSON(plaintext, key: connection.connection.key.signingKey))
        Self.check(try records.connection(id: "333"), connection)
    }
}
