// Scalars modulo the group order r of BN254CX, held in wiped storage (they are secrets in
// M-Pin: master-secret shares, x, z).

import CryptoCore

extension BN254CX {
    /// An integer modulo r, 32 bytes big-endian in wiped storage; `==` is constant time and
    /// `description` redacted.
    public struct Scalar: Sendable, Equatable, CustomStringConvertible {
        package let storage: SecretBytes

        package init(_ value: Fr) {
            storage = SecretBytes(value.canonical.bigEndianBytes())
        }

        /// A scalar from 32 big-endian bytes below r. Throws `CryptoError.invalidEncoding`
        /// for another length or a value not below r. Constant time in the value.
        public init(rawRepresentation bytes: some Sequence<UInt8>) throws(CryptoError) {
            let bytes = Array(bytes)
            guard bytes.count == 32, let value = FixedUInt<4>(bigEndian: bytes) else { throw .invalidEncoding }
            let (residue, isCanonical) = Fr.fromCanonical(value)
            guard isCanonical.isTrueVartime else { throw .invalidEncoding }
            self.init(residue)
        }

        /// The scalar of a 32-byte string taken as a big-endian integer and reduced mod r
        /// (Milagro's `BIG_mod` of a hash, docs/protocols/mpin.md §3 `GET_Y`). Constant time.
        public init(reducing bytes: some Sequence<UInt8>) {
            var value = FixedUInt<4>.zero
            for byte in Array(bytes).suffix(32) {
                value = value.shiftedLeft(by: 8)
                value.limbs[0] |= UInt64(byte)
            }
            self.init(Fr(reducing: value))
        }

        /// The scalar of a small integer (a PIN, a factor).
        public init(_ value: UInt64) {
            self.init(Fr(reducing: FixedUInt(value)))
        }

        /// A uniform scalar in [0, r) from `random`, by rejection of 254-bit candidates
        /// (Milagro `RANDOM_GENERATE` draws uniformly below r too, docs/protocols/mpin.md §4).
        public static func random(using random: inout some RandomSource) throws(CryptoError) -> Scalar {
            while true {
                var bytes = try random.bytes(count: 32)
                bytes[0] &= 0x3F
                if let value = FixedUInt<4>(bigEndian: bytes), value.isLess(than: BN254CX.r).isTrueVartime {
                    return Scalar(Fr(reducing: value))  // rejection reveals only failed candidates
                }
            }
        }

        /// 32 big-endian bytes.
        public var rawRepresentation: SecretBytes { storage }

        package var value: Fr {
            storage.withUnsafeBytes { Fr(reducing: FixedUInt<4>(bigEndian: $0) ?? .zero) }
        }

        package var integer: FixedUInt<4> {
            storage.withUnsafeBytes { FixedUInt<4>(bigEndian: $0) ?? .zero }
        }

        /// a + b mod r.
        public static func + (a: Scalar, b: Scalar) -> Scalar { Scalar(a.value + b.value) }
        /// a − b mod r.
        public static func - (a: Scalar, b: Scalar) -> Scalar { Scalar(a.value - b.value) }
        /// a·b mod r.
        public static func * (a: Scalar, b: Scalar) -> Scalar { Scalar(a.value * b.value) }
        /// −a mod r.
        public static prefix func - (a: Scalar) -> Scalar { Scalar(-a.value) }

        /// a⁻¹ mod r (zero for zero). Constant time.
        public var inverse: Scalar { Scalar(value.inverted()) }

        /// Whether the scalar is zero.
        public var isZero: Bool { value.isZero.isTrueVartime }

        /// Constant-time equality.
        public static func == (a: Scalar, b: Scalar) -> Bool { a.storage == b.storage }

        /// A redacted description.
        public var description: String { "BN254CX.Scalar(redacted)" }
    }
}

extension BN254CX.CurvePoint {
    /// k·P for a secret k below 2²⁵⁶ with a fixed 4-bit window over all 256 bits and a table
    /// read that scans all 16 entries. Constant time in k and P.
    package func multipliedConstantTime(by k: FixedUInt<4>) -> Self {
        var table = InlineArray<16, Self>(repeating: .infinity)
        for i in 1..<16 { table[i] = table[i - 1] + self }
        var result = Self.infinity
        for window in stride(from: 63, through: 0, by: -1) {
            for _ in 0..<4 { result = result.doubled() }
            let bits = (k.limbs[window >> 4] >> UInt64((window & 15) * 4)) & 0xF
            result = result + ConstantTime.lookup(table, at: bits)
        }
        return result
    }
}

extension BN254CX.G1 {
    /// k·P (GLV). Constant time in k and P.
    public func multiplied(by k: BN254CX.Scalar) -> BN254CX.G1 {
        BN254CX.G1(point.multipliedGLV(by: k.integer))
    }

}

extension BN254CX.G2 {
    /// k·Q (Galbraith–Scott). Constant time in k and Q.
    public func multiplied(by k: BN254CX.Scalar) -> BN254CX.G2 {
        BN254CX.G2(point.multipliedGS(by: k.integer))
    }

}

extension BN254CX.G1 {
    /// k·P for a secret k taken mod 2^bitCount, bitCount ≤ 32 (a PIN or an extra factor; Milagro
    /// `ECP_pinmul` over `PBLEN` bits, which reads exactly that many bits), with signed 4-bit
    /// digits over ⌊(bitCount + 5)/4⌋ windows and table reads that scan all 9 entries of
    /// 0·P … 8·P. Constant time in k and P for a given bitCount.
    public func multiplied(bySmall k: UInt32, bitCount: Int) -> BN254CX.G1 {
        // Signed 4-bit digits reach at most 7·(16^windows − 1)/15, so k < 2^(4·windows − 2):
        // ⌊(bitCount + 4)/4⌋ windows lost the top carry for bitCount ≡ 3 (mod 4).
        let windows = (min(max(bitCount, 0), 32) + 5) / 4
        let masked = bitCount >= 32 ? UInt64(k) : UInt64(k) & ((1 << UInt64(max(bitCount, 0))) - 1)
        let table = BN254CX.G1Projective.signedMultiplesTable(point)
        return BN254CX.G1(BN254CX.G1Projective.jointMultiply(InlineArray<1, InlineArray<9, BN254CX.G1Projective>>(repeating: table),
                                                             [FixedUInt<4>(masked)], windows: windows))
    }
}

#if !hasFeature(Embedded)  // Embedded Swift has no reflection, so nothing for `dump` to show
extension BN254CX.Scalar: CustomReflectable {
    /// A mirror with no children.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
#endif
