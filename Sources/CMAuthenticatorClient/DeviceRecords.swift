// What the CM client keeps on the device (cm-authenticator.md §8): the device id, the phone
// number and its verification state, the verified certificate pins with the time they were
// fetched (`cm.device`), and one record per linked environment with its secret, the only
// credential (`cm.environment.<id>`). All in the secure store, so secrets are encrypted at rest.

public import CMAuthenticator
import CryptoPrimitives
import FoundationEssentials
import SecureStore

/// A linked environment as stored here.
public struct StoredEnvironment: Sendable, CustomStringConvertible {
    /// The environment (id and secret) the requests are signed with.
    public let environment: CMAuthenticator.Environment
    /// Its display name from the server's list (the id until known).
    public var name: String
    /// Its icon URL, if the server gave one.
    public var iconURL: String?

    /// The environment id.
    public var id: String { environment.id }

    /// The id and name, never the secret.
    public var description: String { "StoredEnvironment(\(id), \(name))" }
}

/// The device's own record.
struct DeviceRecord: Codable, Sendable {
    var deviceID: String?
    var phoneNumber: String?
    var registrationStatus: String?
    /// Verified pins (§6): leaf-certificate SHA-256 hex and SPKI SHA-256 Base64.
    var pinCertificateHex: [String] = []
    var pinSPKIBase64: [String] = []
    /// Unix seconds of the last verified list (refreshed at most hourly, §6).
    var pinsFetchedAt: Int64?
}

/// The CM records of a secure store. Every change of the device record is a read-modify-write
/// under the store's lock from the freshest copy (``updateDevice(_:)``), so a refresh of the
/// certificate pins and a registration update in the same command, or in two processes, never
/// overwrite each other's fields.
struct DeviceRecords: Sendable {
    let store: SecureStore

    private var deviceRecord: RecordStore<DeviceRecord> {
        get throws(CMClientError) { try Self.record(store, "cm.device") }
    }

    private static func record<Value>(_ store: SecureStore, _ name: String) throws(CMClientError) -> RecordStore<Value> {
        do { return try RecordStore(store: store, name: name) } catch {
            throw CMClientError(.store, "\(name) is not a valid record name", storeError: error)
        }
    }

    /// The device record (an empty one before registration).
    func device() throws(CMClientError) -> DeviceRecord {
        let records = try deviceRecord
        do { return try records.read() ?? DeviceRecord() } catch {
            throw CMClientError(.store, "cm.device cannot be read", storeError: error)
        }
    }

    /// Changes the device record under the store's lock: `change` sees the freshest stored copy
    /// and should set only the fields it means to change (cm-authenticator.md §6, §8: the pins
    /// and their refresh time survive a registration update, and the reverse).
    @discardableResult
    func updateDevice<R>(_ change: (inout DeviceRecord) throws(CMClientError) -> R) throws(CMClientError) -> R {
        try deviceRecord.update({ (stored: inout DeviceRecord?) throws(CMClientError) -> R in
            var record = stored ?? DeviceRecord()
            let result = try change(&record)
            stored = record
            return result
        }, storeError: { CMClientError(.store, "cm.device cannot be updated", storeError: $0) })
    }

    private struct EnvironmentRecord: Codable {
        let id: String
        let secretBase64: String
        let name: String
        let iconURL: String?
    }

    func environment(id: String) throws(CMClientError) -> StoredEnvironment? {
        let name = "cm.environment." + id
        let records: RecordStore<EnvironmentRecord> = try Self.record(store, name)
        let stored: EnvironmentRecord?
        do { stored = try records.read() } catch { throw CMClientError(.store, "\(name) cannot be read", storeError: error) }
        guard let record = stored else { return nil }
        var secret: [UInt8]
        do { secret = try Base64.decode(record.secretBase64) } catch {
            throw CMClientError(.store, "the environment record holds an unusable secret")
        }
        defer { SecretBytes.wipe(&secret) }
        let environment = CMAuthenticator.Environment(id: record.id, secret: CMAuthenticator.EnvironmentSecret(rawRepresentation: SecretBytes(secret)))
        return StoredEnvironment(environment: environment, name: record.name, iconURL: record.iconURL)
    }

    func save(_ environment: StoredEnvironment) throws(CMClientError) {
        let name = "cm.environment." + environment.id
        let secret = environment.environment.secret.rawRepresentation.withUnsafeBytes { Base64.encode($0) }
        let record = EnvironmentRecord(id: environment.id, secretBase64: secret, name: environment.name, iconURL: environment.iconURL)
        let records: RecordStore<EnvironmentRecord> = try Self.record(store, name)
        do { try records.write(record) } catch {
            throw CMClientError(.store, "\(name) cannot be written", storeError: error)
        }
    }

    func removeEnvironment(id: String) throws(CMClientError) {
        do { try store.remove("cm.environment." + id) } catch {
            throw CMClientError(.store, "the environment record cannot be removed", storeError: error)
        }
    }

    /// Every stored environment, by name then id.
    func environments() throws(CMClientError) -> [StoredEnvironment] {
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
