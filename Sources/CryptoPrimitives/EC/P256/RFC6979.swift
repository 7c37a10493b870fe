// Deterministic (and hedged) ECDSA nonces: RFC 6979 §3.2, with §3.6's additional data.

import CryptoCore

/// The HMAC-DRBG of RFC 6979 §3.2 over the hash H, for the P-256 order.
struct RFC6979<H: HashFunction> {
    private var key: [UInt8]
    private var v: [UInt8]

    /// Steps b–g of RFC 6979 §3.2: seeds the DRBG with int2octets(x) ‖ bits2octets(h1) and,
    /// when hedging, fresh random bytes (§3.6: "additional data k′").
    init(privateKey: [UInt8], digest: some Collection<UInt8>, additionalData: [UInt8]) {
        let h1 = P256.Scalar(digest: digest).canonicalBytes  // bits2octets(h1) = int2octets(bits2int(h1) mod q)
        v = [UInt8](repeating: 0x01, count: H.byteCount)
        key = [UInt8](repeating: 0x00, count: H.byteCount)
        key = mac(key, v + [0x00] + privateKey + h1 + additionalData)  // step d
        v = mac(key, v)                                                // step e
        key = mac(key, v + [0x01] + privateKey + h1 + additionalData)  // step f
        v = mac(key, v)                                                // step g
    }

    /// Step h: the next candidate k in [1, n), as its 32 big-endian bytes.
    ///
    /// ⚠️ One bit of bias in k is enough for a lattice attack to recover the private key:
    /// candidates outside [1, n) are rejected and redrawn, never reduced mod n.
    mutating func nextNonce() -> FixedUInt<4> {
        while true {
            var t: [UInt8] = []
            while t.count < 32 {
                v = mac(key, v)
                t += v
            }
            let candidate = FixedUInt<4>(bigEndian: t.prefix(32)) ?? .zero  // bits2int: leftmost 256 bits
            // Leaks: only whether this candidate was rejected (probability about 2⁻³²).
            if (!candidate.isZero & candidate.isLess(than: P256OrderModulus.modulus)).isTrueVartime {
                return candidate
            }
            key = mac(key, v + [0x00])
            v = mac(key, v)
        }
    }

    private func mac(_ key: [UInt8], _ data: [UInt8]) -> [UInt8] {
        HMAC<H>.authenticationCode(for: data, using: SymmetricKey(data: key)).bytes
    }
}
