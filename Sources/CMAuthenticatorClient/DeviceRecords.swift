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

/// The CM records of a secure store.
struct DeviceRecords: Sendable {
    let store: SecureStore

    func device() throws(CMClientError) -> DeviceRecord {
        try read("cm.device", as: DeviceRecord.self) ?? DeviceRecord()
    }

    func save(_ device: DeviceRecord) throws(CMClientError) {
        try write(device, to: "cm.device")
    }

    private struct EnvironmentRecord: Codable {
        let id: String
        let secretBase64: String
        let name: String
        let iconURL: String?
    }

    func environment(id: String) throws(CMClientError) -> StoredEnvironment? {
        guard let record = try read("cm.environment." + id, as: EnvironmentRecord.self) else { return nil }
        var secret: [UInt8]
        do { secret = try Base64.decode(record.secretBase64) } catch {
            throw CMClientError(.store, "the environment record holds an unusable secret")
        }
        defer { SecretBytes.wipe(&secret) }
        let environment = CMAuthenticator.Environment(id: record.id, secret: CMAuthenticator.EnvironmentSecret(rawRepresentation: SecretBytes(secret)))
        return StoredEnvironment(environment: environment, name: record.name, iconURL: record.iconURL)
    }

    func save(_ environment: StoredEnvironment) throws(CMClientError) {
        let secret = Base64.encode(environment.environment.secret.rawRepresentation.unsafeExposedBytes)
        try write(EnvironmentRecord(id: environment.id, secretBase64: secret, name: environment.name, iconURL: environment.iconURL),
                  to: "cm.environment." + environment.id)
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

    private func read<T: Decodable>(_ name: String, as type: T.Type) throws(CMClientError) -> T? {
        let bytes: SecretBytes?
        do { bytes = try store.read(name) } catch { throw CMClientError(.store, "\(name) cannot be read", storeError: error) }
        guard let bytes else { return nil }
        do { return try JSONDecoder().decode(T.self, from: Data(bytes.unsafeExposedBytes)) } catch {
            throw CMClientError(.store, "\(name) is not a CM record")
        }
    }

    private func write(_ value: some Encodable, to name: String) throws(CMClientError) {
        let encoded: Data
        do { encoded = try JSONEncoder().encode(value) } catch { throw CMClientError(.store, "\(name) cannot be encoded") }
        var bytes = Array(encoded)
        defer { SecretBytes.wipe(&bytes) }
        do { try store.write(SecretBytes(bytes), to: name) } catch {
            throw CMClientError(.store, "\(name) cannot be written", storeError: error)
        }
    }
}
