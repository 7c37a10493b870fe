// Random probable primes for RSA key generation (FIPS 186-5 Appendix A.1.3, B.3): random
// candidates of the exact size, trial division by small primes, Miller–Rabin rounds
// (FIPS 186-5 Appendix B.3.1) with random bases.

import CryptoCore

package enum RSAPrimes {
    /// Groups of the odd primes below 2¹¹ whose products stay below 2³²: one constant-time
    /// remainder by each product, then one by each prime of the group.
    static let smallPrimeGroups: [(product: UInt32, primes: [UInt32])] = {
        var sieve = [Bool](repeating: true, count: 2048)
        var primes: [UInt32] = []
        for i in 3..<2048 where sieve[i] {
            if i % 2 == 1 { primes.append(UInt32(i)) }
            for j in stride(from: i * i, to: 2048, by: i) { sieve[j] = false }
        }
        var groups: [(product: UInt32, primes: [UInt32])] = []  // labelled: no array cast (none in Embedded Swift)
        var product: UInt64 = 1, members: [UInt32] = []
        for prime in primes {
            if product * UInt64(prime) >= 1 << 32 {
                groups.append((product: UInt32(product), primes: members))
                product = 1
                members = []
            }
            product *= UInt64(prime)
            members.append(prime)
        }
        groups.append((product: UInt32(product), primes: members))
        return groups
    }()

    /// Miller–Rabin rounds for an error probability of at most 2⁻¹¹² (1024-bit primes, RSA-2048),
    /// 2⁻¹²⁸ (1536-bit) and 2⁻¹⁴⁴ (2048-bit): FIPS 186-5 Table B.1.
    static func millerRabinRounds(primeBits: Int) -> Int {
        primeBits <= 1024 ? 5 : 4
    }

    /// A random probable prime of exactly `bits` bits with its two top bits set (so that the
    /// product of two has twice the bits, and p ≥ √2·2^(bits−1)), and with gcd(p − 1, e) = 1.
    static func randomPrime<let n: Int>(bits: Int, publicExponent e: UInt32, random: inout some RandomSource) throws(CryptoError) -> FixedUInt<n> {
        while true {
            var candidate = FixedUInt<n>.zero
            let words = try random.bytes(count: 8 * n)
            for i in 0..<n {
                candidate.limbs[i] = words[(8 * i)..<(8 * i + 8)].reduce(0) { $0 << 8 | UInt64($1) }
            }
            candidate = candidate.shiftedRight(by: 64 * n - bits)
            candidate.limbs[(bits - 1) / 64] |= 1 << UInt64((bits - 1) % 64)
            candidate.limbs[(bits - 2) / 64] |= 1 << UInt64((bits - 2) % 64)
            candidate.limbs[0] |= 1
            // Rejected candidates are thrown away: their early exits reveal nothing about the
            // prime that is finally kept, which passes every test in full.
            guard passesTrialDivision(candidate),
                  candidate.remainder(dividingBy: e) != 1,  // e | p − 1 would leave e without an inverse
                  try isProbablePrime(candidate, rounds: millerRabinRounds(primeBits: bits), random: &random) else { continue }
            return candidate
        }
    }

    /// Whether no odd prime below 2¹¹ divides `candidate` (assumed larger than all of them).
    static func passesTrialDivision<let n: Int>(_ candidate: FixedUInt<n>) -> Bool {
        for (product, primes) in smallPrimeGroups {
            let r = UInt64(candidate.remainder(dividingBy: product))
            for prime in primes {
                let d = UInt64(prime)
                if FixedUInt<1>.barrettStep(r, d, UInt64.max / d) == 0 { return false }
            }
        }
        return true
    }

    /// Miller–Rabin with `rounds` random bases (FIPS 186-5 B.3.1). The exponentiations are
    /// constant time in the candidate; the loop count leaks a, the number of trailing zero bits
    /// of w − 1, and each round returns early on a composite (the candidate is then discarded).
    package static func isProbablePrime<let n: Int>(_ w: FixedUInt<n>, rounds: Int, random: inout some RandomSource) throws(CryptoError) -> Bool {
        guard let context = MontgomeryContext(modulus: w) else { return false }
        let wMinusOne = w.subtractingReportingBorrow(FixedUInt(1)).difference
        var a = 0
        while wMinusOne.bit(a) == 0 { a += 1 }
        let m = wMinusOne.shiftedRight(by: a)
        let minusOne = context.montgomeryForm(of: wMinusOne)
        let bits = w.bitLengthVartime
        for _ in 0..<rounds {
            // A base b uniform in [2, w − 2], by rejection.
            var b = FixedUInt<n>.zero
            repeat {
                let words = try random.bytes(count: 8 * n)
                for i in 0..<n { b.limbs[i] = words[(8 * i)..<(8 * i + 8)].reduce(0) { $0 << 8 | UInt64($1) } }
                b = b.shiftedRight(by: 64 * n - bits)
            } while b.compareVartime(FixedUInt(2)) < 0 || b.compareVartime(wMinusOne) >= 0
            var z = context.power(context.montgomeryForm(of: b), m)
            var passed = z.isEqual(to: context.montgomeryOne) | z.isEqual(to: minusOne)
            for _ in 1..<max(a, 1) {
                z = context.product(z, z)
                passed = passed | z.isEqual(to: minusOne)  // 1 reached first stays 1: never −1
            }
            guard passed.isTrueVartime else { return false }
        }
        return true
    }

    /// e⁻¹ mod m for a small public prime e, in constant time in the secret m (which must not be
    /// divisible by e): with r = m mod e and k = −r⁻¹ mod e, 1 + k·m is divisible by e and
    /// (1 + k·m)/e is the inverse. nil when e divides m.
    static func inverseOfPublicExponent<let n: Int>(_ e: UInt32, modulo m: FixedUInt<n>) -> FixedUInt<n>? {
        let r = UInt64(m.remainder(dividingBy: e))
        guard r != 0 else { return nil }
        // r⁻¹ = r^(e−2) mod e (Fermat; e is prime), square-and-multiply over the public e − 2.
        let d = UInt64(e), reciprocal = UInt64.max / d
        var inverse: UInt64 = 1
        let exponent = d - 2
        var i = 63 - exponent.leadingZeroBitCount
        while i >= 0 {
            inverse = FixedUInt<1>.barrettStep(inverse * inverse, d, reciprocal)
            if (exponent >> UInt64(i)) & 1 == 1 { inverse = FixedUInt<1>.barrettStep(inverse * r, d, reciprocal) }
            i -= 1
        }
        let k = UInt64.select(d - inverse, 0, if: !inverse.isZero)
        let (product, _) = m.multipliedAdding(k, 1)
        return product.exactlyDivided(by: d)
    }
}
