// Shared helpers for the elliptic-curve checkers: vector integers to fixed-width bytes, and
// P-256 keys from the pieces vector files give.

import CryptoPrimitives
import VectorFormats

enum ECInputs {
    /// A big-endian integer of any length as exactly `count` bytes; nil when it does not fit.
    static func fixed(_ bytes: [UInt8], _ count: Int = 32) -> [UInt8]? {
        let trimmed = Array(bytes.drop { $0 == 0 })
        guard trimmed.count <= count else { return nil }
        return [UInt8](repeating: 0, count: count - trimmed.count) + trimmed
    }

    /// A public key from separate x and y integers (CAVP `Qx`, `Qy`); nil when either is too long
    /// or the point is not acceptable.
    static func publicKey<Purpose: P256KeyPurpose>(x: [UInt8], y: [UInt8], _: Purpose.Type = Purpose.self) -> P256.PublicKey<Purpose>? {
        guard let x = fixed(x), let y = fixed(y) else { return nil }
        return try? P256.PublicKey<Purpose>(rawRepresentation: x + y)
    }

    /// A private key from an integer of any length.
    static func privateKey<Purpose: P256KeyPurpose>(_ d: [UInt8], _: Purpose.Type = Purpose.self) -> P256.PrivateKey<Purpose>? {
        guard let d = fixed(d) else { return nil }
        return try? P256.PrivateKey<Purpose>(rawRepresentation: d)
    }

    /// A signature from r and s integers; nil when either does not fit 32 bytes.
    static func signature(r: [UInt8], s: [UInt8]) -> P256.Signing.ECDSASignature? {
        guard let r = fixed(r), let s = fixed(s) else { return nil }
        return try? P256.Signing.ECDSASignature(rawRepresentation: r + s)
    }
}
