// Fp4 = Fp2[s]/(s² − ξ), ξ = 1 + i (docs/protocols/mpin.md §2.2): element c0 + c1·s, serialised c0 ‖ c1.
// Karatsuba products; constant time.

import CryptoCore

extension BN254CX {
    /// An element c0 + c1·s of Fp4, with s² = ξ.
    package struct Fp4: Sendable {
        package var c0: Fp2
        package var c1: Fp2

        @inline(__always)
        package init(_ c0: Fp2, _ c1: Fp2) {
            self.c0 = c0
            self.c1 = c1
        }

        package static var zero: Fp4 { Fp4(.zero, .zero) }
        package static var one: Fp4 { Fp4(.one, .zero) }

        @inline(__always)
        package static func + (a: Fp4, b: Fp4) -> Fp4 { Fp4(a.c0 + b.c0, a.c1 + b.c1) }
        @inline(__always)
        package static func - (a: Fp4, b: Fp4) -> Fp4 { Fp4(a.c0 - b.c0, a.c1 - b.c1) }
        @inline(__always)
        package static prefix func - (a: Fp4) -> Fp4 { Fp4(-a.c0, -a.c1) }

        /// (a0 + a1·s)(b0 + b1·s) = a0b0 + ξ·a1b1 + ((a0 + a1)(b0 + b1) − a0b0 − a1b1)·s, with
        /// lazy reduction (`BN254CXFp4Kernel`): four Montgomery reductions.
        @inline(__always)
        package static func * (a: Fp4, b: Fp4) -> Fp4 { lazyProduct(a, b) }

        /// The same product from three reduced Fp2 products: the reference a test checks the
        /// lazy kernel against.
        package func productByFp2Products(_ b: Fp4) -> Fp4 {
            let v0 = c0 * b.c0, v1 = c1 * b.c1
            return Fp4(v0 + v1.timesXi, (c0 + c1) * (b.c0 + b.c1) - v0 - v1)
        }

        /// The product by an element of Fp2.
        @inline(__always)
        package static func * (a: Fp4, b: Fp2) -> Fp4 { Fp4(a.c0 * b, a.c1 * b) }

        /// (a0 + a1·s)² = (a0² + ξ·a1²) + ((a0 + a1)² − a0² − a1²)·s: three Fp2 squarings kept
        /// at 512 bits (six wide products) and four Montgomery reductions (`BN254CXFp4Kernel`).
        @inline(__always)
        package func squared() -> Fp4 { lazySquared() }

        /// The same square from three reduced Fp2 squarings: the reference a test checks the
        /// lazy kernel against.
        package func squaredByFp2Squares() -> Fp4 {
            let t0 = c0.squared(), t1 = c1.squared()
            return Fp4(t0 + t1.timesXi, (c0 + c1).squared() - t0 - t1)
        }

        @inline(__always)
        package var doubled: Fp4 { self + self }

        /// Half of the value (each Fp coordinate by a shift, no product).
        @inline(__always)
        package var halved: Fp4 { Fp4(c0.halved, c1.halved) }

        /// The conjugate c0 − c1·s over Fp2, which is the p²-th power (s^(p²) = −s).
        @inline(__always)
        package var conjugate: Fp4 { Fp4(c0, -c1) }

        /// The product by s: ξ·c1 + c0·s (Milagro `FP4_times_i`).
        @inline(__always)
        package var timesS: Fp4 { Fp4(c1.timesXi, c0) }

        /// The inverse (zero for zero): (c0 − c1·s)/(c0² − ξ·c1²). Constant time.
        package func inverted() -> Fp4 {
            let normInverse = (c0.squared() - c1.squared().timesXi).inverted()
            return Fp4(c0 * normInverse, -(c1 * normInverse))
        }

        package var isZero: Choice { c0.isZero & c1.isZero }

        package func isEqual(to other: Fp4) -> Choice {
            c0.isEqual(to: other.c0) & c1.isEqual(to: other.c1)
        }

        package static func select(_ a: Fp4, _ b: Fp4, if choice: Choice) -> Fp4 {
            Fp4(Fp2.select(a.c0, b.c0, if: choice), Fp2.select(a.c1, b.c1, if: choice))
        }

        /// 128 bytes c0 ‖ c1.
        package var canonicalBytes: [UInt8] { c0.canonicalBytes + c1.canonicalBytes }

        /// Decodes c0 ‖ c1; nil unless every coordinate is canonical. The input is public.
        package init?(canonicalBytes bytes: some Collection<UInt8>) {
            let bytes = Array(bytes)
            guard bytes.count == 128, let c0 = Fp2(canonicalBytes: bytes[0..<64]), let c1 = Fp2(canonicalBytes: bytes[64..<128]) else {
                return nil
            }
            self.init(c0, c1)
        }
    }
}
