// Deterministic (and hedged) ECDSA nonces: RFC 6979 §3.2, with §3.6's additional data.

import CryptoCore

/// The HMAC-DRBG of RFC 6979 §3.2 over the hash H, for the P-256 order. Its state V lives in
/// wiped storage (the keyed HMAC state cannot: it is a value of the hash engine, held only on
/// the stack).
package struct RFC6979<H: HashFunction> {
    private var keyed: HMAC<H>
    private var v: SecretBytes

    /// Steps b–g of RFC 6979 §3.2: seeds the DRBG with int2octets(x) ‖ bits2octets(h1) and,
    /// when hedging, fresh random bytes (§3.6: "additional data k′"). Every working copy of
    /// the private key is wiped before return.
    package init(privateKey: UnsafeRawBufferPointer, digest: some Collection<UInt8>, additionalData: [UInt8]) {
        let h1 = P256.Scalar(digest: digest).canonicalBytes  // bits2octets(h1) = int2octets(bits2int(h1) mod q)
        v = SecretBytes([UInt8](repeating: 0x01, count: H.byteCount))
        keyed = HMAC<H>(key: SymmetricKey(data: [UInt8](repeating: 0x00, count: H.byteCount)))
        var seed = [UInt8](privateKey) + h1 + additionalData
        defer { SecretBytes.wipe(&seed) }
        keyed = Self.rekey(keyed, v, separator: 0x00, seed)  // step d
        Self.step(keyed, &v)                                   // step e
        keyed = Self.rekey(keyed, v, separator: 0x01, seed)  // step f
        Self.step(keyed, &v)                                   // step g
    }

    /// Step h: the next candidate k in [1, n), as its 32 big-endian bytes.
    ///
    /// ⚠️ One bit of bias in k is enough for a lattice attack to recover the private key:
    /// candidates outside [1, n) are rejected and redrawn, never reduced mod n.
    package mutating func nextNonce() -> FixedUInt<4> {
        while true {
            var t: [UInt8] = []
            while t.count < 32 {
                Self.step(keyed, &v)
                v.withUnsafeBytes { t += $0 }
            }
            let candidate = FixedUInt<4>(bigEndian: t.prefix(32)) ?? .zero  // bits2int: leftmost 256 bits
            SecretBytes.wipe(&t)
            // Leaks: only whether this candidate was rejected (probability about 2⁻³²).
            if (!candidate.isZero & candidate.isLess(than: P256OrderModulus.modulus)).isTrueVartime {
                return candidate
            }
            keyed = Self.rekey(keyed, v, separator: 0x00, [])
            Self.step(keyed, &v)
        }
    }

    /// V ← HMAC_K(V), with K given by its keyed state (the key pads are absorbed once); the
    /// old V is wiped before it is released.
    private static func step(_ keyed: HMAC<H>, _ v: inout SecretBytes) {
        var mac = keyed
        v.withUnsafeBytes { mac.update(bufferPointer: $0) }
        var next = mac.finalize().bytes
        v.withUnsafeMutableBytes { $0.copyBytes(from: next) }
        SecretBytes.wipe(&next)
    }

    /// K ← HMAC_K(V ‖ separator ‖ seed), returned as the keyed state of the new K.
    private static func rekey(_ keyed: HMAC<H>, _ v: SecretBytes, separator: UInt8, _ seed: [UInt8]) -> HMAC<H> {
        var mac = keyed
        v.withUnsafeBytes { mac.update(bufferPointer: $0) }
        mac.update(data: [separator])
        mac.update(data: seed)
        var key = mac.finalize().bytes
        defer { SecretBytes.wipe(&key) }
        return HMAC<H>(key: SymmetricKey(data: key))
    }
}
