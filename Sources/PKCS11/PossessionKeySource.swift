// The PowerAuth possession factor bound to a device: the possession unlock key is computed
// inside the token that keys the store, so it exists only while that token answers.
//
// What it protects: a copy of the store directory (a backup, a cloned disk, a stolen laptop's
// files) cannot sign with the possession factor anywhere else, because the key that unlocks it
// was never on disk. What it does not: anyone who can run code as the user (or root) on this
// device while the token is present (and its PIN is available to them, e.g. via a pin-source
// file) can ask the token for the same key and sign; a token is a possession factor, not a
// knowledge one.

public import CryptoPrimitives

/// Gives a PowerAuth activation its possession unlock key (docs/protocols/powerauth.md §4.2).
public protocol PossessionKeySource: Sendable {
    /// The 16-byte possession unlock key of the activation `instanceID`.
    func possessionUnlockKey(instanceID: String) throws -> SymmetricKey
}

/// The possession unlock key derived inside a PKCS #11 token:
/// `HMAC-SHA256(K_token, "PowerAuth possession v2" ‖ storeIdentifier ‖ instanceID)`, first 16
/// bytes, under the same token key as the store (``PKCS11KeyProvider``; the two derivation
/// labels differ from their first byte, so the inputs never collide, and the 16-byte store
/// identifier has a fixed length, so it and the instance never run together). Two stores on one
/// token give one instance name two different keys. The key object must already exist: this
/// source never creates one.
public struct PKCS11PossessionKeySource: PossessionKeySource {
    /// The fixed prefix of the HMAC input.
    public static let derivationLabel = Array("PowerAuth possession v2".utf8)

    /// The provider whose token, key object and PIN are used.
    public let provider: PKCS11KeyProvider

    /// A source over the token and key `provider` reaches.
    public init(provider: PKCS11KeyProvider) {
        self.provider = provider
    }

    /// The 16-byte key; throws ``PKCS11Error`` (``PKCS11Error/Kind/objectNotFound`` when the
    /// token has no key object: another token, or a wiped one).
    public func possessionUnlockKey(instanceID: String) throws -> SymmetricKey {
        try derive(instanceID: instanceID)
    }

    /// ``possessionUnlockKey(instanceID:)`` with its error typed.
    public func derive(instanceID: String) throws(PKCS11Error) -> SymmetricKey {
        let mac = try provider.withSession(readWrite: false) { (session) throws(PKCS11Error) -> SecretBytes in
            let key = try provider.tokenKey(in: session, mayCreate: false)
            return try session.sign(Self.derivationLabel + provider.storeIdentifier.bytes + Array(instanceID.utf8), key: key, mechanism: .sha256HMAC)
        }
        guard mac.count == 32 else {
            throw PKCS11Error(.unexpectedOutput, "CKM_SHA256_HMAC gave \(mac.count) bytes, not 32", function: "C_Sign")
        }
        return SymmetricKey(secret: mac.withUnsafeBytes { SecretBytes($0.prefix(16)) })
    }
}
