// Differential targets: primitives (see Differential.swift). Each target lives in its own file
// (Differential+Hashes.swift, +AES.swift, +P256.swift, +RSA.swift); this file lists them and
// holds the reader that turns the fuzzer's bytes into an operation and its inputs.
//
// The engine and swift-crypto both declare `SHA256`, `HMAC`, `P256`, `AES`, `SymmetricKey`…:
// the differential files name every such type with its module (`CryptoPrimitives.P256`,
// `Crypto.P256`), so a reader of a comparison always knows which side a value came from.

extension FuzzTarget {
    /// The primitives differential targets.
    static let differentialPrimitives: [FuzzTarget] = differentialHashes + differentialAES + differentialTLSPrimitives + differentialP256 + differentialRSA
}

/// The fuzzer's bytes, read front to back. Past the end every read yields zeros or fewer bytes
/// than asked for, so any input decodes to some operation (libFuzzer starts from empty inputs).
struct PrimitiveFuzzInput {
    private let input: [UInt8]
    private var position = 0

    init(_ input: [UInt8]) {
        self.input = input
    }

    /// How many bytes are left.
    var remaining: Int { input.count - position }

    /// The next byte, 0 past the end.
    mutating func byte() -> UInt8 {
        guard position < input.count else { return 0 }
        position += 1
        return input[position - 1]
    }

    /// The next two bytes, big-endian.
    mutating func uint16() -> Int {
        Int(byte()) << 8 | Int(byte())
    }

    /// The next `count` bytes (fewer at the end).
    mutating func bytes(_ count: Int) -> [UInt8] {
        let taken = max(0, min(count, remaining))
        position += taken
        return Array(input[(position - taken)..<position])
    }

    /// Everything left.
    mutating func rest() -> [UInt8] {
        bytes(remaining)
    }

    /// Up to seven piece lengths (0…255) and then the rest of the input, cut into those pieces
    /// (the last piece takes whatever is left): the splits a streaming API is fed.
    mutating func pieces() -> [[UInt8]] {
        let lengths = (0..<Int(byte() % 8)).map { _ in Int(byte()) }
        var data = rest()[...]
        var pieces: [[UInt8]] = []
        for length in lengths {
            let piece = data.prefix(length)
            pieces.append(Array(piece))
            data = data.dropFirst(piece.count)
        }
        pieces.append(Array(data))
        return pieces
    }

    /// `encoding` with up to three edits chosen by the input (none for a 0 count): overwrite,
    /// flip, insert or delete one byte, or cut the encoding short, at input-chosen positions.
    /// Near-valid encodings reach far deeper into a parser than random bytes do.
    mutating func edited(_ encoding: [UInt8]) -> [UInt8] {
        var result = encoding
        for _ in 0..<Int(byte() % 4) {
            let kind = byte() % 5
            let at = result.isEmpty ? 0 : uint16() % result.count
            let value = byte()
            switch kind {
            case 0 where !result.isEmpty: result[at] = value
            case 1 where !result.isEmpty: result[at] ^= value == 0 ? 1 : value
            case 2: result.insert(value, at: at)
            case 3 where !result.isEmpty: result.remove(at: at)
            case 4: result.removeLast(result.count - at)
            default: break
            }
        }
        return result
    }
}
