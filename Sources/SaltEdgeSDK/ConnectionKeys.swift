// Where a connection's RSA key pair is made and used (docs/protocols/saltedge-v2.md §2.1): in memory and sealed
// in the connection's record (the software store, the default), or generated in a PKCS #11 token
// (`PKCS11DeviceKeyStore`), where it signs requests (§5.2) and decrypts bundles and the access
// token (§3.3, §4) without its bytes ever reaching this process. The protocol core sees only
// `SaltEdge.HeldConnectionKey`; this file adapts a `DeviceRSAKey` to it.

import CryptoPrimitives
import ProtocolSupport
import SaltEdge
package import SecureStore

/// A connection key in a `DeviceKeyStore`, as the protocol core uses it. A failure of the key
/// store is `ProtocolError.Code.keyUnavailable` with the `DeviceKeyError` kept; a block that does
/// not decrypt is nil, folded into the core's one decryption verdict.
struct DeviceConnectionKey: SaltEdge.HeldConnectionKey {
    /// The key in the store.
    let key: any DeviceRSAKey

    /// The public half, as the store read it.
    var publicKey: RSA.Signing.PublicKey { key.publicKey }

    /// RS256 in the store (docs/protocols/saltedge-v2.md §5.2).
    func signSHA256PKCS1(_ message: [UInt8]) throws(ProtocolError) -> RSA.Signing.RSASignature {
        do { return try key.signSHA256PKCS1(message) } catch {
            throw ProtocolError(keyUnavailable: error, "the connection key cannot sign: \(error.code)")
        }
    }

    /// One block decrypted in the store (docs/protocols/saltedge-v2.md §3.3); nil when it does not decrypt.
    func decryptPKCS1v15(_ block: [UInt8], messageByteCount: Int?) throws(ProtocolError) -> SecretBytes? {
        do { return try key.decryptPKCS1v15(block, messageByteCount: messageByteCount) } catch where error.code == .operationFailed {
            return nil  // the block's own failure: the caller folds it into its one verdict
        } catch {
            throw ProtocolError(keyUnavailable: error, "the connection key cannot decrypt: \(error.code)")
        }
    }
}

/// A key pair made for a connection that is not stored yet: its label when a token holds it.
struct NewConnectionKey: Sendable {
    /// The key, as the core uses it.
    let key: SaltEdge.ConnectionKey
    /// Its label in the device key store; nil for a software key.
    let label: String?
    /// The store's write-ahead note of the token key (DeviceKeyIntents.swift), until a record
    /// names it; nil for a software key.
    var intent: DeviceKeyIntent? = nil
}

extension ConnectionRecords {
    /// A fresh RSA-2048 key pair for a new connection (docs/protocols/saltedge-v2.md §2.1): from `random` in
    /// memory with the software store, else generated in the store's token under a fresh random
    /// label (`saltedge-` and 32 hex digits: the connection id is not known before the server
    /// answers). A token that cannot make it is `deviceKey` and nothing is
    /// sent.
    func makeConnectionKey(using random: inout some RandomSource) throws(SaltEdgeClientError) -> NewConnectionKey {
        guard deviceKeys.holdsKeys else {
            do { return NewConnectionKey(key: try SaltEdge.ConnectionKey(generatingWith: &random), label: nil) } catch {
                throw SaltEdgeClientError(.invalidInput, "the connection key cannot be made", protocolError: error)
            }
        }
        let suffix: [UInt8]
        do { suffix = try random.bytes(count: 16) } catch {
            throw SaltEdgeClientError(.invalidInput, "the random source failed", protocolError: ProtocolError(error, "key label"))
        }
        let label = "saltedge-" + Hex.encode(suffix)
        // The intent first: a process killed after the token makes the key and before a
        // record names it leaves the intent, and the next enrolment's sweep deletes the key.
        let intent: DeviceKeyIntent
        do { intent = try store.beginDeviceKeyIntent(label: label) } catch {
            throw SaltEdgeClientError(.store, "the new key cannot be noted in the store", storeError: error)
        }
        do {
            let key = try deviceKeys.makeRSAKey(label: label)
            return NewConnectionKey(key: SaltEdge.ConnectionKey(held: DeviceConnectionKey(key: key)), label: label, intent: intent)
        } catch {
            // The token may have made the key before it failed: deleted, the intent ends; not
            // deletable, the intent stays for the next sweep.
            intent.settle(saved: false, isNamed: { false }, delete: { discardUnsaved(label) })
            throw SaltEdgeClientError(.deviceKey, "the connection key cannot be made in the token: \(error.code)",
                                      protocolError: ProtocolError(keyUnavailable: error, "the connection key cannot be made in the token"))
        }
    }

    /// Ends the enrolment of `key` (``DeviceKeyIntent/settle(saved:isNamed:delete:)``).
    func settle(_ key: NewConnectionKey, saved: Bool) {
        key.intent?.settle(saved: saved, isNamed: { try names(key.label) }, delete: { discardUnsaved(key.label) })
    }

    /// Whether a stored or pending connection's record names `label`.
    func names(_ label: String?) throws(SaltEdgeClientError) -> Bool {
        try records().contains { $0.keyLabel == label }
    }

    /// Deletes the token keys of enrolments killed between making the key and writing the
    /// record that names it (their intents were left behind), unless a record names the key
    /// after all. A key the token cannot delete now keeps its intent for the next sweep.
    package func sweepAbandonedKeys() throws(SaltEdgeClientError) {
        guard deviceKeys.holdsKeys else { return }
        do {
            try store.sweepAbandonedDeviceKeyIntents(prefix: "saltedge-", isNamed: { try names($0) },
                                                     delete: { try deviceKeys.deleteRSAKey(label: $0) })
        } catch {
            throw SaltEdgeClientError(.store, "the abandoned enrolments cannot be swept", storeError: error)
        }
    }

    /// Deletes the key under `label` (nil: a software key, nothing to delete) that no record
    /// names: made for a connection that was never stored (the server refused it, or the
    /// pending record could not be written), or replaced by a re-link. Best effort: the failure that got here is the
    /// one reported. Whether nothing is left: false when the token kept the key.
    @discardableResult
    func discardUnsaved(_ label: String?) -> Bool {
        guard let label else { return true }
        do { try deviceKeys.deleteRSAKey(label: label) } catch {
            return false  // the caller's error is the one reported; an intent keeps the key named
        }
        return true
    }
}

extension ConnectionRecords {
    /// The ids of the connections (stored or pending) whose key pair lives in a device key
    /// store: moving the records to another store key provider leaves those keys behind.
    func connectionsWithHeldKeys() throws(SaltEdgeClientError) -> [String] {
        Set(try records().filter { $0.keyLabel != nil }.map(\.id)).sorted()
    }

    /// Every connection record, stored and pending.
    func records() throws(SaltEdgeClientError) -> [Record] {
        let names: [String]
        do { names = try store.names().filter { $0.hasPrefix("saltedge.connection.") || $0.hasPrefix("saltedge.pending.") } } catch {
            throw SaltEdgeClientError(.store, "the store cannot be listed", storeError: error)
        }
        var records: [Record] = []
        for name in names { if let record = try read(name) { records.append(record) } }
        return records
    }
}

extension SaltEdgeAuthenticatorClient {
    /// The ids of the connections in `store` (stored or pending) whose key pair lives in a
    /// device key store (a token) rather than in their record. A tool that moves the store's
    /// records elsewhere checks this first: those keys stay in the token and are found there
    /// only under the store's own identifier.
    package static func connectionsWithHeldKeys(in store: SecureStore) throws(SaltEdgeClientError) -> [String] {
        try ConnectionRecords(store: store).connectionsWithHeldKeys()
    }
}
