// Salt Edge connections kept on the device (docs/protocols/sdk-surfaces.md §5.7–§5.8: the app's `Connection`
// records and the keychain key pairs, here one secure-store record per connection,
// `saltedge.connection.<id>`): the RSA key pair, the access token, the provider's key and
// description. A connection that has been created on the server but whose redirect has not come
// back yet is kept too (`saltedge.pending.<id>`), so that `connect` and `complete` may run in
// two processes (a shell user pastes the redirect later).

public import CryptoPrimitives
import FoundationEssentials
import ProtocolSupport
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
    /// The label of the key pair in the client's `DeviceKeyStore` when a token holds it; nil
    /// when the record keeps the key.
    public let keyLabel: String?

    /// A stored connection; `keyLabel` names its key in a token, nil for a key in the record.
    package init(connection: SaltEdge.Connection, name: String, providerName: String, isActive: Bool, keyLabel: String? = nil) {
        self.connection = connection
        self.name = name
        self.providerName = providerName
        self.isActive = isActive
        self.keyLabel = keyLabel
    }

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
    package let key: SaltEdge.ConnectionKey
    /// The key's label in a token; nil for a key kept in the record.
    package let keyLabel: String?

    /// The id and the URL.
    public var description: String { "PendingConnection(\(id), \(authenticationURL))" }

    package init(id: String, authenticationURL: String, configuration: SaltEdge.ProviderConfiguration,
                 key: SaltEdge.ConnectionKey, keyLabel: String?) {
        self.id = id
        self.authenticationURL = authenticationURL
        self.configuration = configuration
        self.key = key
        self.keyLabel = keyLabel
    }
}

/// The records of connections in a secure store. Every write goes through ``RecordStore`` under
/// the store's lock; a change of a stored connection (``update(id:name:isActive:)``) re-reads
/// the freshest record and changes only the named fields.
package struct ConnectionRecords: Sendable {
    let store: SecureStore
    /// Where the key pairs of new connections are made, and where a record's `keyLabel` is found.
    let deviceKeys: any DeviceKeyStore

    /// The records in `store`, their keys made in and found in `deviceKeys`.
    package init(store: SecureStore, deviceKeys: any DeviceKeyStore = SoftwareDeviceKeyStore()) {
        self.store = store
        self.deviceKeys = deviceKeys
    }

    /// One connection: the public fields in JSON, the private key (PKCS #8 DER) and the access
    /// token in the record's binary section, never as text.
    struct Record: SealedRecordValue {
        let id: String
        let providerID: String
        let providerName: String
        let scaServiceURL: String
        let providerPublicKeyPEM: String
        let authenticationURL: String?
        var name: String
        var isActive: Bool
        let geolocationRequired: Bool
        /// The label of the key pair in the device key store; nil when `privateKey` holds it.
        let keyLabel: String?
        /// The public half of a key pair held in the device key store (SPKI PEM), so that
        /// reading the record never needs the token.
        let connectionPublicKeyPEM: String?
        /// The connection's private key, PKCS #8 DER, outside the JSON (nil when a token holds it).
        var privateKey: SecretBytes?
        /// The access token's bytes, outside the JSON (nil while the connection is pending).
        var accessToken: SecretBytes?
        /// The secrets of a record written while they were kept in the JSON; read into the
        /// fields above and dropped, so the next write stores them in the binary section.
        private var privateKeyPEM: String?
        private var legacyAccessToken: String?

        enum CodingKeys: String, CodingKey {
            case id, providerID, providerName, scaServiceURL, providerPublicKeyPEM, authenticationURL, name, isActive, geolocationRequired, keyLabel
            case connectionPublicKeyPEM
            case privateKeyPEM, legacyAccessToken = "accessToken"
        }

        init(id: String, providerID: String, providerName: String, scaServiceURL: String, providerPublicKeyPEM: String,
             key: SaltEdge.ConnectionKey, keyLabel: String?, accessToken: SecretBytes?, authenticationURL: String?, name: String,
             isActive: Bool, geolocationRequired: Bool) {
            self.id = id
            self.providerID = providerID
            self.providerName = providerName
            self.scaServiceURL = scaServiceURL
            self.providerPublicKeyPEM = providerPublicKeyPEM
            self.keyLabel = keyLabel
            self.connectionPublicKeyPEM = keyLabel == nil ? nil : key.publicKeyPEM
            self.privateKey = keyLabel == nil ? key.softwareKey?.derRepresentation : nil
            self.accessToken = accessToken
            self.authenticationURL = authenticationURL
            self.name = name
            self.isActive = isActive
            self.geolocationRequired = geolocationRequired
        }

        func sealSecrets(into secrets: inout RecordSecrets) {
            secrets["privateKey"] = privateKey
            secrets["accessToken"] = accessToken
        }

        mutating func unsealSecrets(from secrets: RecordSecrets) throws(SecureStoreError) {
            if let pem = privateKeyPEM {
                do { privateKey = try RSA.Signing.PrivateKey(pemRepresentation: pem).derRepresentation } catch {
                    throw SecureStoreError(.corrupt, "the connection record holds an unusable key")
                }
                privateKeyPEM = nil
            }
            if let token = legacyAccessToken {
                accessToken = SecretBytes(token.utf8)
                legacyAccessToken = nil
            }
            if let key = secrets["privateKey"] { privateKey = key }
            if let token = secrets["accessToken"] { accessToken = token }
        }

        /// The connection key: a reference to the key pair in the device key store (the token
        /// is reached only when the key signs or decrypts), or parsed from the record's DER bytes.
        func connectionKey(in deviceKeys: any DeviceKeyStore) throws(SaltEdgeClientError) -> SaltEdge.ConnectionKey {
            if let keyLabel {
                let publicKey: RSA.Signing.PublicKey
                do { publicKey = try RSA.Signing.PublicKey(pemRepresentation: connectionPublicKeyPEM ?? "") } catch {
                    throw SaltEdgeClientError(.store, "the connection record \(id) names a key in the token but holds no usable public key")
                }
                do { return SaltEdge.ConnectionKey(held: DeviceConnectionKey(key: try deviceKeys.rsaKeyReference(label: keyLabel, publicKey: publicKey))) } catch {
                    throw SaltEdgeClientError(.deviceKey, "the connection \(id)'s key \(keyLabel) is not usable: \(error.code)",
                                              protocolError: ProtocolError(keyUnavailable: error, "the connection \(id)'s key is not usable: \(error.code)"))
                }
            }
            guard let privateKey else { throw SaltEdgeClientError(.store, "the connection record holds no key") }
            let key = privateKey.withUnsafeBytes { der in
                Result { () throws(CryptoError) in try RSA.Signing.PrivateKey(derRepresentation: der) }
            }
            do { return SaltEdge.ConnectionKey(privateKey: try key.get()) } catch {
                throw SaltEdgeClientError(.store, "the connection record holds an unusable key")
            }
        }
    }

    /// Writes the connection's record; a key pair in the token that an earlier record of the same
    /// id named, and this one does not, is deleted afterwards (best effort: a key left behind is
    /// only an object no record names).
    package func save(_ connection: StoredConnection) throws(SaltEdgeClientError) {
        let replaced = try read("saltedge.connection." + connection.id)?.keyLabel
        let c = connection.connection
        let record = Record(id: c.id, providerID: c.providerID, providerName: connection.providerName, scaServiceURL: c.scaServiceURL,
                            providerPublicKeyPEM: c.providerPublicKey.pemRepresentation, key: c.key, keyLabel: connection.keyLabel,
                            accessToken: c.accessToken.rawRepresentation, authenticationURL: nil, name: connection.name,
                            isActive: connection.isActive, geolocationRequired: false)
        try write(record, to: "saltedge.connection." + c.id)
        if let replaced, replaced != connection.keyLabel { discardUnsaved(replaced) }
    }

    package func savePending(_ pending: PendingConnection) throws(SaltEdgeClientError) {
        let replaced = try read("saltedge.pending." + pending.id)?.keyLabel
        let configuration = pending.configuration
        let record = Record(id: pending.id, providerID: configuration.providerID, providerName: configuration.providerName,
                            scaServiceURL: configuration.scaServiceURL, providerPublicKeyPEM: configuration.providerPublicKey.pemRepresentation,
                            key: pending.key, keyLabel: pending.keyLabel, accessToken: nil, authenticationURL: pending.authenticationURL,
                            name: configuration.providerName, isActive: false, geolocationRequired: configuration.geolocationRequired)
        try write(record, to: "saltedge.pending." + pending.id)
        if let replaced, replaced != pending.keyLabel { discardUnsaved(replaced) }
    }

    /// Changes the name and/or the active flag of the stored connection `id` under the store's
    /// lock, on the freshest record; false when there is no such connection.
    @discardableResult
    package func update(id: String, name: String? = nil, isActive: Bool? = nil) throws(SaltEdgeClientError) -> Bool {
        try recordStore("saltedge.connection." + id).update({ (stored: inout Record?) throws(SaltEdgeClientError) -> Bool in
            guard var record = stored, record.accessToken != nil else { return false }
            if let name { record.name = name }
            if let isActive { record.isActive = isActive }
            stored = record
            return true
        }, storeError: { SaltEdgeClientError(.store, "the connection record cannot be updated", storeError: $0) })
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

    package func connection(id: String) throws(SaltEdgeClientError) -> StoredConnection? {
        try connection(record: "saltedge.connection." + id)
    }

    /// The stored key of a pending connection, with its provider key and service URL.
    func pending(id: String) throws(SaltEdgeClientError) -> (key: SaltEdge.ConnectionKey, keyLabel: String?, providerID: String, providerName: String,
                                                             scaServiceURL: String, providerKey: RSA.Encryption.PublicKey)? {
        guard let record = try read("saltedge.pending." + id) else { return nil }
        let key = try record.connectionKey(in: deviceKeys)
        do {
            return (key, record.keyLabel, record.providerID, record.providerName, record.scaServiceURL,
                    try SaltEdge.providerPublicKey(fromText: record.providerPublicKeyPEM))
        } catch {
            throw SaltEdgeClientError(.store, "the pending connection record holds an unusable key", protocolError: error)
        }
    }

    /// Removes the connection's key pair from the token, then its records. A token that cannot
    /// be reached removes nothing (`deviceKey`: plug it in and retry), so a
    /// key is never left behind unnamed; a crash between the two leaves a record whose key is
    /// gone, which the next removal finishes (a missing key is not an error).
    func remove(id: String) throws(SaltEdgeClientError) {
        var labels: Set<String> = []
        for name in ["saltedge.connection." + id, "saltedge.pending." + id] {
            if let label = try read(name)?.keyLabel { labels.insert(label) }
        }
        for label in labels.sorted() {
            do { try deviceKeys.deleteRSAKey(label: label) } catch {
                throw SaltEdgeClientError(.deviceKey, "the connection's key \(label) cannot be deleted from the token: \(error)",
                                          protocolError: ProtocolError(keyUnavailable: error, "the key \(label) cannot be deleted"))
            }
        }
        let records = try [recordStore("saltedge.connection." + id), recordStore("saltedge.pending." + id)]
        do {
            for record in records { try record.remove() }
        } catch {
            throw SaltEdgeClientError(.store, "the connection record cannot be removed", storeError: error)
        }
    }

    func removePending(id: String) throws(SaltEdgeClientError) {
        let records = try recordStore("saltedge.pending." + id)
        do { try records.remove() } catch {
            throw SaltEdgeClientError(.store, "the pending record cannot be removed", storeError: error)
        }
    }

    private func connection(record name: String) throws(SaltEdgeClientError) -> StoredConnection? {
        guard let record = try read(name), let token = record.accessToken else { return nil }
        let key = try record.connectionKey(in: deviceKeys)
        do {
            let connection = SaltEdge.Connection(id: record.id, providerID: record.providerID, scaServiceURL: record.scaServiceURL,
                                                 key: key, accessToken: SaltEdge.AccessToken(rawRepresentation: token),
                                                 providerPublicKey: try SaltEdge.providerPublicKey(fromText: record.providerPublicKeyPEM))
            return StoredConnection(connection: connection, name: record.name, providerName: record.providerName, isActive: record.isActive,
                                    keyLabel: record.keyLabel)
        } catch {
            throw SaltEdgeClientError(.store, "the connection record holds an unusable key", protocolError: error)
        }
    }

    private func recordStore(_ name: String) throws(SaltEdgeClientError) -> RecordStore<Record> {
        do { return try RecordStore(store: store, name: name) } catch {
            throw SaltEdgeClientError(.store, "\(name) is not a valid record name", storeError: error)
        }
    }

    func read(_ name: String) throws(SaltEdgeClientError) -> Record? {
        let records = try recordStore(name)
        do { return try records.read() } catch { throw SaltEdgeClientError(.store, "the connection record cannot be read", storeError: error) }
    }

    private func write(_ record: Record, to name: String) throws(SaltEdgeClientError) {
        let records = try recordStore(name)
        do { try records.write(record) } catch {
            throw SaltEdgeClientError(.store, "the connection record cannot be written", storeError: error)
        }
    }
}
