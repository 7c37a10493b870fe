// Where an environment secret is kept (cm-authenticator.md §3, §5, §8): sealed in the
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
    /// `deviceKey` and nothing is sent.
    func keepSecret(of scanned: CMAuthenticator.Environment,
                    using random: inout some RandomSource) throws(CMClientError) -> (environment: CMAuthenticator.Environment, keyLabel: String?) {
        guard deviceKeys.holdsKeys, let secret = scanned.secret.softwareSecret else { return (scanned, nil) }
        let suffix: [UInt8]
        do { suffix = try random.bytes(count: 16) } catch {
            throw CMClientError(.invalidInput, "the random source failed", protocolError: ProtocolError(error, "key label"))
        }
        let label = "cm-" + Hex.encode(suffix)
        do {
            let key = try deviceKeys.makeHMACKey(label: label, secret: secret)
            return (CMAuthenticator.Environment(id: scanned.id, secret: CMAuthenticator.EnvironmentSecret(held: DeviceEnvironmentKey(key: key, keyLabel: label))), label)
        } catch where error.code == .unsupported {
            return (scanned, nil)  // the token cannot hold a secret key: sealed in the record, as documented
        } catch {
            throw CMClientError(.deviceKey, "the environment secret cannot be put in the token: \(error.code)",
                                protocolError: ProtocolError(keyUnavailable: error, "the environment secret cannot be put in the token"))
        }
    }

    /// Deletes a secret imported for an environment that was never stored (the server refused
    /// it, or the record could not be written). Best effort: the failure that got here is the
    /// one reported, and a key left behind is only an unnamed object in the token.
    func discardUnsaved(_ label: String?) {
        guard let label else { return }
        do { try deviceKeys.deleteHMACKey(label: label) } catch {
            // Left in the token under a label no record names; the caller's error is reported.
        }
    }
}

extension DeviceRecords {
    /// The ids of the environments whose secret lives in a device key store.
    func environmentsWithHeldKeys() throws(CMClientError) -> [String] {
        let names: [String]
        do { names = try store.names().filter { $0.hasPrefix("cm.environment.") } } catch {
            throw CMClientError(.store, "the store cannot be listed", storeError: error)
        }
        var ids: [String] = []
        for name in names {
            let records: RecordStore<EnvironmentRecord> = try Self.record(store, name)
            do { if let record = try records.read(), record.keyLabel != nil { ids.append(record.id) } } catch {
                throw CMClientError(.store, "\(name) cannot be read", storeError: error)
            }
        }
        return ids.sorted()
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
