// Salt Edge connections kept on the device (sdk-surfaces.md §5.7–§5.8: the app's `Connection`
// records and the keychain key pairs, here one secure-store record per connection,
// `saltedge.connection.<id>`): the RSA key pair, the access token, the provider's key and
// description. A connection that has been created on the server but whose redirect has not come
// back yet is kept too (`saltedge.pending.<id>`), so that `connect` and `complete` may run in
// two processes (a shell user pastes the redirect later).

public import CryptoPrimitives
import FoundationEssentials
public import SaltEdge
public import SecureStore

/// One stored connection (the SDK's app-side `Connection`).
public struct StoredConnection: Sendable, CustomStringConvertible {
    /// The protocol core's connection (id, provider, service URL, key pair, access token, provider key).
    public let connection: SaltEdge.Connection
    /// A name for the user (the provider's name until renamed).
    public var name: String
    /// The provider's name.
    public let providerName: String
    /// `active`, or `inactive` once the server said it is gone.
    public var isActive: Bool

    /// The connection id.
    public var id: String { connection.id }

    /// Names and ids only.
    public var description: String { "StoredConnection(\(id), \(name), \(isActive ? "active" : "inactive"))" }
}

/// A connection waiting for its redirect (`SECreateConnectionResponseV2` plus what completes it).
public struct PendingConnection: Sendable, CustomStringConvertible {
    /// The connection id the server assigned.
    public let id: String
    /// The page to open in a browser; the bank redirects to the return URL with the access token.
    public let authenticationURL: String
    let configuration: SaltEdge.ProviderConfiguration
    let key: SaltEdge.ConnectionKey

    /// The id and the URL.
    public var description: String { "PendingConnection(\(id), \(authenticationURL))" }
}

/// The records of connections in a secure store.
struct ConnectionRecords: Sendable {
    let store: SecureStore

    private struct Record: Codable {
        let id: String
        let providerID: String
        let providerName: String
        let scaServiceURL: String
        let providerPublicKeyPEM: String
        let privateKeyPEM: String
        let accessToken: String?
        let authenticationURL: String?
        let name: String
        let isActive: Bool
        let geolocationRequired: Bool
    }

    func save(_ connection: StoredConnection) throws(SaltEdgeClientError) {
        let c = connection.connection
        let record = Record(id: c.id, providerID: c.providerID, providerName: connection.providerName, scaServiceURL: c.scaServiceURL,
                            providerPublicKeyPEM: c.providerPublicKey.pemRepresentation,
                            privateKeyPEM: String(decoding: c.key.signingKey.pemRepresentation.unsafeExposedBytes, as: UTF8.self),
                            accessToken: c.accessToken.headerValue, authenticationURL: nil, name: connection.name, isActive: connection.isActive,
                            geolocationRequired: false)
        try write(record, to: "saltedge.connection." + c.id)
    }

    func savePending(_ pending: PendingConnection) throws(SaltEdgeClientError) {
        let configuration = pending.configuration
        let record = Record(id: pending.id, providerID: configuration.providerID, providerName: configuration.providerName,
                            scaServiceURL: configuration.scaServiceURL, providerPublicKeyPEM: configuration.providerPublicKey.pemRepresentation,
                            privateKeyPEM: String(decoding: pending.key.signingKey.pemRepresentation.unsafeExposedBytes, as: UTF8.self),
                            accessToken: nil, authenticationURL: pending.authenticationURL, name: configuration.providerName, isActive: false,
                            geolocationRequired: configuration.geolocationRequired)
        try write(record, to: "saltedge.pending." + pending.id)
    }

    /// Every stored connection, by id order.
    func all() throws(SaltEdgeClientError) -> [StoredConnection] {
        let names: [String]
        do { names = try store.names().filter { $0.hasPrefix("saltedge.connection.") } } catch {
            throw SaltEdgeClientError(.store, "the store cannot be listed", storeError: error)
        }
        var connections: [StoredConnection] = []
        for name in names { if let connection = try connection(record: name) { connections.append(connection) } }
        return connections.sorted { $0.id.count != $1.id.count ? $0.id.count < $1.id.count : $0.id < $1.id }
    }

    func connection(id: String) throws(SaltEdgeClientError) -> StoredConnection? {
        try connection(record: "saltedge.connection." + id)
    }

    /// The stored key of a pending connection, with its provider key and service URL.
    func pending(id: String) throws(SaltEdgeClientError) -> (key: SaltEdge.ConnectionKey, providerID: String, providerName: String,
                                                             scaServiceURL: String, providerKey: RSA.Encryption.PublicKey)? {
        guard let record = try read("saltedge.pending." + id) else { return nil }
        do {
            return (try SaltEdge.ConnectionKey(privateKeyPEM: record.privateKeyPEM), record.providerID, record.providerName, record.scaServiceURL,
                    try SaltEdge.providerPublicKey(fromText: record.providerPublicKeyPEM))
        } catch {
            throw SaltEdgeClientError(.store, "the pending connection record holds an unusable key", protocolError: error)
        }
    }

    func remove(id: String) throws(SaltEdgeClientError) {
        do {
            try store.remove("saltedge.connection." + id)
            try store.remove("saltedge.pending." + id)
        } catch {
            throw SaltEdgeClientError(.store, "the connection record cannot be removed", storeError: error)
        }
    }

    func removePending(id: String) throws(SaltEdgeClientError) {
        do { try store.remove("saltedge.pending." + id) } catch {
            throw SaltEdgeClientError(.store, "the pending record cannot be removed", storeError: error)
        }
    }

    private func connection(record name: String) throws(SaltEdgeClientError) -> StoredConnection? {
        guard let record = try read(name), let token = record.accessToken else { return nil }
        do {
            let connection = SaltEdge.Connection(id: record.id, providerID: record.providerID, scaServiceURL: record.scaServiceURL,
                                                 key: try SaltEdge.ConnectionKey(privateKeyPEM: record.privateKeyPEM),
                                                 accessToken: SaltEdge.AccessToken(rawRepresentation: SecretBytes(Array(token.utf8))),
                                                 providerPublicKey: try SaltEdge.providerPublicKey(fromText: record.providerPublicKeyPEM))
            return StoredConnection(connection: connection, name: record.name, providerName: record.providerName, isActive: record.isActive)
        } catch {
            throw SaltEdgeClientError(.store, "the connection record holds an unusable key", protocolError: error)
        }
    }

    private func read(_ name: String) throws(SaltEdgeClientError) -> Record? {
        let bytes: SecretBytes?
        do { bytes = try store.read(name) } catch { throw SaltEdgeClientError(.store, "the connection record cannot be read", storeError: error) }
        guard let bytes else { return nil }
        do { return try JSONDecoder().decode(Record.self, from: Data(bytes.unsafeExposedBytes)) } catch {
            throw SaltEdgeClientError(.store, "the connection record is not a connection")
        }
    }

    private func write(_ record: Record, to name: String) throws(SaltEdgeClientError) {
        let encoded: Data
        do { encoded = try JSONEncoder().encode(record) } catch { throw SaltEdgeClientError(.store, "the connection record cannot be encoded") }
        var bytes = Array(encoded)
        defer { SecretBytes.wipe(&bytes) }
        do { try store.write(SecretBytes(bytes), to: name) } catch {
            throw SaltEdgeClientError(.store, "the connection record cannot be written", storeError: error)
        }
    }
}
