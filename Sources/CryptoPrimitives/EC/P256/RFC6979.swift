// Deterministic (and hedged) ECDSA nonces: RFC 6979 §3.2, with §3.6's additional data.

import CryptoCore

/// The HMAC-DRBG of RFC 6979 §3.2 over the hash H, for the P-256 order.
struct RFC6979<H: HashFunction> {
    private var keyed: HMAC<H>
    private var v: [UInt8]

    /// Steps b–g of RFC 6979 §3.2: seeds the DRBG with int2octets(x) ‖ bits2octets(h1) and,
    /// when hedging, fresh random bytes (§3.6: "additional data k′").
    init(privateKey: [UInt8], digest: some Collection<UInt8>, additionalData: [UInt8]) {
        let h1 = P256.Scalar(digest: digest).canonicalBytes  // bits2octets(h1) = int2octets(bits2int(h1) mod q)
        v = [UInt8](repeating: 0x01, count: H.byteCount)
        keyed = HMAC<H>(key: SymmetricKey(data: [UInt8](repeating: 0x00, count: H.byteCount)))
        keyed = Self.rekey(keyed, v + [0x00] + privateKey + h1 + additionalData)  // step d
        v = Self.mac(keyed, v)                                                     // step e
        keyed = Self.rekey(keyed, v + [0x01] + privateKey + h1 + additionalData)  // step f
        v = Self.mac(keyed, v)                                                     // step g
    }

    /// Step h: the next candidate k in [1, n), as its 32 big-endian bytes.
    ///
    /// ⚠️ One bit of bias in k is enough for a lattice attack to recover the private key:
    /// candidates outside [1, n) are rejected and redrawn, never reduced mod n.
    mutating func nextNonce() -> FixedUInt<4> {
        while true {
            var t: [UInt8] = []
            while t.count < 32 {
                v = Self.mac(keyed, v)
                t += v
            }
            let candidate = FixedUInt<4>(bigEndian: t.prefix(32)) ?? .zero  // bits2int: leftmost 256 bits
            // Leaks: only whether this candidate was rejected (probability about 2⁻³²).
            if (!candidate.isZero & candidate.isLess(than: P256OrderModulus.modulus)).isTrueVartime {
                return candidate
            }
            keyed = Self.rekey(keyed, v + [0x00])
            v = Self.mac(keyed, v)
        }
    }

    /// HMAC under the current key K, from its keyed state (the key pads are absorbed once).
    private static func mac(_ keyed: HMAC<H>, _ data: [UInt8]) -> [UInt8] {
        var mac = keyed
        mac.update(data: data)
        return mac.finalize().bytes
    }

    /// K ← HMAC_K(data), returned as the keyed state of the new K.
    private static func rekey(_ keyed: HMAC<H>, _ data: [UInt8]) -> HMAC<H> {
        HMAC<H>(key: SymmetricKey(data: mac(keyed, data)))
    }
}
