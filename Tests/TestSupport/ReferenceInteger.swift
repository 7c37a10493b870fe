// A deliberately simple arbitrary-precision unsigned integer for cross-checking the engine's
// fixed-width and Montgomery arithmetic. 32-bit limbs, schoolbook everything, bit-by-bit long
// division: slow and obviously right, and it shares no code with CryptoCore.

/// An unsigned integer of any size (little-endian 32-bit limbs, no leading zero limbs).
public struct ReferenceInteger: Equatable, Comparable, CustomStringConvertible, Sendable {
    /// The 32-bit limbs, least significant first, with no leading zero limb.
    public private(set) var limbs: [UInt32]

    /// The value of `limbs` (least significant first; leading zero limbs are dropped).
    public init(limbs: [UInt32]) {
        self.limbs = limbs
        normalize()
    }

    /// The value of `value`.
    public init(_ value: UInt64) {
        self.init(limbs: [UInt32(truncatingIfNeeded: value), UInt32(truncatingIfNeeded: value >> 32)])
    }

    /// From 64-bit words, least significant first.
    public init(words: [UInt64]) {
        self.init(limbs: words.flatMap { [UInt32(truncatingIfNeeded: $0), UInt32(truncatingIfNeeded: $0 >> 32)] })
    }

    /// From big-endian bytes.
    public init(bigEndian bytes: [UInt8]) {
        var limbs = [UInt32](repeating: 0, count: (bytes.count + 3) / 4)
        for (i, byte) in bytes.reversed().enumerated() {
            limbs[i / 4] |= UInt32(byte) << UInt32(8 * (i % 4))
        }
        self.init(limbs: limbs)
    }

    /// From hex digits (no prefix).
    public init(hex: String) {
        self.init(bigEndian: TestHex.bytes(hex.count % 2 == 1 ? "0" + hex : hex))
    }

    private mutating func normalize() {
        while let last = limbs.last, last == 0 { limbs.removeLast() }
    }

    /// Zero.
    public static let zero = ReferenceInteger(limbs: [])
    /// One.
    public static let one = ReferenceInteger(1)

    /// Whether the value is zero.
    public var isZero: Bool { limbs.isEmpty }

    /// 64-bit words, least significant first, padded to `count`.
    public func words(count: Int) -> [UInt64] {
        (0..<count).map { i in
            let low = 2 * i < limbs.count ? UInt64(limbs[2 * i]) : 0
            let high = 2 * i + 1 < limbs.count ? UInt64(limbs[2 * i + 1]) : 0
            return low | high << 32
        }
    }

    /// Big-endian bytes, padded to `count`.
    public func bigEndian(count: Int) -> [UInt8] {
        (0..<count).reversed().map { i in
            i / 4 < limbs.count ? UInt8(truncatingIfNeeded: limbs[i / 4] >> UInt32(8 * (i % 4))) : 0
        }
    }

    /// The number of bits up to the highest set one (0 for zero).
    public var bitLength: Int {
        guard let top = limbs.last else { return 0 }
        return 32 * (limbs.count - 1) + (32 - top.leadingZeroBitCount)
    }

    /// Whether bit `i` is set (bits past the top are clear).
    public func bit(_ i: Int) -> Bool {
        i / 32 < limbs.count && (limbs[i / 32] >> UInt32(i % 32)) & 1 == 1
    }

    /// The sum.
    public static func + (a: ReferenceInteger, b: ReferenceInteger) -> ReferenceInteger {
        var result = [UInt32]()
        var carry: UInt64 = 0
        for i in 0..<max(a.limbs.count, b.limbs.count) {
            let sum = UInt64(i < a.limbs.count ? a.limbs[i] : 0) + UInt64(i < b.limbs.count ? b.limbs[i] : 0) + carry
            result.append(UInt32(truncatingIfNeeded: sum))
            carry = sum >> 32
        }
        result.append(UInt32(carry))
        return ReferenceInteger(limbs: result)
    }

    /// `a − b`; requires `a ≥ b`.
    public static func - (a: ReferenceInteger, b: ReferenceInteger) -> ReferenceInteger {
        precondition(a >= b, "ReferenceInteger subtraction would go negative")
        var result = [UInt32]()
        var borrow: Int64 = 0
        for i in 0..<a.limbs.count {
            var difference = Int64(a.limbs[i]) - Int64(i < b.limbs.count ? b.limbs[i] : 0) - borrow
            borrow = difference < 0 ? 1 : 0
            if difference < 0 { difference += 1 << 32 }
            result.append(UInt32(difference))
        }
        return ReferenceInteger(limbs: result)
    }

    /// The product (schoolbook).
    public static func * (a: ReferenceInteger, b: ReferenceInteger) -> ReferenceInteger {
        guard !a.isZero, !b.isZero else { return .zero }
        var result = [UInt64](repeating: 0, count: a.limbs.count + b.limbs.count + 1)
        for i in 0..<a.limbs.count {
            var carry: UInt64 = 0
            for j in 0..<b.limbs.count {
                let t = UInt64(a.limbs[i]) * UInt64(b.limbs[j]) + result[i + j] + carry
                result[i + j] = t & 0xFFFF_FFFF
                carry = t >> 32
            }
            result[i + b.limbs.count] += carry
        }
        return ReferenceInteger(limbs: result.map { UInt32(truncatingIfNeeded: $0) })
    }

    /// `a` shifted left by `shift` bits (doubling, one bit at a time).
    public static func << (a: ReferenceInteger, shift: Int) -> ReferenceInteger {
        var result = a
        for _ in 0..<shift { result = result + result }
        return result
    }

    /// Quotient and remainder by bit-by-bit long division (shift in one bit, subtract the divisor
    /// when it fits), done in place on 32-bit words so that RSA-sized values stay quick.
    public func quotientAndRemainder(dividingBy divisor: ReferenceInteger) -> (quotient: ReferenceInteger, remainder: ReferenceInteger) {
        precondition(!divisor.isZero, "division by zero")
        let width = divisor.limbs.count + 1
        let d = divisor.limbs + [0]
        var quotient = [UInt32](repeating: 0, count: limbs.count)
        var remainder = [UInt32](repeating: 0, count: width)
        var i = bitLength - 1
        while i >= 0 {
            var carry: UInt32 = bit(i) ? 1 : 0
            for k in 0..<width {
                let word = remainder[k]
                remainder[k] = word << 1 | carry
                carry = word >> 31
            }
            var fits = true
            for k in stride(from: width - 1, through: 0, by: -1) where remainder[k] != d[k] {
                fits = remainder[k] > d[k]
                break
            }
            if fits {
                var borrow: Int64 = 0
                for k in 0..<width {
                    let difference = Int64(remainder[k]) - Int64(d[k]) - borrow
                    remainder[k] = UInt32(truncatingIfNeeded: difference)
                    borrow = difference < 0 ? 1 : 0
                }
                quotient[i / 32] |= 1 << UInt32(i % 32)
            }
            i -= 1
        }
        return (ReferenceInteger(limbs: quotient), ReferenceInteger(limbs: remainder))
    }

    /// The remainder of `a` divided by `m` (bit-by-bit long division).
    public static func % (a: ReferenceInteger, m: ReferenceInteger) -> ReferenceInteger {
        a.quotientAndRemainder(dividingBy: m).remainder
    }

    /// `self^exponent mod m` by square-and-multiply.
    public func power(_ exponent: ReferenceInteger, modulo m: ReferenceInteger) -> ReferenceInteger {
        var result = ReferenceInteger.one % m
        var i = exponent.bitLength - 1
        while i >= 0 {
            result = result * result % m
            if exponent.bit(i) { result = result * (self % m) % m }
            i -= 1
        }
        return result
    }

    /// The greatest common divisor (Euclid).
    public static func gcd(_ a: ReferenceInteger, _ b: ReferenceInteger) -> ReferenceInteger {
        var (x, y) = (a, b)
        while !y.isZero { (x, y) = (y, x % y) }
        return x
    }

    /// Ordered by value.
    public static func < (a: ReferenceInteger, b: ReferenceInteger) -> Bool {
        if a.limbs.count != b.limbs.count { return a.limbs.count < b.limbs.count }
        for i in stride(from: a.limbs.count - 1, through: 0, by: -1) where a.limbs[i] != b.limbs[i] {
            return a.limbs[i] < b.limbs[i]
        }
        return false
    }

    /// The value in hexadecimal, `0x…`.
    public var description: String {
        limbs.isEmpty ? "0x0" : "0x" + TestHex.string(bigEndian(count: 4 * limbs.count))
    }
}
