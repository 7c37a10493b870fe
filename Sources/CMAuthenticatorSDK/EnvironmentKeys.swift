// Where an environment secret is kept (docs/protocols/cm-authenticator.md §3, §5, §8): sealed in the
// environment's record (the software store, the default), or imported into a PKCS #11 token
// (`PKCS11DeviceKeyStore`) as a sensitive, unextractable HMAC key that computes the bearer
// JWT's HS256 and `sig` there. The protocol core sees only `CMAuthenticator.HeldEnvironmentKey`;
// this file adapts a `DeviceHMACKey` to it.

import CMAuthenticator
import CryptoPrimitives
import ProtocolSupport
package import SecureStore

/// An environment secret in a `DeviceKeyStore`, as the protocol core uses it; a failure of the
/// key store is `ProtocolError.Code.keyUnavailable` with the `DeviceKeyError` kept.
struct DeviceEnvironmentKey: CMAuthenticator.HeldEnvironmentKey {
    /// The key in the store.
    let key: any DeviceHMACKey
    /// Its label there.
    let keyLabel: String

    /// HMAC-SHA256 in the store (§5).
    func authenticationCode(for message: [UInt8]) throws(ProtocolError) -> SecretBytes {
        do { return try key.authenticationCode(for: message) } catch {
            throw ProtocolError(keyUnavailable: error, "the environment secret cannot authenticate: \(error.code)")
        }
    }
}

extension DeviceRecords {
    /// Keeps a scanned environment's secret: with the software store, in memory (its record will
    /// seal it); else imported into the store's token under a fresh random label (`cm-` and 32
    /// hex digits), the environment then using the token's key. A token that cannot import
    /// secret keys (`DeviceKeyError.Code.unsupported`: tpm2-pkcs11) keeps the secret in the
    /// record as the software store does; any other token failure is
    /// `deviceKey` and nothing is sent. An imported secret comes with the store's write-ahead
    /// note of it (DeviceKeyIntents.swift), to end with ``settle(_:saved:)``.
    func keepSecret(of scanned: CMAuthenticator.Environment,
                    using random: inout some RandomSource) throws(CMClientError) -> KeptSecret {
        guard deviceKeys.holdsKeys, let secret = scanned.secret.softwareSecret else { return KeptSecret(environment: scanned) }
        let suffix: [UInt8]
        do { suffix = try random.bytes(count: 16) } catch {
            throw CMClientError(.invalidInput, "the random source failed", protocolError: ProtocolError(error, "key label"))
        }
        let label = "cm-" + Hex.encode(suffix)
        // The intent first: a process killed after the import and before the environment's
        // record is written leaves the intent, and the next enrolment's sweep deletes the key.
        let intent: DeviceKeyIntent
        do { intent = try store.beginDeviceKeyIntent(label: label) } catch {
            throw CMClientError(.store, "the new key cannot be noted in the store", storeError: error)
        }
        do {
            let key = try deviceKeys.makeHMACKey(label: label, secret: secret)
            let held = CMAuthenticator.EnvironmentSecret(held: DeviceEnvironmentKey(key: key, keyLabel: label))
            return KeptSecret(environment: CMAuthenticator.Environment(id: scanned.id, secret: held), keyLabel: label, intent: intent)
        } catch where error.code == .unsupported {
            intent.settle(saved: false, isNamed: { false }, delete: { true })  // the token refused the import: no key was made
            return KeptSecret(environment: scanned)  // the token cannot hold a secret key: sealed in the record, as documented
        } catch {
            // The token may have imported the key before it failed: deleted, the intent ends;
            // not deletable, the intent stays for the next sweep.
            intent.settle(saved: false, isNamed: { false }, delete: { discardUnsaved(label) })
            throw CMClientError(.deviceKey, "the environment secret cannot be put in the token: \(error.code)",
                                protocolError: ProtocolError(keyUnavailable: error, "the environment secret cannot be put in the token"))
        }
    }

    /// Deletes a secret imported for an environment that was never stored (the server refused
    /// it, or the record could not be written), or replaced. Best effort: the failure that got
    /// here is the one reported. Whether nothing is left: false when the token kept the key.
    @discardableResult
    func discardUnsaved(_ label: String?) -> Bool {
        guard let label else { return true }
        do { try deviceKeys.deleteHMACKey(label: label) } catch {
            return false  // the caller's error is the one reported; an intent keeps the key named
        }
        return true
    }

    /// Ends the enrolment of `kept` (``DeviceKeyIntent/settle(saved:isNamed:delete:)``).
    func settle(_ kept: KeptSecret, saved: Bool) {
        kept.intent?.settle(saved: saved, isNamed: { try names(kept.keyLabel) }, delete: { discardUnsaved(kept.keyLabel) })
    }

    /// Whether an environment's record names `label`.
    func names(_ label: String?) throws(CMClientError) -> Bool {
        try environmentRecords().contains { $0.keyLabel == label }
    }

    /// Deletes the token keys of enrolments killed between the import and the record that
    /// names the key (their intents were left behind), unless a record names the key after
    /// all. A key the token cannot delete now keeps its intent for the next sweep.
    func sweepAbandonedKeys() throws(CMClientError) {
        guard deviceKeys.holdsKeys else { return }
        do {
            try store.sweepAbandonedDeviceKeyIntents(prefix: "cm-", isNamed: { try names($0) },
                                                     delete: { try deviceKeys.deleteHMACKey(label: $0) })
        } catch {
            throw CMClientError(.store, "the abandoned enrolments cannot be swept", storeError: error)
        }
    }
}

/// An environment's secret as enrolment keeps it: in the environment (software), or imported
/// into the token under `keyLabel`, noted by `intent` until a record names it.
struct KeptSecret: Sendable {
    /// The environment, its secret software or held.
    package let environment: CMAuthenticator.Environment
    /// The imported key's label; nil for a software secret.
    var keyLabel: String? = nil
    /// The store's write-ahead note of the imported key; nil for a software secret.
    var intent: DeviceKeyIntent? = nil
}

extension DeviceRecords {
    /// The ids of the environments whose secret lives in a device key store.
    func environmentsWithHeldKeys() throws(CMClientError) -> [String] {
        try environmentRecords().filter { $0.keyLabel != nil }.map(\.id).sorted()
    }

    /// Every environment record.
    func environmentRecords() throws(CMClientError) -> [EnvironmentRecord] {
        let names: [String]
        do { names = try store.names().filter { $0.hasPrefix("cm.environment.") } } catch {
            throw CMClientError(.store, "the store cannot be listed", storeError: error)
        }
        var found: [EnvironmentRecord] = []
        for name in names {
            let records: RecordStore<EnvironmentRecord> = try Self.record(store, name)
            do { if let record = try records.read() { found.append(record) } } catch {
                throw CMClientError(.store, "\(name) cannot be read", storeError: error)
            }
        }
        return found
    }
}

extension CMAuthenticatorClient {
    /// The ids of the environments in `store` whose secret lives in a device key store (a
    /// token) rather than in their record. A tool that moves the store's records elsewhere
    /// checks this first: those keys stay in the token, found only under the store's own
    /// identifier.
    package static func environmentsWithHeldKeys(in store: SecureStore) throws(CMClientError) -> [String] {
        try DeviceRecords(store: store).environmentsWithHeldKeys()
    }
}
