// A device key store that holds its keys (as a token does) in memory, for the SDK tests of the
// paths a token takes: the label carried from a pending record to a stored one, a key deleted
// when the server refuses an enrolment or when its record is replaced or removed. Every operation
// finds its key by label when it runs, as PKCS11DeviceKeyStore does; the real tokens (SoftHSM2,
// swtpm) run the same flows in the Servers hardware-key matrix.

public import CryptoPrimitives
public import SecureStore
import Synchronization

/// Keys by label in memory; `holdsKeys` is true.
public final class MemoryDeviceKeyStore: DeviceKeyStore, Sendable {
    private let rsaKeys = Mutex<[String: RSA.Signing.PrivateKey]>([:])
    private let hmacKeys = Mutex<[String: SecretBytes]>([:])
    /// The key pair every ``makeRSAKey(label:)`` gives (RSA key generation is slow unoptimised);
    /// nil for a store that only holds HMAC keys.
    let template: RSA.Signing.PrivateKey?

    /// A store whose RSA keys are all `template`.
    public init(template: RSA.Signing.PrivateKey? = nil) { self.template = template }

    /// True: the keys live here.
    public var holdsKeys: Bool { true }
    /// The labels of the RSA keys held.
    public var rsaLabels: Set<String> { rsaKeys.withLock { Set($0.keys) } }
    /// The labels of the HMAC keys held.
    public var hmacLabels: Set<String> { hmacKeys.withLock { Set($0.keys) } }

    /// Makes the key `label` from the template; `keyExists` when one is held under it, `unsupported` without a template.
    public func makeRSAKey(label: String) throws(DeviceKeyError) -> any DeviceRSAKey {
        guard let template else { throw DeviceKeyError(.unsupported, "this store makes no RSA keys") }
        let made = rsaKeys.withLock { keys -> Bool in
            guard keys[label] == nil else { return false }
            keys[label] = template
            return true
        }
        guard made else { throw DeviceKeyError(.keyExists, label) }
        return Reference(store: self, label: label, publicKey: template.publicKey)
    }

    /// The RSA key `label`; `keyNotFound` when none is held.
    public func rsaKey(label: String) throws(DeviceKeyError) -> any DeviceRSAKey {
        guard let key = rsaKeys.withLock({ $0[label] }) else { throw DeviceKeyError(.keyNotFound, label) }
        return Reference(store: self, label: label, publicKey: key.publicKey)
    }

    /// A reference to the RSA key `label` with `publicKey`, looked up when it is used.
    public func rsaKeyReference(label: String, publicKey: RSA.Signing.PublicKey) throws(DeviceKeyError) -> any DeviceRSAKey {
        Reference(store: self, label: label, publicKey: publicKey)
    }

    /// Forgets the RSA key `label` (nothing happens when none is held).
    public func deleteRSAKey(label: String) throws(DeviceKeyError) { _ = rsaKeys.withLock { $0.removeValue(forKey: label) } }

    /// Keeps `secret` as the HMAC key `label`; `keyExists` when one is held under it.
    public func makeHMACKey(label: String, secret: SecretBytes) throws(DeviceKeyError) -> any DeviceHMACKey {
        let made = hmacKeys.withLock { keys -> Bool in
            guard keys[label] == nil else { return false }
            keys[label] = secret
            return true
        }
        guard made else { throw DeviceKeyError(.keyExists, label) }
        return HMACReference(store: self, label: label)
    }

    /// The HMAC key `label`; `keyNotFound` when none is held.
    public func hmacKey(label: String) throws(DeviceKeyError) -> any DeviceHMACKey {
        guard hmacKeys.withLock({ $0[label] }) != nil else { throw DeviceKeyError(.keyNotFound, label) }
        return HMACReference(store: self, label: label)
    }

    /// A reference to the HMAC key `label`, looked up when it is used.
    public func hmacKeyReference(label: String) throws(DeviceKeyError) -> any DeviceHMACKey {
        HMACReference(store: self, label: label)
    }

    /// Forgets the HMAC key `label` (nothing happens when none is held).
    public func deleteHMACKey(label: String) throws(DeviceKeyError) { _ = hmacKeys.withLock { $0.removeValue(forKey: label) } }

    /// An RSA key by label, found when it is used.
    struct Reference: DeviceRSAKey {
        let store: MemoryDeviceKeyStore
        let label: String
        let publicKey: RSA.Signing.PublicKey

        func signSHA256PKCS1(_ message: [UInt8]) throws(DeviceKeyError) -> RSA.Signing.RSASignature {
            try SoftwareRSAKey(privateKey: try rsa()).signSHA256PKCS1(message)
        }

        func decryptPKCS1v15(_ ciphertext: [UInt8], messageByteCount: Int?) throws(DeviceKeyError) -> SecretBytes {
            try SoftwareRSAKey(privateKey: try rsa()).decryptPKCS1v15(ciphertext, messageByteCount: messageByteCount)
        }

        private func rsa() throws(DeviceKeyError) -> RSA.Signing.PrivateKey {
            guard let key = store.rsaKeys.withLock({ $0[label] }) else { throw DeviceKeyError(.keyNotFound, label) }
            return key
        }
    }

    /// An HMAC key by label, found when it is used.
    struct HMACReference: DeviceHMACKey {
        let store: MemoryDeviceKeyStore
        let label: String

        func authenticationCode(for message: [UInt8]) throws(DeviceKeyError) -> SecretBytes {
            guard let secret = store.hmacKeys.withLock({ $0[label] }) else { throw DeviceKeyError(.keyNotFound, label) }
            return try SoftwareHMACKey(key: SymmetricKey(secret: secret)).authenticationCode(for: message)
        }
    }
}
