// The activation fingerprint (docs/protocols/powerauth.md §5.3): shown to the user to detect a swapped key.

public import CryptoPrimitives

extension PowerAuth {
    /// The 8-digit v3 fingerprint: decimalize(SHA-256(X(device) ‖ UTF-8(activationId) ‖
    /// X(server)), 8), where X is the affine x-coordinate **without leading zero bytes**.
    public static func activationFingerprint(devicePublicKey: P256.KeyAgreement.PublicKey, activationID: String,
                                             serverPublicKey: P256.KeyAgreement.PublicKey) -> String {
        let message = minimalX(devicePublicKey) + Array(activationID.utf8) + minimalX(serverPublicKey)
        return Signature.decimalize(SHA256.hash(data: message).bytes, digits: 8)
    }

    /// The x-coordinate as an unsigned big-endian integer without leading zeros (§5.3).
    static func minimalX(_ key: P256.KeyAgreement.PublicKey) -> [UInt8] {
        let x = Array(key.rawRepresentation.prefix(32))
        return Array(x.drop(while: { $0 == 0 }))
    }
}
