// The key handles PKCS11DeviceKeyStore gives out: a label and a public key, never key bytes.
// Each operation is one session, one C_Sign or C_Decrypt (docs/protocols/saltedge-v2.md §2, §5.2, §3.3;
// docs/protocols/cm-authenticator.md HS256).

public import CryptoPrimitives
public import SecureStore

/// An RSA key pair in a token. Holds only its label and its public key.
public struct PKCS11RSAKey: DeviceRSAKey, CustomStringConvertible {
    /// The store whose token holds the key.
    public let store: PKCS11DeviceKeyStore
    /// The key's `CKA_LABEL` in the token.
    public let tokenLabel: String
    /// The public half, read from the token.
    public let publicKey: RSA.Signing.PublicKey

    /// RSASSA-PKCS1-v1_5 with SHA-256 in the token (`CKM_SHA256_RSA_PKCS`, RFC 8017 §8.2.1).
    public func signSHA256PKCS1(_ message: [UInt8]) throws(DeviceKeyError) -> RSA.Signing.RSASignature {
        let signature = try store.run("signing with \(tokenLabel)", readWrite: false) { (session) throws(PKCS11Error) -> SecretBytes in
            let key = try PKCS11DeviceKeyStore.privateKey(tokenLabel, in: session)
            return try session.sign(message, key: key, mechanism: .sha256RSAPKCS)
        }
        guard signature.count == (publicKey.keySizeInBits + 7) / 8 else {
            throw DeviceKeyError(.operationFailed, "CKM_SHA256_RSA_PKCS gave \(signature.count) bytes, not one modulus")
        }
        return RSA.Signing.RSASignature(rawRepresentation: signature.unsafeExposedBytes)
    }

    /// RSAES-PKCS1-v1_5 decryption of one block in the token (`CKM_RSA_PKCS`, RFC 8017
    /// §7.2.2). Every failure of `C_Decrypt` is the one `DeviceKeyError/Code/operationFailed`,
    /// its return value not kept, and so is a message that is not `messageByteCount` bytes long
    /// (when given), so the error says nothing about the padding — except the return values
    /// that say the token or session went away (`deviceGone`), which are
    /// `DeviceKeyError/Code/unavailable` as for any other operation. (The token's time may
    /// tell: unlike the software key, a module is not known to decrypt with implicit rejection.)
    public func decryptPKCS1v15(_ ciphertext: [UInt8], messageByteCount: Int?) throws(DeviceKeyError) -> SecretBytes {
        var decryptFailed = false
        let message: SecretBytes
        do throws(PKCS11Error) {
            message = try store.provider.withSession(readWrite: false) { (session) throws(PKCS11Error) -> SecretBytes in
                let key = try PKCS11DeviceKeyStore.privateKey(tokenLabel, in: session)
                do throws(PKCS11Error) { return try session.decrypt(ciphertext, key: key, mechanism: .insecureRSAPKCS1v1_5) } catch {
                    decryptFailed = error.function == "C_Decrypt" && !(error.returnValue.map(Self.deviceGone.contains) ?? false)
                    throw error
                }
            }
        } catch {
            guard !decryptFailed else { throw DeviceKeyError(.operationFailed, "the block does not decrypt") }
            throw PKCS11DeviceKeyStore.deviceKeyError(error, "decrypting with \(tokenLabel)")
        }
        guard messageByteCount.map({ message.count == $0 }) ?? true else { throw DeviceKeyError(.operationFailed, "the block does not decrypt") }
        return message
    }

    /// `C_Decrypt` return values that say nothing about the block: the device, the token, the
    /// session or the login went away (PKCS #11 v2.40 §5.1).
    static let deviceGone: Set<CKReturnValue> = [
        CKReturnValue(rawValue: 0x30), CKReturnValue(rawValue: 0x31), CKReturnValue(rawValue: 0x32),  // CKR_DEVICE_ERROR, _MEMORY, _REMOVED
        CKReturnValue(rawValue: 0xB0), CKReturnValue(rawValue: 0xB3),  // CKR_SESSION_CLOSED, CKR_SESSION_HANDLE_INVALID
        .tokenNotPresent, .userNotLoggedIn, .cryptokiNotInitialized,
    ]

    /// The label only.
    public var description: String { "PKCS11RSAKey(\(tokenLabel))" }
}

/// An HMAC-SHA256 key in a token. Holds only its label.
public struct PKCS11HMACKey: DeviceHMACKey, CustomStringConvertible {
    /// The store whose token holds the key.
    public let store: PKCS11DeviceKeyStore
    /// The key's `CKA_LABEL` in the token.
    public let tokenLabel: String

    /// HMAC-SHA256 in the token (`CKM_SHA256_HMAC`, RFC 2104), 32 bytes.
    public func authenticationCode(for message: [UInt8]) throws(DeviceKeyError) -> SecretBytes {
        let mac = try store.run("authenticating with \(tokenLabel)", readWrite: false) { (session) throws(PKCS11Error) -> SecretBytes in
            try session.sign(message, key: PKCS11DeviceKeyStore.secretKey(tokenLabel, in: session), mechanism: .sha256HMAC)
        }
        guard mac.count == 32 else { throw DeviceKeyError(.operationFailed, "CKM_SHA256_HMAC gave \(mac.count) bytes, not 32") }
        return mac
    }

    /// The label only.
    public var description: String { "PKCS11HMACKey(\(tokenLabel))" }
}
