// Users kept on the device (docs/protocols/mpin.md §6; docs/protocols/sdk-surfaces.md §3.10: the Keychain becomes SecureStore):
// one encrypted record per user, `mpin.user.<h>` with h = the first 16 bytes of
// SHA-256(backend ‖ LF ‖ identity) in hex, so a name carries no identity and two backends never
// collide. The record holds the public fields and the secrets of docs/protocols/mpin.md §6: the token, the
// signing token, the registration's one-time token, a client secret waiting for its PIN, and
// the cached time permit.

package import CryptoPrimitives
import FoundationEssentials
package import SecureStore

/// The secret half of a user's record. The token, the signing token, the pending client secret
/// and the registration's one-time token are ``SecretBytes`` kept outside the JSON, in the
/// record's binary section (``SealedRecordValue``): the points as their raw 04 ‖ x ‖ y bytes,
/// the one-time token as its UTF-8 bytes.
package struct UserSecrets: Codable, Sendable {
    /// The registration's one-time token while registering (docs/protocols/mpin.md §7.1 item 3), UTF-8.
    package var regOTT: SecretBytes?
    /// The access code the registration started with.
    var accessCode: String?
    /// The client secret between `confirmRegistration` and `finishRegistration` (a G1 point).
    package var pendingClientSecret: SecretBytes?
    /// TOKEN = CS − PIN·A (a G1 point), the PIN never stored (docs/protocols/mpin.md §5).
    package var token: SecretBytes?
    /// Whether a second factor was extracted from the token too.
    var hasSecondFactor: Bool = false
    /// The cached time permit and its day (docs/protocols/mpin.md §4, §7.1 item 6).
    var permitDay: UInt32?
    var permit: String?
    /// The DVS registration token between the two DVS steps (docs/protocols/mpin.md §7.2).
    var dvsRegisterToken: String?
    /// The signing identity (docs/protocols/mpin.md §6, 2019 SDK's separate signing set).
    package var signingMPinID: String?
    package var signingPublicKey: String?
    package var signingDTAs: String?
    /// The signing token (a G1 point).
    package var signingToken: SecretBytes?
    var signingHasSecondFactor: Bool = false
    /// The secrets of a record written while they were kept in the JSON (the points in hex);
    /// read into the fields above and dropped, so the next write stores them outside the JSON.
    private var legacyRegOTT: String?
    private var legacyPendingClientSecret: String?
    private var legacyToken: String?
    private var legacySigningToken: String?

    enum CodingKeys: String, CodingKey {
        case accessCode, hasSecondFactor, permitDay, permit, dvsRegisterToken, signingMPinID, signingPublicKey, signingDTAs
        case signingHasSecondFactor
        case legacyRegOTT = "regOTT", legacyPendingClientSecret = "pendingClientSecret", legacyToken = "token"
        case legacySigningToken = "signingToken"
    }

    package init() {}

    /// The secret fields, by name, for the record's binary section.
    func seal(into secrets: inout RecordSecrets) {
        secrets["regOTT"] = regOTT
        secrets["pendingClientSecret"] = pendingClientSecret
        secrets["token"] = token
        secrets["signingToken"] = signingToken
    }

    /// Takes the secret fields from `secrets`, after moving any of the old JSON form in.
    mutating func unseal(from secrets: RecordSecrets) throws(SecureStoreError) {
        func point(_ hex: String) throws(SecureStoreError) -> SecretBytes {
            var bytes: [UInt8]
            do { bytes = try Hex.decode(hex) } catch { throw SecureStoreError(.corrupt, "a stored M-Pin secret is not hex") }
            defer { SecretBytes.wipe(&bytes) }
            return SecretBytes(bytes)
        }
        if let text = legacyRegOTT { regOTT = SecretBytes(text.utf8) }
        if let hex = legacyPendingClientSecret { pendingClientSecret = try point(hex) }
        if let hex = legacyToken { token = try point(hex) }
        if let hex = legacySigningToken { signingToken = try point(hex) }
        (legacyRegOTT, legacyPendingClientSecret, legacyToken, legacySigningToken) = (nil, nil, nil, nil)
        regOTT = secrets["regOTT"] ?? regOTT
        pendingClientSecret = secrets["pendingClientSecret"] ?? pendingClientSecret
        token = secrets["token"] ?? token
        signingToken = secrets["signingToken"] ?? signingToken
    }
}

/// One stored user: the public view and its secrets.
package struct UserRecord: SealedRecordValue, Sendable {
    var identity: String
    var backend: String
    package var deviceName: String?
    package var state: MPinUser.State
    var customerID: String
    var appID: String
    package var mpinID: String
    var registrationExpiration: MPinUser.Expiration?
    package var pinLength: Int
    package var failedAuthentications: Int
    package var secrets: UserSecrets

    package init(_ user: MPinUser, secrets: UserSecrets = UserSecrets()) {
        identity = user.identity
        backend = user.backend
        deviceName = user.deviceName
        state = user.state
        customerID = user.customerID
        appID = user.appID
        mpinID = user.mpinID
        registrationExpiration = user.registrationExpiration
        pinLength = user.pinLength
        failedAuthentications = user.failedAuthentications
        self.secrets = secrets
    }

    package func sealSecrets(into secrets: inout RecordSecrets) { self.secrets.seal(into: &secrets) }

    package mutating func unsealSecrets(from secrets: RecordSecrets) throws(SecureStoreError) { try self.secrets.unseal(from: secrets) }

    /// The public view.
    package var user: MPinUser {
        var user = MPinUser(identity: identity, backend: backend, deviceName: deviceName)
        user.state = state
        user.customerID = customerID
        user.appID = appID
        user.mpinID = mpinID
        user.registrationExpiration = registrationExpiration
        user.pinLength = pinLength
        user.canSign = secrets.signingToken != nil
        user.failedAuthentications = failedAuthentications
        return user
    }
}

/// The users in a secure store. Every write is a ``RecordStore`` write under the store's lock;
/// ``update(identity:backend:_:)`` is the read-modify-write that starts from the freshest stored
/// copy, for changes that must not lose another process's (a failure count, a cached permit).
package struct UserRecords: Sendable {
    let store: SecureStore
    static let prefix = "mpin.user."

    package init(store: SecureStore) { self.store = store }

    package static func recordName(identity: String, backend: String) -> String {
        prefix + Hex.encode(SHA256.hash(data: Array((backend + "\n" + identity).utf8)).bytes.prefix(16))
    }

    private func recordStore(_ name: String) throws(MPinError) -> RecordStore<UserRecord> {
        do { return try RecordStore(store: store, name: name) } catch {
            throw MPinError(.store, "\(name) is not a valid record name", storeError: error)
        }
    }

    package func read(identity: String, backend: String) throws(MPinError) -> UserRecord? {
        try read(record: Self.recordName(identity: identity, backend: backend))
    }

    package func write(_ record: UserRecord) throws(MPinError) {
        let records = try recordStore(Self.recordName(identity: record.identity, backend: record.backend))
        do { try records.write(record) } catch {
            throw MPinError(.store, "the user record cannot be written", storeError: error)
        }
    }

    /// Changes the stored record of `identity` at `backend` under the store's lock, starting
    /// from the freshest copy on disk (nil when there is none; setting nil removes it).
    package func update<R>(identity: String, backend: String, _ change: (inout UserRecord?) throws(MPinError) -> R) throws(MPinError) -> R {
        try recordStore(Self.recordName(identity: identity, backend: backend))
            .update(change, storeError: { MPinError(.store, "the user record cannot be updated", storeError: $0) })
    }

    func remove(identity: String, backend: String) throws(MPinError) {
        let records = try recordStore(Self.recordName(identity: identity, backend: backend))
        do { try records.remove() } catch {
            throw MPinError(.store, "the user record cannot be removed", storeError: error)
        }
    }

    /// Every stored user, of every backend, sorted by backend then identity.
    func all() throws(MPinError) -> [UserRecord] {
        let names: [String]
        do { names = try store.names().filter { $0.hasPrefix(Self.prefix) } } catch {
            throw MPinError(.store, "the store cannot be listed", storeError: error)
        }
        var records: [UserRecord] = []
        for name in names { if let record = try read(record: name) { records.append(record) } }
        return records.sorted { ($0.backend, $0.identity) < ($1.backend, $1.identity) }
    }

    private func read(record name: String) throws(MPinError) -> UserRecord? {
        let records = try recordStore(name)
        do { return try records.read() } catch {
            throw MPinError(.store, error.kind == .corrupt ? "the record \(name) is not an M-Pin user" : "the user record cannot be read", storeError: error)
        }
    }
}
