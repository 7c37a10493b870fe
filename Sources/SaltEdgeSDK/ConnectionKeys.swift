// Where a connection's RSA key pair is made and used (saltedge-v2.md §2.1): in memory and sealed
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

    /// RS256 in the store (saltedge-v2.md §5.2).
    func signSHA256PKCS1(_ message: [UInt8]) throws(ProtocolError) -> RSA.Signing.RSASignature {
        do { return try key.signSHA256PKCS1(message) } catch {
            throw ProtocolError(keyUnavailable: error, "the connection key cannot sign: \(error.code)")
        }
    }

    /// One block decrypted in the store (saltedge-v2.md §3.3); nil when it does not decrypt.
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
}

extension ConnectionRecords {
    /// A fresh RSA-2048 key pair for a new connection (saltedge-v2.md §2.1): from `random` in
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
        do { return NewConnectionKey(key: SaltEdge.ConnectionKey(held: DeviceConnectionKey(key: try deviceKeys.makeRSAKey(label: label))), label: label) } catch {
            throw SaltEdgeClientError(.deviceKey, "the connection key cannot be made in the token: \(error.code)",
                                      protocolError: ProtocolError(keyUnavailable: error, "the connection key cannot be made in the token"))
        }
    }

    /// Deletes the key under `label` (nil: a software key, nothing to delete) that no record
    /// names: made for a connection that was never stored (the server refused it, or the
    /// pending record could not be written), or replaced by a re-link. Best effort: the failure that got here is the
    /// one reported, and a key left behind is only an unnamed object in the token.
    func discardUnsaved(_ label: String?) {
        guard let label else { return }
        do { try deviceKeys.deleteRSAKey(label: label) } catch {
            // Left in the token under a label no record names; the caller's error is reported.
        }
    }
}

extension ConnectionRecords {
    /// The ids of the connections (stored or pending) whose key pair lives in a device key
    /// store: moving the records to another store key provider leaves those keys behind.
    func connectionsWithHeldKeys() throws(SaltEdgeClientError) -> [String] {
        let names: [String]
        do { names = try store.names().filter { $0.hasPrefix("saltedge.connection.") || $0.hasPrefix("saltedge.pending.") } } catch {
            throw SaltEdgeClientError(.store, "the store cannot be listed", storeError: error)
        }
        var ids: Set<String> = []
        for name in names {
            if let record = try read(name), record.keyLabel != nil { ids.insert(record.id) }
        }
        return ids.sorted()
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
