// Marking secrets for memcheck and declassifying results, plus a random source whose every
// byte is secret (nonces, blinding and ephemeral keys are tracked like keys).
import BenchmarkKit
import CMemcheck
import CryptoPrimitives

enum Secret {
    /// A copy of `bytes` marked secret.
    static func bytes(_ bytes: [UInt8]) -> [UInt8] {
        let copy = bytes
        copy.withUnsafeBytes { ct_mark_secret($0.baseAddress, $0.count) }
        return copy
    }

    /// A copy of `value` whose bytes are marked secret (a PIN, a small integer).
    static func value<T: BitwiseCopyable>(_ value: T) -> T {
        var copy = value
        withUnsafeMutableBytes(of: &copy) { ct_mark_secret($0.baseAddress, $0.count) }
        return copy
    }

    /// Declassifies an output and folds it into the run's checksum, so the optimiser cannot
    /// drop the work and the harness itself never branches on a secret. The length is
    /// declassified first: an output's length (a decrypted message's) is public once returned.
    static func publish(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { publish(raw: $0) }
    }

    static func publish(_ secret: SecretBytes) {
        secret.withUnsafeBytes { publish(raw: $0) }
    }

    static func publish(raw buffer: UnsafeRawBufferPointer) {
        let count = value(public: buffer.count)
        guard let base = buffer.baseAddress else { return }
        ct_mark_public(base, count)
        for offset in 0..<count { checksum = checksum &* 31 &+ UInt64(base.load(fromByteOffset: offset, as: UInt8.self)) }
    }

    static func publish(_ flag: Bool) {
        checksum = checksum &* 31 &+ (value(public: flag) ? 1 : 0)
    }

    /// A copy of `value` marked public (declassified).
    static func value<T: BitwiseCopyable>(public value: T) -> T {
        var copy = value
        withUnsafeMutableBytes(of: &copy) { ct_mark_public($0.baseAddress, $0.count) }
        return copy
    }

    nonisolated(unsafe) static var checksum: UInt64 = 0

    /// The DER of a private key with only the secret integers marked: tags, lengths, OIDs, the
    /// version and the public modulus and exponent (the first two multi-byte INTEGERs of an RSA
    /// key) stay public, as they are in any protocol.
    static func privateKeyDER(_ der: [UInt8], publicIntegers: Int) -> [UInt8] {
        var ranges: [Range<Int>] = []
        var multiByteIntegers = 0
        func walk(_ range: Range<Int>) {
            var index = range.lowerBound
            while index + 2 <= range.upperBound {
                let tag = der[index]
                var length = Int(der[index + 1])
                var header = 2
                if length & 0x80 != 0 {
                    let count = length & 0x7F
                    length = 0
                    for byte in der[(index + 2)..<(index + 2 + count)] { length = length << 8 | Int(byte) }
                    header += count
                }
                let contents = (index + header)..<(index + header + length)
                if tag & 0x20 != 0 || tag == 0x04 {
                    walk(contents)
                } else if tag == 0x02 && length > 1 {
                    multiByteIntegers += 1
                    if multiByteIntegers > publicIntegers { ranges.append(contents) }
                } else if tag == 0x81 || tag == 0xA1 {
                    // [1] public key of SEC 1: public.
                }
                index = contents.upperBound
            }
        }
        walk(0..<der.count)
        let copy = der
        copy.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            for range in ranges { ct_mark_secret(base + range.lowerBound, range.count) }
        }
        return copy
    }

    /// The 2048-bit fixture key's DER (PKCS #1 or PKCS #8 as the fixture holds it).
    static let rsaDER: [UInt8] = {
        let body = BenchmarkFixtures.rsa2048PrivateKeyPEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        guard let der = try? Base64.decode(body) else { fatalError("the fixture PEM does not decode") }
        return der
    }()
}

/// Random bytes from a fixed seed, each marked secret as it is produced.
struct SecretRandomSource: RandomSource {
    var seeded = SeededRandomSource(seed: 0x5EC7E7)

    mutating func fill(_ buffer: UnsafeMutableRawBufferPointer) throws(CryptoError) {
        try seeded.fill(buffer)
        ct_mark_secret(buffer.baseAddress, buffer.count)
    }
}

extension Secret {
    /// Marks raw memory secret.
    static func markSecret(_ buffer: UnsafeRawBufferPointer) { ct_mark_secret(buffer.baseAddress, buffer.count) }
}
