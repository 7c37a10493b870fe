// Fp12 = Fp4[t]/(t³ − s) (docs/protocols/mpin.md §2.2): element a + b·t + c·t², equivalently Fp2[w]/(w⁶ − ξ)
// with w = t, w³ = s. Serialised a ‖ b ‖ c, each Fp4 as c0 ‖ c1 and each Fp2 real part
// first (docs/protocols/mpin.md §2.3). Karatsuba products, Chung–Hasan squaring; constant time.

import CryptoCore

extension BN254CX {
    /// An element a + b·t + c·t² of Fp12, with t³ = s.
    package struct Fp12: Sendable {
        package var a: Fp4
        package var b: Fp4
        package var c: Fp4

        @inline(__always)
        package init(_ a: Fp4, _ b: Fp4, _ c: Fp4) {
            self.a = a
            self.b = b
            self.c = c
        }

        package static var zero: Fp12 { Fp12(.zero, .zero, .zero) }
        package static var one: Fp12 { Fp12(.one, .zero, .zero) }

        package static func + (x: Fp12, y: Fp12) -> Fp12 { Fp12(x.a + y.a, x.b + y.b, x.c + y.c) }
        package static func - (x: Fp12, y: Fp12) -> Fp12 { Fp12(x.a - y.a, x.b - y.b, x.c - y.c) }

        /// The product, by cubic Karatsuba (six Fp4 products).
        package static func * (x: Fp12, y: Fp12) -> Fp12 {
            let v0 = x.a * y.a, v1 = x.b * y.b, v2 = x.c * y.c
            let a = v0 + ((x.b + x.c) * (y.b + y.c) - v1 - v2).timesS
            let b = (x.a + x.b) * (y.a + y.b) - v0 - v1 + v2.timesS
            let c = (x.a + x.c) * (y.a + y.c) - v0 - v2 + v1
            return Fp12(a, b, c)
        }

        /// The square (Chung and Hasan, "Asymmetric squaring formulae", 2007, SQR3): four Fp4
        /// squarings and one product (33 Fp products; SQR2's three squarings and two products
        /// take 36), with one halving, which is a shift. With
        /// s1 = (a + b + c)², s2 = (a − b + c)² and h = (s1 + s2)/2 = a² + b² + c² + 2ac:
        /// f² = (a² + 2bc·s) + (s1 − h − 2bc + c²·s)·t + (h − a² − c²)·t².
        package func squared() -> Fp12 {
            let s0 = a.squared(), s4 = c.squared()
            let aPlusC = a + c
            let s1 = (aPlusC + b).squared(), s2 = (aPlusC - b).squared()
            let bc = b * c
            let s3 = bc + bc
            let h = (s1 + s2).halved
            return Fp12(s0 + s3.timesS, s1 - h - s3 + s4.timesS, h - s0 - s4)
        }

        /// The conjugate, which is the p⁶-th power (t ↦ −t, s ↦ −s), and the inverse of an
        /// element of the cyclotomic subgroup (Milagro `FP12_conj`).
        package var conjugate: Fp12 { Fp12(a.conjugate, -b.conjugate, c.conjugate) }

        /// The inverse (zero for zero), through the norm to Fp4. Constant time.
        package func inverted() -> Fp12 {
            let f0 = a.squared() - (b * c).timesS
            let f1 = c.squared().timesS - a * b
            let f2 = b.squared() - a * c
            let norm = ((c * f1 + b * f2).timesS + a * f0).inverted()
            return Fp12(f0 * norm, f1 * norm, f2 * norm)
        }

        package var isOne: Choice { a.isEqual(to: .one) & b.isZero & c.isZero }

        package func isEqual(to other: Fp12) -> Choice {
            a.isEqual(to: other.a) & b.isEqual(to: other.b) & c.isEqual(to: other.c)
        }

        package static func select(_ x: Fp12, _ y: Fp12, if choice: Choice) -> Fp12 {
            Fp12(Fp4.select(x.a, y.a, if: choice), Fp4.select(x.b, y.b, if: choice), Fp4.select(x.c, y.c, if: choice))
        }

        /// The product by a line value of the D-type twist, which has the shape
        /// (l0 + l1·s) + (l2 + 0·s)·t + 0·t² (Fp4 slots a = (l0, l1), b = (l2, 0)).
        ///
        /// (a + b·t + c·t²)(la + lb·t) = a·la + s·c·lb + (a·lb + b·la)·t + (b·lb + c·la)·t², with
        /// the t coefficient by Karatsuba, (a + b)(la + lb) − a·la − b·lb: 13 Fp2 products
        /// instead of 15.
        package func timesLine(_ l0: Fp2, _ l1: Fp2, _ l2: Fp2) -> Fp12 {
            let la = Fp4(l0, l1)
            let aa = a * la, ca = c * la
            let bb = Fp4(b.c0 * l2, b.c1 * l2), cb = Fp4(c.c0 * l2, c.c1 * l2)
            let middle = (a + b) * Fp4(l0 + l2, l1) - aa - bb
            return Fp12(aa + cb.timesS, middle, bb + ca)
        }

        /// 384 bytes a ‖ b ‖ c (docs/protocols/mpin.md §2.3).
        package var canonicalBytes: [UInt8] { a.canonicalBytes + b.canonicalBytes + c.canonicalBytes }

        /// Decodes a ‖ b ‖ c; nil unless every coordinate is canonical. The input is public.
        package init?(canonicalBytes bytes: some Collection<UInt8>) {
            let bytes = Array(bytes)
            guard bytes.count == 384, let a = Fp4(canonicalBytes: bytes[0..<128]), let b = Fp4(canonicalBytes: bytes[128..<256]),
                  let c = Fp4(canonicalBytes: bytes[256..<384]) else { return nil }
            self.init(a, b, c)
        }
    }
}

extension BN254CX.Fp12: ConditionallySelectable {}
