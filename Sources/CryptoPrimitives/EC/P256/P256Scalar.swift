// Scalars modulo the group order n: decoding, hashing to a scalar, inversion and recodings.

import CryptoCore

extension MontgomeryResidue where Modulus == P256OrderModulus {
    /// Decodes 32 big-endian bytes as a scalar in [0, n); nil for other lengths or values ≥ n.
    /// The check of a secret candidate reveals only whether it was in range.
    package init?(canonicalBytes bytes: some Collection<UInt8>) {
        guard bytes.count == 32, let value = FixedUInt<4>(bigEndian: bytes) else { return nil }
        let (residue, isCanonical) = Self.fromCanonical(value)
        guard isCanonical.isTrueVartime else { return nil }
        self = residue
    }

    /// The scalar of a message digest: its leftmost 256 bits as an integer (bits2int,
    /// SEC 1 v2 §4.1.3 step 5, RFC 6979 §2.3.2), reduced mod n.
    package init(digest: some Collection<UInt8>) {
        var bytes = Array(digest.prefix(32))
        if bytes.count < 32 { bytes = [UInt8](repeating: 0, count: 32 - bytes.count) + bytes }
        self.init(reducing: FixedUInt<4>(bigEndian: bytes) ?? .zero)
    }

    /// The canonical value as 32 big-endian bytes.
    package var canonicalBytes: [UInt8] { canonical.bigEndianBytes() }

    /// The inverse of a public scalar (binary extended Euclid). Leaks: the scalar.
    package func invertedVartime() -> Self {
        Self(reducing: FixedUInt.modularInverseVartime(canonical, modulus: Modulus.modulus))
    }
}

extension P256 {
    /// Digit i of the signed radix-32 (Booth) recoding of a scalar k below 2²⁵⁶: 52 digits dᵢ
    /// in [−16, 16] with k = Σ dᵢ·32ⁱ, returned as magnitude and sign. Each digit is computed
    /// where the scalar multiplications use it (indexing a 52-entry array of digits inside
    /// their loops made the compiler copy the whole array at every window). Constant time in
    /// k: every digit comes from a fixed window of bits, by masks.
    @inline(__always)
    package static func signedWindow(_ k: FixedUInt<4>, _ i: Int) -> (magnitude: UInt64, negative: UInt64) {
        // Bits 5i−1 … 5i+4 (bit −1 is zero): a 6-bit window, shifted out of at most two limbs
        // (which limbs and shifts depends only on i, which is public).
        let window: UInt64
        if i == 0 {
            window = (k.limbs[unchecked: 0] &<< 1) & 63
        } else {
            let start = 5 * i - 1, limb = start >> 6, shift = UInt64(start & 63)
            var bits = k.limbs[unchecked: limb] &>> shift
            if shift > 58 && limb < 3 { bits |= k.limbs[unchecked: limb + 1] &<< (64 - shift) }
            window = bits & 63
        }
        // Booth: values 32…63 stand for negative digits (BearSSL/BoringSSL recoding).
        let sign = window >> 5
        let mask = 0 &- sign
        let folded = (((63 &- window) & mask) | (window & ~mask))
        return ((folded >> 1) &+ (folded & 1), sign)
    }

    /// The width-w non-adjacent form of a public scalar, least significant digit first: odd
    /// digits in (−2^(w−1), 2^(w−1)) separated by at least w−1 zeros. Leaks: the scalar.
    package static func nonAdjacentFormVartime(_ k: FixedUInt<4>, width: Int) -> [Int] {
        var digits = [Int](repeating: 0, count: 257)
        var value = k.resized(to: FixedUInt<5>.self)
        let modulus = 1 << width
        var i = 0
        while !value.isZero.isTrueVartime {
            if value.limbs[0] & 1 == 1 {
                var digit = Int(value.limbs[0] & UInt64(modulus - 1))
                if digit >= modulus / 2 { digit -= modulus }
                digits[i] = digit
                if digit > 0 {
                    value = value.subtractingReportingBorrow(FixedUInt(UInt64(digit))).difference
                } else {
                    value = value.addingReportingCarry(FixedUInt(UInt64(-digit))).sum
                }
            }
            value = value.shiftedRightOne()
            i += 1
        }
        return digits
    }
}
