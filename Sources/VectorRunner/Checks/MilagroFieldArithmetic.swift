// Milagro's BN254CX field-arithmetic files (fp, fp2, fp4, fp12): every operation line of
// every "# test" block is one case, checked with the engine's tower. Semantics follow
// Milagro's test drivers (test/test_fp*_arithmetics_YYY.c.in): `imul` multiplies by the
// block's index from 0, `pinpow` raises to the index from 1, `smallmul` is ×10, `compow` is the
// Fp4 trace (3·a) of a power of FP12_c, `xtr*` are the XTR trace recurrences (MilagroXTR).

import CryptoCore
import CryptoPrimitives
import VectorFormats

enum MilagroFieldArithmetic {
    typealias V = MilagroValues
    typealias Fp = BN254CX.Fp
    typealias Fp2 = BN254CX.Fp2
    typealias Fp4 = BN254CX.Fp4
    typealias Fp12 = BN254CX.Fp12

    enum Kind { case fp, fp2, fp4, fp12, ecp, ecp2 }

    static func kind(of file: CAVPFile) -> Kind? {
        // By the modulus, not the curve label: Milagro's BN254 point files are labelled BN254_CX.
        let header = file.headerText.lowercased()
        guard header.contains("2400000008702a0db0bddf647a6366d3243fd6ee18093ee1be6623ef5c1b55b3") else { return nil }
        let fields = Set(file.blocks.flatMap { $0.fields.map(\.name) })
        if header.contains("fp arithmetics") { return .fp }
        if header.contains("fp2 arithmetics") { return .fp2 }
        if header.contains("fp4 arithmetics") { return .fp4 }
        if header.contains("fp12 arithmetics") { return .fp12 }
        if fields.contains("ECP21") { return .ecp2 }
        if fields.contains("ECP1") { return .ecp }
        return nil
    }

    static func check(_ file: CAVPFile, kind: Kind, _ log: inout CaseLog) {
        for (index, block) in file.blocks.enumerated() {
            var cases = Cases(test: index + 1, block: block)
            do throws(VectorFormatError) {
                switch kind {
                case .fp: try checkFp(&cases)
                case .fp2: try checkFp2(&cases, index: index)
                case .fp4: try checkFp4(&cases, index: index)
                case .fp12: try checkFp12(&cases, index: index)
                case .ecp: try MilagroCurveArithmetic.checkG1(&cases)
                case .ecp2: try MilagroCurveArithmetic.checkG2(&cases)
                }
            } catch {
                cases.results.append(("test \(index + 1)", false, "well-formed block: \(error.description)"))
            }
            for (id, ok, what) in cases.results {
                log.expect(ok, id, what, expected: "Milagro's value", got: ok ? "same" : "different")
            }
        }
    }

    /// The results of one block: each present operation line adds one.
    struct Cases {
        let test: Int
        let block: CAVPFile.Block
        var results: [(String, Bool, String)] = []

        mutating func check(_ name: String, _ body: () throws(VectorFormatError) -> Bool) throws(VectorFormatError) {
            guard block.has(name) else { return }
            results.append(("test \(test) \(name)", try body(), name))
        }
    }

    private static func checkFp(_ c: inout Cases) throws(VectorFormatError) {
        let block = c.block
        let a = try V.fp(block, "FP_1"), b = try V.fp(block, "FP_2")
        func same(_ x: Fp, _ name: String) throws(VectorFormatError) -> Bool { x.isEqual(to: try V.fp(block, name)).isTrueVartime }
        try c.check("FPadd") { () throws(VectorFormatError) in try same(a + b, "FPadd") }
        try c.check("FPsub") { () throws(VectorFormatError) in try same(a - b, "FPsub") }
        try c.check("FP_1nres") { () throws(VectorFormatError) in try same(a, "FP_1nres") }
        try c.check("FP_2nres") { () throws(VectorFormatError) in try same(b, "FP_2nres") }
        try c.check("FPmulmod") { () throws(VectorFormatError) in try same(a * b, "FPmulmod") }
        try c.check("FPsmallmul") { () throws(VectorFormatError) in try same(a * Fp(small: 10), "FPsmallmul") }
        try c.check("FPsqr") { () throws(VectorFormatError) in
            let square = a.squared(), (root, isSquare) = square.squareRoot()
            return try same(square, "FPsqr") && isSquare.isTrueVartime && (root.isEqual(to: a) | root.isEqual(to: -a)).isTrueVartime
        }
        try c.check("FPreduce") { () throws(VectorFormatError) in try same(a, "FPreduce") }
        try c.check("FPneg") { () throws(VectorFormatError) in try same(-a, "FPneg") }
        try c.check("FPdiv2") { () throws(VectorFormatError) in try same(a.halved, "FPdiv2") }
        try c.check("FPinv") { () throws(VectorFormatError) in try same(a.inverted(), "FPinv") && (a * a.inverted()).isEqual(to: .one).isTrueVartime }
        try c.check("FPexp") { () throws(VectorFormatError) in try same(a.power(b.canonical), "FPexp") }
    }

    private static func checkFp2(_ c: inout Cases, index: Int) throws(VectorFormatError) {
        let block = c.block
        let a = try V.fp2(block, "FP2_1"), b = try V.fp2(block, "FP2_2")
        func same(_ x: Fp2, _ name: String) throws(VectorFormatError) -> Bool { x.isEqual(to: try V.fp2(block, name)).isTrueVartime }
        let sc = block.has("BIGsc") ? try V.scalar(block, "BIGsc") : .zero
        try c.check("FP2add") { () throws(VectorFormatError) in try same(a + b, "FP2add") }
        try c.check("FP2neg") { () throws(VectorFormatError) in try same(-a, "FP2neg") }
        try c.check("FP2sub") { () throws(VectorFormatError) in try same(a - b, "FP2sub") }
        try c.check("FP2conj") { () throws(VectorFormatError) in try same(a.conjugate, "FP2conj") }
        try c.check("FP2pmul") { () throws(VectorFormatError) in try same(a * Fp(reducing: sc), "FP2pmul") }
        try c.check("FP2imul") { () throws(VectorFormatError) in try same(a * Fp(small: UInt64(index)), "FP2imul") }
        try c.check("FP2sqr") { () throws(VectorFormatError) in
            let square = a.squared()
            let root = square.squareRootVartime()
            return try same(square, "FP2sqr") && root.map { ($0.isEqual(to: a) | $0.isEqual(to: -a)).isTrueVartime } == true
        }
        try c.check("FP2mul") { () throws(VectorFormatError) in try same(a * b, "FP2mul") }
        try c.check("FP2pow") { () throws(VectorFormatError) in try same(a.power(sc), "FP2pow") }
        try c.check("FP2inv") { () throws(VectorFormatError) in try same(a.inverted(), "FP2inv") }
        try c.check("FP2div2") { () throws(VectorFormatError) in try same(a.halved, "FP2div2") }
        try c.check("FP2_mul_ip") { () throws(VectorFormatError) in try same(a.timesXi, "FP2_mul_ip") }
        try c.check("FP2_div_ip") { () throws(VectorFormatError) in try same(a * Fp2.one.timesXi.inverted(), "FP2_div_ip") }
    }

    private static func checkFp4(_ c: inout Cases, index: Int) throws(VectorFormatError) {
        let block = c.block
        let a = try V.fp4(block, "FP4_1"), b = try V.fp4(block, "FP4_2")
        func same(_ x: Fp4, _ name: String) throws(VectorFormatError) -> Bool { x.isEqual(to: try V.fp4(block, name)).isTrueVartime }
        let sc1 = try V.scalar(block, "BIGsc1"), sc2 = try V.scalar(block, "BIGsc2")
        try c.check("FP4add") { () throws(VectorFormatError) in try same(a + b, "FP4add") }
        try c.check("FP4neg") { () throws(VectorFormatError) in try same(-a, "FP4neg") }
        try c.check("FP4sub") { () throws(VectorFormatError) in try same(a - b, "FP4sub") }
        try c.check("FP4conj") { () throws(VectorFormatError) in try same(a.conjugate, "FP4conj") }
        try c.check("FP4nconj") { () throws(VectorFormatError) in try same(-a.conjugate, "FP4nconj") }
        try c.check("FP4pmul") { () throws(VectorFormatError) in try same(a * (try V.fp2(block, "FP2sc")), "FP4pmul") }
        try c.check("FP4imul") { () throws(VectorFormatError) in try same(a * Fp2(Fp(small: UInt64(index)), .zero), "FP4imul") }
        try c.check("FP4sqr") { () throws(VectorFormatError) in try same(a.squared(), "FP4sqr") }
        try c.check("FP4mul") { () throws(VectorFormatError) in try same(a * b, "FP4mul") }
        try c.check("FP4inv") { () throws(VectorFormatError) in try same(a.inverted(), "FP4inv") }
        try c.check("FP4mulj") { () throws(VectorFormatError) in try same(a.timesS, "FP4mulj") }
        try c.check("FP4pow") { () throws(VectorFormatError) in try same(V.power(a, sc1, one: .one, *), "FP4pow") }
        try c.check("FP4frob") { () throws(VectorFormatError) in try same(V.power(a, BN254CX.p, one: .one, *), "FP4frob") }
        let traces = [try V.fp4(block, "FP12_1"), try V.fp4(block, "FP12_2"), try V.fp4(block, "FP12_3"), try V.fp4(block, "FP12_4")]
        try c.check("FP4_xtrA") { () throws(VectorFormatError) in
            try same(MilagroXTR.add(a, b, try V.fp4(block, "FP4add"), try V.fp4(block, "FP4sub")), "FP4_xtrA")
        }
        try c.check("FP4_xtrD") { () throws(VectorFormatError) in try same(MilagroXTR.double(a), "FP4_xtrD") }
        try c.check("FP4_xtrpow") { () throws(VectorFormatError) in try same(MilagroXTR.power(traces[0], sc1), "FP4_xtrpow") }
        try c.check("FP4_xtrpow2") { () throws(VectorFormatError) in
            try same(MilagroXTR.doublePower(traces[1], traces[0], traces[2], traces[3], sc2, sc1), "FP4_xtrpow2")
        }
    }

    private static func checkFp12(_ c: inout Cases, index: Int) throws(VectorFormatError) {
        let block = c.block
        let a = try V.fp12(block, "FP12_1"), b = try V.fp12(block, "FP12_2")
        func same(_ x: Fp12, _ name: String) throws(VectorFormatError) -> Bool { x.isEqual(to: try V.fp12(block, name)).isTrueVartime }
        func sameFp4(_ x: Fp4, _ name: String) throws(VectorFormatError) -> Bool { x.isEqual(to: try V.fp4(block, name)).isTrueVartime }
        let scalars = [try V.scalar(block, "BIGsc1"), try V.scalar(block, "BIGsc2"), try V.scalar(block, "BIGsc3"), try V.scalar(block, "BIGsc4")]
        let generic = { (x: Fp12, e: FixedUInt<4>) in V.power(x, e, one: .one, *) }
        try c.check("FP12conj") { () throws(VectorFormatError) in try same(a.conjugate, "FP12conj") }
        try c.check("FP12mul") { () throws(VectorFormatError) in try same(a * b, "FP12mul") && (b * a).isEqual(to: a * b).isTrueVartime }
        try c.check("FP12square") { () throws(VectorFormatError) in try same(a.squared(), "FP12square") }
        try c.check("FP12usquare") { () throws(VectorFormatError) in try same(a.cyclotomicSquared(), "FP12usquare") }
        try c.check("FP12smul_dtype") { () throws(VectorFormatError) in
            let y = try V.fp12(block, "FP12smul_y_dtype")  // the D-type line shape: b = (b0, 0), c = 0
            return try same(a.timesLine(y.a.c0, y.a.c1, y.b.c0), "FP12smul_dtype") && (y.b.c1.isZero & y.c.isZero).isTrueVartime
        }
        try c.check("FP12smul_mtype") { () throws(VectorFormatError) in try same(a * (try V.fp12(block, "FP12smul_y_mtype")), "FP12smul_mtype") }
        try c.check("FP12inv") { () throws(VectorFormatError) in try same(a.inverted(), "FP12inv") }
        try c.check("FP12pow") { () throws(VectorFormatError) in try same(generic(a, scalars[0]), "FP12pow") }
        try c.check("FP12pinpow") { () throws(VectorFormatError) in try same(generic(a, FixedUInt(UInt64(index + 1))), "FP12pinpow") }
        let gt = try V.fp12(block, "FP12_c")
        try c.check("FP12compows") { () throws(VectorFormatError) in
            try sameFp4(MilagroXTR.trace(BN254CX.GT(gt).power(BN254CX.Scalar(reducing: try V.scalar(block, "BIGscs").bigEndianBytes())).value), "FP12compows")
        }
        try c.check("FP12compow") { () throws(VectorFormatError) in
            try sameFp4(MilagroXTR.trace(BN254CX.GT(gt).power(BN254CX.Scalar(reducing: scalars[0].bigEndianBytes())).value), "FP12compow")
        }
        try c.check("FP12pow4") { () throws(VectorFormatError) in
            let bases = [a, b, try V.fp12(block, "FP12_3"), try V.fp12(block, "FP12_4")]
            var product = Fp12.one
            for (base, e) in zip(bases, scalars) { product = product * generic(base, e) }
            return try same(product, "FP12pow4")
        }
        try c.check("FP12frob") { () throws(VectorFormatError) in try same(a.frobenius(), "FP12frob") }
        try c.check("FP4trace") { () throws(VectorFormatError) in try sameFp4(MilagroXTR.trace(a), "FP4trace") }
    }
}
