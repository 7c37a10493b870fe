// The persistent half of a PowerAuth activation: the activation record of one SDK instance in the secure store, and signing that is
// serialised across tasks *and* processes and crash-safe — the advanced counter is written and
// fsynced before the signature leaves (docs/protocols/powerauth.md §7.1, §16 "Serialization"; docs/design.md §2,
// habit 16: state before side effects).

public import CryptoPrimitives
public import PowerAuth
public import ProtocolSupport
public import SecureStore

/// The stored activation of one `instanceID` and the signing step that consumes its counter.
///
/// Any number of `ActivationStore` values, in any number of processes, may share a directory:
/// `sign(method:uriID:body:factors:authentication:configuration:)` holds the store's exclusive
/// lock while it reads the record, computes the signature and writes the advanced record, so no
/// two signatures ever use one counter, and a crash at any point leaves either the old record
/// (the signature never left) or the new one (the server sees at most a skipped counter, which
/// its look-ahead window absorbs and the next status check resynchronises).
///
/// Not API: `PowerAuthClient` is. Exposed as SPI (`@_spi(Internals) import PowerAuthSDK`) for
/// the tools and tests that drive the record directly — crash-safety tests that kill a signer,
/// the store benchmark rows.
@_spi(Internals) public struct ActivationStore: Sendable {
    /// The secure store holding the record.
    public let store: SecureStore
    /// The namespace of this instance's records (`PowerAuthConfiguration.instanceId`).
    public let instanceID: String

    /// `powerauth.<instance>.activation`.
    let record: InstanceRecord

    /// `powerauth.<instance>.deadlock`: the id of an activation whose counter the last status
    /// check found irreconcilable (docs/protocols/powerauth.md §6.4 DEADLOCK). Kept on disk so that another
    /// process (another `mfa` run) refuses to sign too.
    let deadlockRecord: InstanceRecord

    /// The store for `instanceID` in `store`. Throws `SecureStoreError.Kind.invalidName` for an
    /// instance id that cannot name a record.
    public init(store: SecureStore, instanceID: String) throws(SecureStoreError) {
        self.store = store
        self.instanceID = instanceID
        record = try InstanceRecord(checking: "activation", of: instanceID, in: store)
        deadlockRecord = InstanceRecord("deadlock", of: instanceID, in: store)
    }

    /// The stored activation, or nil when this instance has none.
    public func activation() throws(PowerAuthSDKError) -> PowerAuth.ActivationData? {
        guard let bytes = try record.read() else { return nil }
        // A record written before the sealed form: format-1 JSON, the portable serialization.
        if bytes.withUnsafeBytes({ $0.first }) == UInt8(ascii: "{") {
            do {
                return try bytes.withUnsafeBytes { raw throws(ProtocolError) in try PowerAuth.ActivationData(serialized: raw) }
            } catch {
                throw PowerAuthSDKError(.store, "the activation record is not a valid activation", protocolError: error)
            }
        }
        let stored: ActivationRecord
        do { stored = try RecordStore<ActivationRecord>.decode(bytes, name: record.name) } catch {
            throw PowerAuthSDKError(.store, "the activation record is not a valid activation", storeError: error)
        }
        return try stored.activation()
    }

    /// Stores `activation` (durable when this returns).
    public func save(_ activation: PowerAuth.ActivationData) throws(PowerAuthSDKError) {
        try record.write(try encoded(activation))
    }

    /// The record's plaintext for `activation` (ActivationRecord.swift).
    private func encoded(_ activation: PowerAuth.ActivationData) throws(PowerAuthSDKError) -> SecretBytes {
        do { return try RecordStore<ActivationRecord>.encode(ActivationRecord(activation), name: record.name) } catch {
            throw PowerAuthSDKError(.store, "the activation record cannot be encoded", storeError: error)
        }
    }

    /// Stores a new activation, under the store's lock, only if none is stored: another client
    /// or process that persisted one while this one waited for the server keeps it
    /// (`PowerAuthSDKError.Code.invalidActivationState`).
    public func create(_ activation: PowerAuth.ActivationData) throws(PowerAuthSDKError) {
        let plaintext = try encoded(activation)
        let created: Bool
        do {
            created = try store.withExclusiveAccess { () throws(SecureStoreError) -> Bool in
                guard try store.read(record.name) == nil else { return false }
                try store.write(plaintext, to: record.name)
                return true
            }
        } catch {
            throw PowerAuthSDKError(.store, "the activation record cannot be written", storeError: error)
        }
        guard created else { throw PowerAuthSDKError(.invalidActivationState, "another activation was persisted meanwhile; remove it first") }
    }

    /// Removes the stored activation (durable when this returns).
    public func remove() throws(PowerAuthSDKError) {
        try record.remove()
    }

    /// Signs `body` for `uriID` with the stored activation (docs/protocols/powerauth.md §7.2–§7.5) and returns
    /// the `X-PowerAuth-Authorization` header. Under the store's exclusive lock: read the record,
    /// unlock the factor keys, compute the signature, write the advanced record and fsync it —
    /// only then does the header exist for the caller to send. The signature's nonce comes from
    /// `random` (the system's CSPRNG unless given; a client passes its configured source).
    public func sign(method: String, uriID: String, body: [UInt8], factors: PowerAuth.SignatureFactors,
                     authentication: Authentication, configuration: PowerAuth.Configuration,
                     random: some RandomSource = SystemRandomSource()) throws(PowerAuthSDKError) -> HTTPHeader {
        var random = random
        return try consumeCounter { activation throws(PowerAuthSDKError) in
            let keys = try authentication.signatureKeys(for: factors, activation: activation)
            do throws(ProtocolError) {
                let signed = try PowerAuth.sign(method: method, uriID: uriID, body: body, activation: activation, factors: factors,
                                                keys: keys, configuration: configuration, version: activation.protocolVersion, using: &random)
                return (signed.header, signed.next)
            } catch {
                throw PowerAuthSDKError(.signing, "the signature cannot be computed", protocolError: error)
            }
        }
    }

    /// The write-ahead step every counter-consuming operation shares (§7.1): under the store's
    /// exclusive lock, `step` builds its output from the stored activation and returns the
    /// activation to keep (the counter advanced); that record is written and fsynced before
    /// the output is returned, so whatever carries the counter can only leave afterwards.
    public func consumeCounter<Output: Sendable>(
        _ step: (PowerAuth.ActivationData) throws(PowerAuthSDKError) -> (Output, next: PowerAuth.ActivationData)
    ) throws(PowerAuthSDKError) -> Output {
        try withStoredActivation(refusingDeadlock: true, step)
    }

    /// Replaces the stored activation with `change(stored)` under the store's exclusive lock
    /// (password change, biometry): a concurrent signer in another process cannot interleave.
    public func update(_ change: (PowerAuth.ActivationData) throws(PowerAuthSDKError) -> PowerAuth.ActivationData) throws(PowerAuthSDKError) {
        let _: Bool = try withStoredActivation(refusingDeadlock: false) { activation throws(PowerAuthSDKError) in (true, try change(activation)) }
    }

    /// Read, `step`, write under the exclusive lock; a signing step is refused with
    /// ``PowerAuthSDKError/Code/counterDeadlock`` when the activation is marked deadlocked
    /// (§6.4: its signatures can no longer be accepted, and each would cost a failed attempt).
    private func withStoredActivation<Output: Sendable>(
        refusingDeadlock: Bool, _ step: (PowerAuth.ActivationData) throws(PowerAuthSDKError) -> (Output, next: PowerAuth.ActivationData)
    ) throws(PowerAuthSDKError) -> Output {
        try record.withExclusiveAccess { () throws(PowerAuthSDKError) -> Output in
            guard let activation = try activation() else { throw PowerAuthSDKError(.missingActivation, "no activation to sign with") }
            if refusingDeadlock, try isDeadlocked(activation) {
                throw PowerAuthSDKError(.counterDeadlock, "the signature counter cannot be reconciled with the server's (DEADLOCK): "
                                        + "remove the activation and activate this device again")
            }
            let (result, next) = try step(activation)
            try save(next)  // write-ahead: the counter moves on disk before the output exists
            return result
        }
    }

    /// Applies the §6.4 decision to the stored counter under the store's lock and returns it:
    /// a server that is ahead by `steps` has its counter adopted; a deadlock marks the
    /// activation so that signing is refused (here and in every other process) until it is
    /// removed; any other outcome clears such a mark. Sending the synchronisation signature
    /// for `CounterSynchronization.signatureRecommended` is the caller's.
    public func synchronizeCounter(with status: PowerAuth.ActivationStatus,
                                   transportKey: SymmetricKey) throws(PowerAuthSDKError) -> PowerAuth.CounterSynchronization {
        try record.withExclusiveAccess { () throws(PowerAuthSDKError) -> PowerAuth.CounterSynchronization in
            guard var activation = try activation() else { throw PowerAuthSDKError(.missingActivation, "no activation") }
            // §6.4 is a 3.1+ rule: a 3.0 status blob carries no counter to compare.
            guard activation.protocolVersion >= .v3_1 else { return .synchronized }
            let decision = PowerAuth.counterSynchronization(for: activation, status: status, transportKey: transportKey)
            switch decision {
            case .adopt(_, let steps):
                for _ in 0..<steps { activation = activation.advanced }
                try save(activation)
                try clearDeadlock()
            case .deadlock:
                try deadlockRecord.write(SecretBytes(Array(activation.activationID.utf8)))
            case .synchronized, .signatureRecommended:
                try clearDeadlock()
            }
            return decision
        }
    }

    /// Whether `activation` is marked deadlocked (§6.4).
    func isDeadlocked(_ activation: PowerAuth.ActivationData) throws(PowerAuthSDKError) -> Bool {
        guard let marker = try deadlockRecord.read() else { return false }
        return marker.withUnsafeBytes { Array($0) } == Array(activation.activationID.utf8)
    }

    /// Removes the deadlock mark, if any (durable when this returns).
    public func clearDeadlock() throws(PowerAuthSDKError) {
        try deadlockRecord.removeIfPresent()
    }
}

/// The secrets that unlock the factor keys for one operation (`PowerAuthAuthentication`).
public struct Authentication: Sendable {
    /// The possession unlock key (the device-bound secret).
    public let possessionUnlockKey: SymmetricKey
    /// The password, for the knowledge factor.
    public let password: SecretBytes?
    /// The biometry unlock key, for the biometry factor.
    public let biometryUnlockKey: SymmetricKey?

    /// Possession only, or with a password and/or a biometry key.
    public init(possessionUnlockKey: SymmetricKey, password: SecretBytes? = nil, biometryUnlockKey: SymmetricKey? = nil) {
        self.possessionUnlockKey = possessionUnlockKey
        self.password = password
        self.biometryUnlockKey = biometryUnlockKey
    }

    /// The factors this authentication can sign with: possession, plus knowledge with a
    /// password, plus biometry with a biometry key (`PowerAuthAuthentication`'s flags).
    public var factors: PowerAuth.SignatureFactors {
        switch (password != nil, biometryUnlockKey != nil) {
        case (false, false): .possession
        case (true, false): .possessionKnowledge
        case (false, true): .possessionBiometry
        case (true, true): .possessionKnowledgeBiometry
        }
    }

    /// The factor keys of `activation` for `factors`; a wrong password is only detected by the
    /// server (docs/protocols/powerauth.md §4.2).
    func signatureKeys(for factors: PowerAuth.SignatureFactors, activation: PowerAuth.ActivationData) throws(PowerAuthSDKError) -> PowerAuth.SignatureKeys {
        do {
            return try activation.signatureKeys(for: factors, possessionUnlockKey: possessionUnlockKey, password: password,
                                                biometryUnlockKey: biometryUnlockKey)
        } catch {
            throw PowerAuthSDKError(.invalidAuthentication, "the factor keys do not unlock: \(error.code)", protocolError: error)
        }
    }
}
