// The XTR trace recurrences that Milagro's fp4 and fp12 test files exercise (Lenstra and
// Verheul, "The XTR public key system", 2000; Stam's thesis for the double exponentiation),
// written on the engine's Fp4 in the order of Milagro's FP4_xtr_pow and FP4_xtr_pow2 so that
// results agree even on inputs that are not traces of subgroup elements. Test-side code: the
// engine itself never uses XTR.

import CryptoCore
import CryptoPrimitives

enum MilagroXTR {
    typealias Fp4 = BN254CX.Fp4

    /// w·x − conj(x)·y + z.
    static func add(_ w: Fp4, _ x: Fp4, _ y: Fp4, _ z: Fp4) -> Fp4 { w * x - x.conjugate * y + z }

    /// x² − 2·conj(x).
    static func double(_ x: Fp4) -> Fp4 { x.squared() - x.conjugate.doubled }

    /// The Fp4 trace of an Fp12 element, 3·a.
    static func trace(_ x: BN254CX.Fp12) -> Fp4 { x.a + x.a + x.a }

    /// c_n from c_1 = x (the ladder over the bits of ⌊n/2⌋, adjusted for even n).
    static func power(_ x: Fp4, _ n: FixedUInt<4>) -> Fp4 {
        var a = Fp4(BN254CX.Fp2(BN254CX.Fp(small: 3), .zero), .zero), b = x, c = double(x)
        let isOdd = n.bit(0) == 1
        var v = n.shiftedRight(by: 1)
        if !isOdd { v = v.subtractingReportingBorrow(FixedUInt(1)).difference }
        for i in stride(from: v.bitLengthVartime - 1, through: 0, by: -1) {
            if v.bit(i) == 0 {
                let t = b
                b = add(a, b, x.conjugate, c.conjugate)
                c = double(t)
                a = double(a)
            } else {
                let t = a.conjugate
                a = double(b)
                b = add(c, b, x, t)
                c = double(c)
            }
        }
        return isOdd ? b : c
    }

    /// c_(a·k + b·l) from c_k, c_l, c_(k−l), c_(k−2l) (the reduction steps of Stam's double
    /// exponentiation, then `power` for the remaining common factor).
    static func doublePower(_ ck: Fp4, _ cl: Fp4, _ ckml: Fp4, _ ckm2l: Fp4, _ a: FixedUInt<4>, _ b: FixedUInt<4>) -> Fp4 {
        var e = a, d = b
        var cu = ck, cv = cl, cumv = ckml, cum2v = ckm2l
        var twos = 0
        while d.bit(0) == 0 && e.bit(0) == 0 {
            d = d.shiftedRight(by: 1)
            e = e.shiftedRight(by: 1)
            twos += 1
        }
        func minus(_ x: FixedUInt<4>, _ y: FixedUInt<4>) -> FixedUInt<4> { x.subtractingReportingBorrow(y).difference }
        func times4(_ x: FixedUInt<4>) -> FixedUInt<4> { x.shiftedLeft(by: 2) }
        while d.compareVartime(e) != 0 {
            if d.compareVartime(e) > 0 {
                if d.compareVartime(times4(e)) <= 0 {
                    (d, e) = (e, minus(d, e))
                    let t = add(cu, cv, cumv, cum2v)
                    (cum2v, cumv, cv, cu) = (cumv.conjugate, cv, cu, t)
                } else if d.bit(0) == 0 {
                    d = d.shiftedRight(by: 1)
                    let t = add(cu, cumv, cv, cum2v.conjugate)
                    (cum2v, cumv, cu) = (double(cumv), t, double(cu))
                } else if e.bit(0) == 1 {
                    d = minus(d, e).shiftedRight(by: 1)
                    let t = add(cu, cv, cumv, cum2v)
                    (cu, cum2v, cv) = (double(cu), double(cv).conjugate, t)
                } else {
                    (d, e) = (e.shiftedRight(by: 1), d)
                    let t = double(cumv)
                    (cumv, cum2v) = (cum2v.conjugate, t.conjugate)
                    (cv, cu) = (cu, double(cv))
                }
            }
            if d.compareVartime(e) < 0 {
                if e.compareVartime(times4(d)) <= 0 {
                    e = minus(e, d)
                    let t = add(cu, cv, cumv, cum2v)
                    (cum2v, cumv, cu) = (cumv, cu, t)
                } else if e.bit(0) == 0 {
                    (d, e) = (e.shiftedRight(by: 1), d)
                    let t = double(cumv)
                    (cumv, cum2v) = (cum2v.conjugate, t.conjugate)
                    (cv, cu) = (cu, double(cv))
                } else if d.bit(0) == 1 {
                    (e, d) = (d, minus(e, d).shiftedRight(by: 1))
                    let t = add(cu, cv, cumv, cum2v)
                    (cumv, cum2v, cu, cv) = (cumv.conjugate, double(cu).conjugate, double(cv), t)
                } else {
                    d = d.shiftedRight(by: 1)
                    let t = add(cu, cumv, cv, cum2v.conjugate)
                    (cum2v, cumv, cu) = (double(cumv), t, double(cu))
                }
            }
        }
        var r = add(cu, cv, cumv, cum2v)
        for _ in 0..<twos { r = double(r) }
        return power(r, d)
    }
}
