// Differential targets: protocols (see Differential.swift). Each runs the client half of a
// protocol against the server half in this repository on inputs the fuzzer chooses, then on a
// fuzzer-chosen mutation of what crossed the wire. The reference is the client itself: the
// server must accept exactly what the client, recomputing, could have sent, and refuse the rest
// with the protocol's one error.
//   diff-powerauth-signature  online and offline signatures, MAC tokens   (Differential+PowerAuthSignature.swift)
//   diff-powerauth-ecies      ECIES requests and responses, both scopes   (Differential+PowerAuthECIES.swift)
//   diff-mpin                 two-pass, one-pass and DVS M-Pin            (Differential+MPin.swift)
// The fixed worlds (an activation, master secrets) are made once per process.
import CryptoPrimitives

extension FuzzTarget {
    /// The protocols differential targets.
    static let differentialProtocols: [FuzzTarget] = [
        FuzzTarget("diff-powerauth-signature", seeds: [.generated { ProtocolInput.seeds(count: 24, length: 180) }]) { PowerAuthPair.signatures($0) },
        FuzzTarget("diff-powerauth-ecies", seeds: [.generated { ProtocolInput.seeds(count: 24, length: 220) }]) { PowerAuthPair.ecies($0) },
        FuzzTarget("diff-mpin", seeds: [.generated { ProtocolInput.seeds(count: 16, length: 140) }]) { MPinPair.run($0) },
    ]
}

/// The fuzzer's bytes read as a sequence of choices. Past the end every read is zero, so every
/// input, however short, is a complete test case.
struct ProtocolInput {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The next byte (0 past the end).
    mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    /// A choice in 0..<count (count ≤ 256).
    mutating func below(_ count: Int) -> Int { Int(byte()) % count }

    /// A yes/no choice.
    mutating func flag() -> Bool { byte() & 1 == 1 }

    /// `count` bytes.
    mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in byte() } }

    /// A big-endian 32-bit word.
    mutating func word32() -> UInt32 { bytes(4).reduce(0) { $0 << 8 | UInt32($1) } }

    /// A big-endian 64-bit word.
    mutating func word64() -> UInt64 { bytes(8).reduce(0) { $0 << 8 | UInt64($1) } }

    /// A length (at most `maximum`, ≤ 255) and that many bytes.
    mutating func chunk(maximum: Int) -> [UInt8] { bytes(below(maximum + 1)) }

    /// Text of at most `maximum` bytes, invalid UTF-8 repaired.
    mutating func text(maximum: Int) -> String { String(decoding: chunk(maximum: maximum), as: UTF8.self) }

    /// `value` with one real change: a byte xored with a non-zero value, one byte appended, or the
    /// last one removed.
    mutating func mutate(_ value: [UInt8]) -> [UInt8] {
        var copy = value
        let kind = below(3)
        if kind == 0, !copy.isEmpty {
            let position = Int(word32() % UInt32(copy.count))
            let delta = byte()
            copy[position] ^= delta == 0 ? 0x80 : delta
        } else if kind == 1 || copy.isEmpty {
            copy.append(byte())
        } else {
            copy.removeLast()
        }
        return copy
    }

    /// `text` with one change of its UTF-8 (repaired afterwards, so it may end up equal: callers
    /// judge the text they send, never assume it changed).
    mutating func mutate(_ text: String) -> String { String(decoding: mutate(Array(text.utf8)), as: UTF8.self) }

    /// Deterministic starting inputs: `count` pseudo-random byte strings of `length`.
    static func seeds(count: Int, length: Int) -> [[UInt8]] {
        (0..<count).map { seed in
            var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1
            return (0..<length).map { _ in
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                return UInt8(truncatingIfNeeded: state)
            }
        }
    }
}

/// Hands out the fuzzer's chosen bytes first (a nonce the client "draws"), then a seeded stream.
struct ChosenRandomSource: RandomSource {
    private var chosen: [UInt8]
    private var rest: SeededRandomSource

    init(_ chosen: [UInt8], then seed: [UInt8] = []) {
        self.chosen = chosen
        rest = SeededRandomSource(seed: seed)
    }

    mutating func fill(_ buffer: UnsafeMutableRawBufferPointer) throws(CryptoError) {
        for position in 0..<buffer.count {
            if chosen.isEmpty {
                try rest.fill(UnsafeMutableRawBufferPointer(rebasing: buffer[position...]))
                return
            }
            buffer[position] = chosen.removeFirst()
        }
    }
}

/// The reference reading of a PowerAuth header (docs/protocols/powerauth.md §7.5, §11.3), lenient on purpose:
/// the value of each wanted key is the text between `key="` (at the start or after a space or
/// comma) and the next `"`, the last occurrence winning. A server that accepts a header must
/// have read these values, whatever else the header holds.
enum HeaderFields {
    static func read(_ header: String, keys: [String]) -> [String: String] {
        var fields: [String: String] = [:]
        let text = Array(header.utf8)
        for key in keys {
            let opening = Array((key + "=\"").utf8)
            var position = 0
            while position + opening.count <= text.count {
                let boundary = position == 0 || text[position - 1] == UInt8(ascii: " ") || text[position - 1] == UInt8(ascii: ",")
                if boundary, Array(text[position..<position + opening.count]) == opening {
                    let start = position + opening.count
                    if let end = text[start...].firstIndex(of: UInt8(ascii: "\"")) {
                        fields[key] = String(decoding: text[start..<end], as: UTF8.self)
                    }
                }
                position += 1
            }
        }
        return fields
    }

    /// Whether `text` is Base64 of exactly `count` bytes.
    static func decodes(_ text: String?, to count: Int) -> Bool {
        guard let text, let bytes = try? Base64.decode(text) else { return false }
        return bytes.count == count
    }
}
