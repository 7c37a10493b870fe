// What the CM client keeps on the device (docs/protocols/cm-authenticator.md §8): the device id, the phone
// number and its verification state, the verified certificate pins with the time they were
// fetched (`cm.device`), and one record per linked environment with its secret, the only
// credential (`cm.environment.<id>`). All in the secure store, so secrets are encrypted at rest.

public import CMAuthenticator
import CryptoPrimitives
import FoundationEssentials
import ProtocolSupport
public import SecureStore

/// A linked environment as stored here.
public struct StoredEnvironment: Sendable, CustomStringConvertible {
    /// The environment (id and secret) the requests are signed with.
    public let environment: CMAuthenticator.Environment
    /// Its display name from the server's list (the id until known).
    public var name: String
    /// Its icon URL, if the server gave one.
    public var iconURL: String?
    /// The label of the secret in the client's `DeviceKeyStore` when a token holds it; nil when
    /// the record keeps the secret.
    public let keyLabel: String?

    /// A stored environment; `keyLabel` names its secret in a token, nil for one in the record.
    package init(environment: CMAuthenticator.Environment, name: String, iconURL: String?, keyLabel: String? = nil) {
        self.environment = environment
        self.name = name
        self.iconURL = iconURL
        self.keyLabel = keyLabel
    }

    /// The environment id.
    public var id: String { environment.id }

    /// The id and name, never the secret.
    public var description: String { "StoredEnvironment(\(id), \(name))" }
}

/// The device's own record.
package struct DeviceRecord: Codable, Sendable {
    package var deviceID: String?
    var phoneNumber: String?
    package var registrationStatus: String?
    /// Verified pins (§6): leaf-certificate SHA-256 hex and SPKI SHA-256 Base64.
    package var pinCertificateHex: [String] = []
    package var pinSPKIBase64: [String] = []
    /// Unix seconds of the last verified list (refreshed at most hourly, §6).
    package var pinsFetchedAt: Int64?
}

/// The CM records of a secure store. Every change of the device record is a read-modify-write
/// under the store's lock from the freshest copy (``updateDevice(_:)``), so a refresh of the
/// certificate pins and a registration update in the same command, or in two processes, never
/// overwrite each other's fields.
package struct DeviceRecords: Sendable {
    let store: SecureStore
    /// Where new environments' secrets are kept, and where a record's `keyLabel` is found.
    let deviceKeys: any DeviceKeyStore

    /// The records in `store`, environment secrets kept in and found in `deviceKeys`.
    package init(store: SecureStore, deviceKeys: any DeviceKeyStore = SoftwareDeviceKeyStore()) {
        self.store = store
        self.deviceKeys = deviceKeys
    }

    private var deviceRecord: RecordStore<DeviceRecord> {
        get throws(CMClientError) { try Self.record(store, "cm.device") }
    }

    static func record<Value>(_ store: SecureStore, _ name: String) throws(CMClientError) -> RecordStore<Value> {
        do { return try RecordStore(store: store, name: name) } catch {
            throw CMClientError(.store, "\(name) is not a valid record name", storeError: error)
        }
    }

    /// The device record (an empty one before registration).
    package func device() throws(CMClientError) -> DeviceRecord {
        let records = try deviceRecord
        do { return try records.read() ?? DeviceRecord() } catch {
            throw CMClientError(.store, "cm.device cannot be read", storeError: error)
        }
    }

    /// Removes the device record (no registration afterwards).
    func removeDevice() throws(CMClientError) {
        let records = try deviceRecord
        do { try records.remove() } catch { throw CMClientError(.store, "cm.device cannot be removed", storeError: error) }
    }

    /// Changes the device record under the store's lock: `change` sees the freshest stored copy
    /// and should set only the fields it means to change (docs/protocols/cm-authenticator.md §6, §8: the pins
    /// and their refresh time survive a registration update, and the reverse).
    @discardableResult
    package func updateDevice<R>(_ change: (inout DeviceRecord) throws(CMClientError) -> R) throws(CMClientError) -> R {
        try deviceRecord.update({ (stored: inout DeviceRecord?) throws(CMClientError) -> R in
            var record = stored ?? DeviceRecord()
            let result = try change(&record)
            stored = record
            return result
        }, storeError: { CMClientError(.store, "cm.device cannot be updated", storeError: $0) })
    }

    /// One linked environment: the public fields in JSON, the secret in the record's binary
    /// section as raw bytes (docs/protocols/cm-authenticator.md §8), never as text.
    struct EnvironmentRecord: SealedRecordValue {
        let id: String
        let name: String
        let iconURL: String?
        /// The label of the secret in the device key store; nil when `secret` holds it.
        let keyLabel: String?
        /// The environment secret, outside the JSON (nil when a token holds it).
        var secret: SecretBytes?
        /// The secret of a record written while it was kept in the JSON (standard Base64); read
        /// into `secret` and dropped, so the next write stores it in the binary section.
        private var secretBase64: String?

        enum CodingKeys: String, CodingKey { case id, name, iconURL, keyLabel, secretBase64 }

        init(id: String, name: String, iconURL: String?, secret: SecretBytes?, keyLabel: String?) {
            self.id = id
            self.name = name
            self.iconURL = iconURL
            self.secret = secret
            self.keyLabel = keyLabel
        }

        func sealSecrets(into secrets: inout RecordSecrets) { secrets["secret"] = secret }

        mutating func unsealSecrets(from secrets: RecordSecrets) throws(SecureStoreError) {
            if let legacy = secretBase64 {
                var bytes: [UInt8]
                do { bytes = try Base64.decode(legacy) } catch { throw SecureStoreError(.corrupt, "the environment record holds an unusable secret") }
                defer { SecretBytes.wipe(&bytes) }
                secret = SecretBytes(bytes)
                secretBase64 = nil
            }
            if let sealed = secrets["secret"] { secret = sealed }
        }
    }

    package func environment(id: String) throws(CMClientError) -> StoredEnvironment? {
        let name = "cm.environment." + id
        let records: RecordStore<EnvironmentRecord> = try Self.record(store, name)
        let stored: EnvironmentRecord?
        do { stored = try records.read() } catch { throw CMClientError(.store, "\(name) cannot be read", storeError: error) }
        guard let record = stored else { return nil }
        let secret: CMAuthenticator.EnvironmentSecret
        if let keyLabel = record.keyLabel {
            // A reference: the token is reached only when the secret signs, never to list.
            do { secret = CMAuthenticator.EnvironmentSecret(held: DeviceEnvironmentKey(key: try deviceKeys.hmacKeyReference(label: keyLabel), keyLabel: keyLabel)) } catch {
                throw CMClientError(.deviceKey, "the environment's secret \(keyLabel) is not usable: \(error.code)",
                                    protocolError: ProtocolError(keyUnavailable: error, "the environment's secret \(keyLabel) is not usable: \(error.code)"))
            }
        } else {
            guard let bytes = record.secret else { throw CMClientError(.store, "the environment record holds no secret") }
            secret = CMAuthenticator.EnvironmentSecret(rawRepresentation: bytes)
        }
        let environment = CMAuthenticator.Environment(id: record.id, secret: secret)
        return StoredEnvironment(environment: environment, name: record.name, iconURL: record.iconURL, keyLabel: record.keyLabel)
    }

    /// Writes the environment's record; a secret in the token that an earlier record of the
    /// same id named, and this one does not, is deleted afterwards (best effort: a key left
    /// behind is only an object no record names).
    package func save(_ environment: StoredEnvironment) throws(CMClientError) {
        let name = "cm.environment." + environment.id
        let records: RecordStore<EnvironmentRecord> = try Self.record(store, name)
        let replaced: String?
        do { replaced = try records.read()?.keyLabel } catch { throw CMClientError(.store, "\(name) cannot be read", storeError: error) }
        let record = EnvironmentRecord(id: environment.id, name: environment.name, iconURL: environment.iconURL,
                                       secret: environment.keyLabel == nil ? environment.environment.secret.softwareSecret : nil,
                                       keyLabel: environment.keyLabel)
        guard record.keyLabel != nil || record.secret != nil else { throw CMClientError(.store, "an environment held in a token needs its key label") }
        do { try records.write(record) } catch {
            throw CMClientError(.store, "\(name) cannot be written", storeError: error)
        }
        if let replaced, replaced != environment.keyLabel { discardUnsaved(replaced) }
    }

    /// Removes the environment's secret from the token, then its record. A token that cannot be
    /// reached removes nothing (`deviceKey`: plug it in and retry); a crash
    /// between the two leaves a record whose key is gone, which the next removal finishes.
    func removeEnvironment(id: String) throws(CMClientError) {
        let records: RecordStore<EnvironmentRecord> = try Self.record(store, "cm.environment." + id)
        let label: String?
        do { label = try records.read()?.keyLabel } catch { throw CMClientError(.store, "cm.environment.\(id) cannot be read", storeError: error) }
        if let label {
            do { try deviceKeys.deleteHMACKey(label: label) } catch {
                throw CMClientError(.deviceKey, "the environment's secret \(label) cannot be deleted from the token: \(error)",
                                    protocolError: ProtocolError(keyUnavailable: error, "the secret \(label) cannot be deleted"))
            }
        }
        do { try records.remove() } catch {
            throw CMClientError(.store, "the environment record cannot be removed", storeError: error)
        }
    }

    /// Every stored environment, by name then id.
    package func environments() throws(CMClientError) -> [StoredEnvironment] {
        let names: [String]
        do { names = try store.names().filter { $0.hasPrefix("cm.environment.") } } catch {
            throw CMClientError(.store, "the store cannot be listed", storeError: error)
        }
        var environments: [StoredEnvironment] = []
        for name in names {
            if let environment = try environment(id: String(name.dropFirst("cm.environment.".count))) { environments.append(environment) }
        }
        return environments.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
    }
}
