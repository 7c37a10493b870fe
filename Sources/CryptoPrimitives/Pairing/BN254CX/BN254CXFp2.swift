// Fp2 = Fp[i]/(i² + 1) (docs/protocols/mpin.md §2.2): element c0 + c1·i, serialised c0 ‖ c1 (real part
// first, docs/protocols/mpin.md §2.3). Karatsuba products, complex squaring; constant time except where
// a name says `Vartime`.

import CryptoCore

extension BN254CX {
    /// An element c0 + c1·i of Fp2.
    package struct Fp2: Sendable {
        package var c0: Fp
        package var c1: Fp

        @inline(__always)
        package init(_ c0: Fp, _ c1: Fp) {
            self.c0 = c0
            self.c1 = c1
        }

        package static var zero: Fp2 { Fp2(.zero, .zero) }
        package static var one: Fp2 { Fp2(.one, .zero) }

        @inline(__always)
        package static func + (a: Fp2, b: Fp2) -> Fp2 { Fp2(a.c0 + b.c0, a.c1 + b.c1) }
        @inline(__always)
        package static func - (a: Fp2, b: Fp2) -> Fp2 { Fp2(a.c0 - b.c0, a.c1 - b.c1) }
        @inline(__always)
        package static prefix func - (a: Fp2) -> Fp2 { Fp2(-a.c0, -a.c1) }

        /// (a0 + a1·i)(b0 + b1·i): three Karatsuba products kept at 512 bits and two
        /// Montgomery reductions (lazy reduction, `BN254CXFp2Kernel`).
        @inline(__always)
        package static func * (a: Fp2, b: Fp2) -> Fp2 {
            let (c0, c1) = BN254CXFp2Kernel.product(a.c0.montgomeryForm, a.c1.montgomeryForm, b.c0.montgomeryForm, b.c1.montgomeryForm)
            return Fp2(Fp(montgomeryForm: c0), Fp(montgomeryForm: c1))
        }

        /// The same product with three reduced Fp products (the Karatsuba sums unreduced, below
        /// 2p, `Fp.unreducedSum`): the reference a test checks the lazy kernel against.
        package func productByFpProducts(_ b: Fp2) -> Fp2 {
            let v0 = c0 * b.c0, v1 = c1 * b.c1
            let v2 = Fp.unreducedSum(c0, c1) * Fp.unreducedSum(b.c0, b.c1)
            return Fp2(v0 - v1, v2 - v0 - v1)
        }

        /// The product by an element of Fp.
        @inline(__always)
        package static func * (a: Fp2, b: Fp) -> Fp2 { Fp2(a.c0 * b, a.c1 * b) }

        /// (a0 + a1·i)² = (a0 + a1)(a0 − a1) + 2·a0·a1·i, the sum unreduced into its product.
        @inline(__always)
        package func squared() -> Fp2 {
            let t = c0 * c1
            return Fp2(Fp.unreducedSum(c0, c1) * (c0 - c1), t + t)
        }

        /// 2·self.
        @inline(__always)
        package var doubled: Fp2 { self + self }

        /// The conjugate c0 − c1·i, which is also the p-th power.
        @inline(__always)
        package var conjugate: Fp2 { Fp2(c0, -c1) }

        /// The product by ξ = 1 + i, the sextic non-residue: (c0 − c1) + (c0 + c1)·i.
        @inline(__always)
        package var timesXi: Fp2 { Fp2(c0 - c1, c0 + c1) }

        /// The product by i: −c1 + c0·i.
        @inline(__always)
        package var timesI: Fp2 { Fp2(-c1, c0) }

        /// The inverse (zero for zero): conj / (c0² + c1²). Constant time.
        package func inverted() -> Fp2 {
            let normInverse = (c0.squared() + c1.squared()).inverted()
            return Fp2(c0 * normInverse, -(c1 * normInverse))
        }

        /// Half of the value (each coordinate by ``CryptoCore/MontgomeryResidue/halved``).
        @inline(__always)
        package var halved: Fp2 { Fp2(c0.halved, c1.halved) }

        package var isZero: Choice { c0.isZero & c1.isZero }

        package func isEqual(to other: Fp2) -> Choice {
            c0.isEqual(to: other.c0) & c1.isEqual(to: other.c1)
        }

        package static func select(_ a: Fp2, _ b: Fp2, if choice: Choice) -> Fp2 {
            Fp2(Fp.select(a.c0, b.c0, if: choice), Fp.select(a.c1, b.c1, if: choice))
        }

        /// `self^exponent` by a fixed 4-bit window over the exponent's width. Constant time.
        package func power(_ exponent: FixedUInt<4>) -> Fp2 { fixedWindowPower(exponent) }

        /// 64 big-endian bytes c0 ‖ c1 (docs/protocols/mpin.md §2.3).
        package var canonicalBytes: [UInt8] { c0.canonicalBytes + c1.canonicalBytes }

        /// Decodes c0 ‖ c1, each canonical; nil otherwise. The input is public.
        package init?(canonicalBytes bytes: some Collection<UInt8>) {
            let bytes = Array(bytes)
            guard bytes.count == 64, let c0 = Fp(canonicalBytes: bytes[0..<32]), let c1 = Fp(canonicalBytes: bytes[32..<64]) else {
                return nil
            }
            self.init(c0, c1)
        }
    }
}

extension BN254CX.Fp2 {
    /// A square root, or nil when there is none (Adj and Rodríguez-Henríquez, "Square root
    /// computation over even extension fields", 2012, algorithm 9, for p ≡ 3 mod 4).
    /// Leaks: whether a root exists and which branch of the algorithm finds it; use only on
    /// public values.
    package func squareRootVartime() -> BN254CX.Fp2? {
        typealias Fp2 = BN254CX.Fp2
        let a1 = power(BN254CXFieldConstants.sqrtExponentMinusOne)  // a^((p−3)/4)
        let alpha = a1 * (a1 * self)
        let a0 = alpha.conjugate * alpha
        let minusOne = -Fp2.one
        if a0.isEqual(to: minusOne).isTrueVartime { return nil }
        let x0 = a1 * self
        if alpha.isEqual(to: minusOne).isTrueVartime { return x0.timesI }
        let b = (Fp2.one + alpha).power(BN254CXFieldConstants.legendreExponent)
        return b * x0
    }
}

extension BN254CXFieldConstants {
    /// (p − 3)/4.
    package static var sqrtExponentMinusOne: FixedUInt<4> {
        FixedUInt(limbs: [0x6F99_88FB_D706_D56C, 0xC90F_F5BB_8602_4FB8, 0x6C2F_77D9_1E98_D9B4, 0x0900_0000_021C_0A83])
    }
}

extension BN254CX.Fp2: ConditionallySelectable {}
