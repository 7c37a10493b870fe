// The private key of an ACVP RSA primitive case in either form the ACVP RSA specification
// allows: standard (n, d) or CRT (p, q, dmp1, dmq1, iqmp with n and e, no d). The CRT form is
// applied as RFC 8017 §5.1.2 step 2b writes it, on test data only (everything here is vartime).

import CryptoPrimitives
import VectorFormats

/// A primitive case's private key, read from the case's fields, else its group's.
struct ACVPRSAPrimitiveKey {
    enum Form {
        case standard(d: [UInt8])
        case crt(p: [UInt8], q: [UInt8], dP: [UInt8], dQ: [UInt8], qInv: [UInt8])
    }

    /// n (given, or p·q when a CRT key leaves it out).
    let modulus: [UInt8]
    let form: Form

    /// Reads the key: `d` makes it standard, else `dmp1`, `dmq1`, `iqmp`, `p` and `q` make it CRT.
    init(_ levels: [ACVPFields]) throws(ACVPFormatError) {
        func field(_ name: String) throws(ACVPFormatError) -> [UInt8]? {
            guard let level = levels.first(where: { $0.has(name) }) else { return nil }
            return try level.hex(name)
        }
        func required(_ name: String) throws(ACVPFormatError) -> [UInt8] {
            guard let value = try field(name) else { throw .missingField(name, at: levels.first?.place ?? "") }
            return value
        }
        let place = levels.first?.place ?? ""
        // Sizes first: the work below grows with them, and a hostile file names any size.
        func bounded(_ name: String, _ value: [UInt8], _ bits: ClosedRange<Int>) throws(ACVPFormatError) -> [UInt8] {
            guard bits.contains(ACVPRSA.bitLength(value)) else { throw .wrongType(name, expected: "an integer of \(bits) bits", at: place) }
            return value
        }
        if let d = try field("d") {
            let n = try bounded("n", try required("n"), 1...8192)
            form = .standard(d: try bounded("d", d, 0...ACVPRSA.bitLength(n)))
            modulus = n
            return
        }
        let crtNames = ["dmp1", "dmq1", "iqmp"]
        guard crtNames.contains(where: { name in levels.contains { $0.has(name) } }) else {
            throw .missingField("d (or the CRT values dmp1, dmq1, iqmp)", at: place)
        }
        let p = try bounded("p", try required("p"), 2...4096), q = try bounded("q", try required("q"), 2...4096)
        let product = Array(BigBytes.product(p, q).drop { $0 == 0 })
        let n = try field("n") ?? product
        guard ACVPRSA.compare(n, product) == 0 else { throw .wrongType("n", expected: "p·q", at: place) }
        modulus = n
        let primeBits = 0...max(ACVPRSA.bitLength(p), ACVPRSA.bitLength(q))
        form = .crt(p: p, q: q, dP: try bounded("dmp1", try required("dmp1"), primeBits), dQ: try bounded("dmq1", try required("dmq1"), primeBits),
                    qInv: try bounded("iqmp", try required("iqmp"), primeBits))
    }

    /// Whether the key came in CRT form.
    var isCRT: Bool {
        if case .crt = form { return true }
        return false
    }

    /// input^d mod n, as many bytes as n; nil when a modulus (n, or p and q) is outside the
    /// engine's modular arithmetic. The caller has checked input < n.
    func apply(_ input: [UInt8]) -> [UInt8]? {
        switch form {
        case .standard(let d):
            return RSA.modularPowerVartime(input, d, modulus: modulus)
        case .crt(let p, let q, let dP, let dQ, let qInv):
            // s1 = m^dP mod p, s2 = m^dQ mod q, h = qInv·(s1 − s2) mod p, s = s2 + q·h.
            guard let s1 = RSA.modularPowerVartime(BigBytes.remainder(input, p), dP, modulus: p),
                  let s2 = RSA.modularPowerVartime(BigBytes.remainder(input, q), dQ, modulus: q) else { return nil }
            let s2ModP = BigBytes.remainder(s2, p)
            let difference = ACVPRSA.compare(s1, s2ModP) >= 0 ? BigBytes.difference(s1, s2ModP)
                : BigBytes.difference(BigBytes.sum(s1, p), s2ModP)
            let h = BigBytes.remainder(BigBytes.product(qInv, difference), p)
            let signature = BigBytes.sum(s2, BigBytes.product(q, h)).drop { $0 == 0 }
            guard signature.count <= modulus.count else { return nil }
            return [UInt8](repeating: 0, count: modulus.count - signature.count) + signature
        }
    }
}

extension BigBytes {
    /// a · b, big-endian, a.count + b.count bytes (schoolbook; test data only).
    static func product(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var out = [UInt32](repeating: 0, count: a.count + b.count)   // little-endian bytes in words
        for (i, x) in a.reversed().enumerated() where x != 0 {
            var carry: UInt32 = 0
            for (j, y) in b.reversed().enumerated() {
                let t = out[i + j] + UInt32(x) * UInt32(y) + carry
                out[i + j] = t & 0xFF
                carry = t >> 8
            }
            var k = i + b.count
            while carry > 0 {
                let t = out[k] + carry
                out[k] = t & 0xFF
                carry = t >> 8
                k += 1
            }
        }
        return out.reversed().map { UInt8(truncatingIfNeeded: $0) }
    }

    /// a + b, big-endian, one byte longer than the longer of the two.
    static func sum(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        let width = max(a.count, b.count) + 1
        let x = [UInt8](repeating: 0, count: width - a.count) + a, y = [UInt8](repeating: 0, count: width - b.count) + b
        var out = x, carry = 0
        for index in out.indices.reversed() {
            let value = Int(x[index]) + Int(y[index]) + carry
            out[index] = UInt8(truncatingIfNeeded: value)
            carry = value >> 8
        }
        return out
    }

    /// a − b for a ≥ b, of any lengths (as long as a).
    static func difference(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        let y = [UInt8](repeating: 0, count: max(a.count - b.count, 0)) + b.suffix(a.count)
        var out = a, borrow = 0
        for index in out.indices.reversed() {
            let value = Int(a[index]) - Int(y[index]) - borrow
            out[index] = UInt8(truncatingIfNeeded: value)
            borrow = value < 0 ? 1 : 0
        }
        return out
    }
}
