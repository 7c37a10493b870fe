// diff-digest: SHA-1/224/256/384/512 (one-shot and streamed in fuzzer-chosen pieces), HMAC with
// keys of every length, HKDF (extract, expand, refusals), PBKDF2 and the ANSI X9.63 KDF, each
// against swift-crypto (BoringSSL's digests, swift-crypto's HMAC and HKDF, BoringSSL's PBKDF2;
// SHA-224, which swift-crypto exposes only inside PBKDF2, through PBKDF2: see sha224 below).
//   byte 0: the operation; byte 1: the hash; the rest: that operation's inputs.
import Crypto
import CryptoExtras
import CryptoPrimitives
import Foundation

extension FuzzTarget {
    static let differentialHashes: [FuzzTarget] = [
        FuzzTarget("diff-digest") { input in
            var reader = PrimitiveFuzzInput(input)
            let operation = reader.byte()
            switch reader.byte() % 5 {
            case 0: DigestDifferential<CryptoPrimitives.Insecure.SHA1, Crypto.Insecure.SHA1>.run(operation, &reader, input, pbkdf2: .insecureSHA1)
            case 1: sha224(operation, &reader, input)
            case 2: DigestDifferential<CryptoPrimitives.SHA256, Crypto.SHA256>.run(operation, &reader, input, pbkdf2: .sha256)
            case 3: DigestDifferential<CryptoPrimitives.SHA384, Crypto.SHA384>.run(operation, &reader, input, pbkdf2: .sha384)
            default: DigestDifferential<CryptoPrimitives.SHA512, Crypto.SHA512>.run(operation, &reader, input, pbkdf2: .sha512)
            }
        },
    ]
}

/// SHA-224: swift-crypto exposes no SHA-224 digest, HMAC or HKDF, only PBKDF2-HMAC-SHA-224
/// (BoringSSL's). So SHA-224 is checked through PBKDF2 with 0…16 rounds, and HMAC-SHA-224
/// through one PBKDF2 round: T₁ = HMAC(password, salt ‖ INT(1)) (RFC 8018 §5.2), i.e. HMAC of
/// any message ending in 00 00 00 01, with keys of every length.
private func sha224(_ operation: UInt8, _ reader: inout PrimitiveFuzzInput, _ input: [UInt8]) {
    guard operation & 1 == 0 else {
        return DigestDifferential<CryptoPrimitives.SHA224, Crypto.SHA256>.pbkdf2Case(&reader, input, hash: .insecureSHA224)
    }
    let key = reader.bytes(Int(reader.byte()))
    let salt = reader.rest()
    let tag = CryptoPrimitives.HMAC<CryptoPrimitives.SHA224>.authenticationCode(for: salt + [0, 0, 0, 1], using: .init(data: key)).bytes
    guard let reference = try? KDF.Insecure.PBKDF2.deriveKey(from: key, salt: salt, using: .insecureSHA224, outputByteCount: 28, unsafeUncheckedRounds: 1),
          referenceBytes(reference) == tag else {
        FuzzTarget.mismatch("HMAC-SHA-224 (key \(key.count) bytes) against one PBKDF2 round", input)
    }
}

/// The bytes of any swift-crypto value (digests, MACs, keys, shared secrets).
func referenceBytes(_ value: some ContiguousBytes) -> [UInt8] {
    value.withUnsafeBytes { Array($0) }
}

/// The bytes of an engine key.
func engineBytes(_ key: CryptoPrimitives.SymmetricKey) -> [UInt8] {
    key.withUnsafeBytes { Array($0) }
}

/// One hash of the engine (`Ours`) and the same hash of swift-crypto (`Theirs`).
enum DigestDifferential<Ours: CryptoPrimitives.HashFunction, Theirs: Crypto.HashFunction> {
    static func run(_ operation: UInt8, _ reader: inout PrimitiveFuzzInput, _ input: [UInt8], pbkdf2: KDF.Insecure.PBKDF2.HashFunction) {
        switch operation % 5 {
        case 0: digest(&reader, input)
        case 1: hmac(&reader, input)
        case 2: hkdf(&reader, input)
        case 3: pbkdf2Case(&reader, input, hash: pbkdf2)
        default: x963(&reader, input)
        }
    }

    /// One-shot and streamed digests (the engine's two update paths alternate over the pieces).
    static func digest(_ reader: inout PrimitiveFuzzInput, _ input: [UInt8]) {
        let pieces = reader.pieces()
        let whole = pieces.flatMap { $0 }
        let expected = referenceBytes(Theirs.hash(data: whole))
        var reference = Theirs()
        for piece in pieces { reference.update(data: piece) }
        guard referenceBytes(reference.finalize()) == expected else { FuzzTarget.mismatch("\(Ours.self): swift-crypto streamed ≠ one-shot", input) }
        guard Ours.hash(data: whole).bytes == expected else { FuzzTarget.mismatch("\(Ours.self) one-shot digest", input) }
        var hasher = Ours()
        for (index, piece) in pieces.enumerated() {
            if index % 2 == 0 { hasher.update(data: piece) } else { piece.withUnsafeBytes { hasher.update(bufferPointer: $0) } }
        }
        guard hasher.finalize().bytes == expected else { FuzzTarget.mismatch("\(Ours.self) streamed digest (\(pieces.map(\.count)))", input) }
    }

    /// HMAC with a key of 0…255 bytes (shorter than, equal to and longer than the block),
    /// one-shot, streamed, and the verification of the right tag, a tampered one and a prefix.
    static func hmac(_ reader: inout PrimitiveFuzzInput, _ input: [UInt8]) {
        let keyBytes = reader.bytes(Int(reader.byte()))
        let flip = reader.uint16()
        let pieces = reader.pieces()
        let whole = pieces.flatMap { $0 }
        let ourKey = CryptoPrimitives.SymmetricKey(data: keyBytes), theirKey = Crypto.SymmetricKey(data: keyBytes)
        let expected = referenceBytes(Crypto.HMAC<Theirs>.authenticationCode(for: whole, using: theirKey))
        guard CryptoPrimitives.HMAC<Ours>.authenticationCode(for: whole, using: ourKey).bytes == expected else {
            FuzzTarget.mismatch("HMAC<\(Ours.self)> one-shot, key \(keyBytes.count) bytes", input)
        }
        var mac = CryptoPrimitives.HMAC<Ours>(key: ourKey)
        for (index, piece) in pieces.enumerated() {
            if index % 2 == 0 { mac.update(data: piece) } else { piece.withUnsafeBytes { mac.update(bufferPointer: $0) } }
        }
        guard mac.finalize().bytes == expected else { FuzzTarget.mismatch("HMAC<\(Ours.self)> streamed, key \(keyBytes.count) bytes", input) }
        var tampered = expected
        tampered[flip % tampered.count] ^= UInt8(truncatingIfNeeded: flip >> 8) | 1
        let cut = Array(expected.prefix(flip % (expected.count + 1)))
        for tag in [expected, tampered, cut] {
            let theirs = Crypto.HMAC<Theirs>.isValidAuthenticationCode(tag, authenticating: whole, using: theirKey)
            let ours = CryptoPrimitives.HMAC<Ours>.isValidAuthenticationCode(tag, authenticating: whole, using: ourKey)
            guard ours == theirs else { FuzzTarget.mismatch("HMAC<\(Ours.self)> verdict on a \(tag.count)-byte tag: engine \(ours), reference \(theirs)", input) }
        }
    }

    /// HKDF: extract, expand from the reference's pseudorandom key, and derive, for output
    /// lengths 0…255·HashLen + 39. swift-crypto's HKDF traps (not throws) outside
    /// 1…255·HashLen, so there the reference verdict is RFC 5869 §2.3's own: L ≤ 255·HashLen
    /// (and an empty output is refused too): the engine must refuse.
    static func hkdf(_ reader: inout PrimitiveFuzzInput, _ input: [UInt8]) {
        let length = reader.uint16() % (255 * Ours.byteCount + 40)
        let ikm = reader.bytes(Int(reader.byte()) % 100)
        let salt = reader.bytes(Int(reader.byte()))
        let info = reader.rest()
        let ourKey = CryptoPrimitives.SymmetricKey(data: ikm)
        let ourPRK = CryptoPrimitives.HKDF<Ours>.extract(inputKeyMaterial: ourKey, salt: salt)
        let theirPRK = referenceBytes(Crypto.HKDF<Theirs>.extract(inputKeyMaterial: Crypto.SymmetricKey(data: ikm), salt: salt))
        guard engineBytes(ourPRK) == theirPRK else { FuzzTarget.mismatch("HKDF<\(Ours.self)> extract", input) }
        let derived = try? CryptoPrimitives.HKDF<Ours>.deriveKey(inputKeyMaterial: ourKey, salt: salt, info: info, outputByteCount: length)
        let expanded = try? CryptoPrimitives.HKDF<Ours>.expand(pseudoRandomKey: CryptoPrimitives.SymmetricKey(data: theirPRK), info: info, outputByteCount: length)
        guard length >= 1, length <= 255 * Theirs.Digest.byteCount else {
            guard derived == nil, expanded == nil else { FuzzTarget.mismatch("HKDF<\(Ours.self)> accepted output length \(length)", input) }
            return
        }
        let expected = referenceBytes(Crypto.HKDF<Theirs>.expand(pseudoRandomKey: theirPRK, info: info, outputByteCount: length))
        guard let derived, let expanded, engineBytes(derived) == expected, engineBytes(expanded) == expected else {
            FuzzTarget.mismatch("HKDF<\(Ours.self)> output of \(length) bytes", input)
        }
    }

    /// PBKDF2 with 0…16 iterations (0 must be refused by both) and 1…160 output bytes.
    static func pbkdf2Case(_ reader: inout PrimitiveFuzzInput, _ input: [UInt8], hash: KDF.Insecure.PBKDF2.HashFunction) {
        let rounds = Int(reader.byte() % 17)
        let length = Int(reader.byte()) % 160 + 1
        let password = reader.bytes(Int(reader.byte()) % 160)
        let salt = reader.rest()
        let ours = try? CryptoPrimitives.PBKDF2<Ours>.deriveKey(from: password, salt: salt, rounds: rounds, outputByteCount: length)
        let theirs = try? KDF.Insecure.PBKDF2.deriveKey(from: password, salt: salt, using: hash, outputByteCount: length, unsafeUncheckedRounds: rounds)
        guard ours.map(engineBytes) == theirs.map(referenceBytes) else {
            FuzzTarget.mismatch("PBKDF2<\(Ours.self)> \(rounds) rounds, \(length) bytes: engine \(ours == nil ? "refused" : "derived"), reference \(theirs == nil ? "refused" : "derived")", input)
        }
    }

    /// The ANSI X9.63 KDF against the reference below, for 1…1024 output bytes.
    static func x963(_ reader: inout PrimitiveFuzzInput, _ input: [UInt8]) {
        let length = reader.uint16() % 1024 + 1
        let secret = reader.bytes(Int(reader.byte()))
        let sharedInfo = reader.rest()
        guard let ours = try? CryptoPrimitives.X963KDF<Ours>.deriveKey(sharedSecret: secret, sharedInfo: sharedInfo, outputByteCount: length),
              engineBytes(ours) == referenceX963(secret: secret, sharedInfo: sharedInfo, length: length) else {
            FuzzTarget.mismatch("X9.63 KDF<\(Ours.self)>, \(length) bytes", input)
        }
    }

    /// swift-crypto has no X9.63 KDF, so this is the reference, written out from SEC 1 v2
    /// §3.6.1 over swift-crypto's (BoringSSL's) hash: K_i = Hash(Z ‖ Counter_i ‖ SharedInfo)
    /// for Counter_i = 1, 2, … as a 32-bit big-endian integer, K = K_1 ‖ K_2 ‖ …, cut to the
    /// length. (Step 1's refusal of lengths ≥ HashLen·(2³²−1) is out of reach of a fuzz input.)
    static func referenceX963(secret: [UInt8], sharedInfo: [UInt8], length: Int) -> [UInt8] {
        var output: [UInt8] = []
        var counter: UInt32 = 1
        while output.count < length {
            var hasher = Theirs()
            hasher.update(data: secret)
            hasher.update(data: [UInt8(counter >> 24), UInt8(counter >> 16 & 0xFF), UInt8(counter >> 8 & 0xFF), UInt8(counter & 0xFF)])
            hasher.update(data: sharedInfo)
            output += referenceBytes(hasher.finalize())
            counter += 1
        }
        return Array(output.prefix(length))
    }
}
