// diff-rsa: RSA-2048 and RSA-3072 (the fixed benchmark keys, decoded once by each side) against
// BoringSSL through _CryptoExtras: OAEP (SHA-1, SHA-256) and PKCS #1 v1.5 encryption made by
// each side and decrypted by the other; decryption of crafted ciphertexts (a valid encoded
// block with fuzzer-chosen edits, re-encrypted) and of arbitrary ones: the same message or both
// refuse; PKCS #1 v1.5 and PSS signatures both ways and verification of crafted signatures;
// key parsing of edited DER.
//   byte 0: the operation; byte 1: the key and the padding; then the operation's inputs.
//
// PKCS #1 v1.5 decryption: the engine has two entry points. `decrypt(_:padding:)` with
// `.insecurePKCS1v1_5` fails explicitly on bad padding, exactly like BoringSSL's
// RSA_PKCS1_PADDING (which has no implicit rejection): verdicts and messages are compared
// directly. `decryptWithImplicitRejection(_:messageByteCount:)` never fails on bad padding; it
// is compared where it is defined to agree: when BoringSSL accepts a message of length L, the
// implicit-rejection result for length L must be that message; otherwise it must still return
// L bytes (its synthetic value is the engine's own derivation, with no counterpart in BoringSSL).
//
// Crafting: BoringSSL's raw private operation is reached through _RSA.BlindSigning's
// blindSignature(for:) (RSA_sign_raw, no padding), the raw public operation is computed with
// attaswift/BigInt, so neither side's own padding code builds the inputs.
import BenchmarkKit
import BigInt
import Crypto
import CryptoExtras
import CryptoPrimitives
import Foundation

extension FuzzTarget {
    static let differentialRSA: [FuzzTarget] = [
        FuzzTarget("diff-rsa") { input in
            var reader = PrimitiveFuzzInput(input)
            let operation = reader.byte()
            let choice = reader.byte()
            let pair = choice & 0x80 == 0 ? RSAPair.bits2048 : RSAPair.bits3072
            switch operation % 7 {
            case 0: pair.encryptOurs(choice, &reader, input)
            case 1: pair.encryptTheirs(choice, &reader, input)
            case 2: pair.decryptCrafted(choice, &reader, input)
            case 3: pair.signOurs(choice, &reader, input)
            case 4: pair.signTheirs(choice, &reader, input)
            case 5: pair.verifyCrafted(choice, &reader, input)
            default: pair.parseKeys(choice, &reader, input)
            }
        },
    ]
}

/// One key, as each side holds it, and its public numbers for the BigInt public operation.
/// Unchecked: _CryptoExtras's RSA key types do not declare Sendable; these are immutable
/// wrappers of BoringSSL keys that are only read (BoringSSL's RSA is thread-safe for use).
struct RSAPair: @unchecked Sendable {
    let ourEncryption: CryptoPrimitives.RSA.Encryption.PrivateKey
    let ourSigning: CryptoPrimitives.RSA.Signing.PrivateKey
    let theirEncryption: _RSA.Encryption.PrivateKey
    let theirSigning: _RSA.Signing.PrivateKey
    let theirRaw: _RSA.BlindSigning.PrivateKey<Crypto.SHA384>
    let modulus: BigUInt
    let exponent: BigUInt
    let k: Int

    static let bits2048 = RSAPair(pem: BenchmarkFixtures.rsa2048PrivateKeyPEM)
    static let bits3072 = RSAPair(pem: BenchmarkFixtures.rsa3072PrivateKeyPEM)

    init(pem: String) {
        do {
            ourEncryption = try CryptoPrimitives.RSA.Encryption.PrivateKey(pemRepresentation: pem)
            ourSigning = try CryptoPrimitives.RSA.Signing.PrivateKey(pemRepresentation: pem)
            theirEncryption = try _RSA.Encryption.PrivateKey(pemRepresentation: pem)
            theirSigning = try _RSA.Signing.PrivateKey(pemRepresentation: pem)
            theirRaw = try _RSA.BlindSigning.PrivateKey<Crypto.SHA384>(pemRepresentation: pem)
        } catch {
            fatalError("RSA fixture does not decode: \(error)")
        }
        modulus = BigUInt(Data(ourEncryption.publicKey.modulus))
        exponent = BigUInt(Data(ourEncryption.publicKey.publicExponent))
        k = (ourEncryption.keySizeInBits + 7) / 8
    }

    /// The encryption padding the choice byte names, on each side.
    static func padding(_ choice: UInt8) -> (ours: CryptoPrimitives.RSA.Encryption.Padding, theirs: _RSA.Encryption.Padding, name: String) {
        switch choice % 3 {
        case 0: (.oaepSHA1, .PKCS1_OAEP, "OAEP-SHA1")
        case 1: (.oaepSHA256, .PKCS1_OAEP_SHA256, "OAEP-SHA256")
        default: (.insecurePKCS1v1_5, ._WEAK_AND_INSECURE_PKCS_V1_5, "PKCS1v1.5")
        }
    }

    /// `bytes` as exactly k bytes: zeros in front, or the leading bytes cut.
    func sized(_ bytes: [UInt8]) -> [UInt8] {
        bytes.count >= k ? Array(bytes.suffix(k)) : [UInt8](repeating: 0, count: k - bytes.count) + bytes
    }

    /// x^e mod n as k bytes, or x itself when x ≥ n (both sides must refuse it).
    func publicOperation(_ block: [UInt8]) -> [UInt8] {
        let x = BigUInt(Data(block))
        guard x < modulus else { return block }
        return sized(Array(x.power(exponent, modulus: modulus).serialize()))
    }

    /// x^d mod n from BoringSSL, or x itself when BoringSSL refuses (x ≥ n).
    func privateOperation(_ block: [UInt8]) -> [UInt8] {
        guard let result = try? theirRaw.blindSignature(for: block) else { return block }
        return sized(referenceBytes(result))
    }

    /// The engine encrypts (or both refuse a message too long for the padding); BoringSSL decrypts.
    func encryptOurs(_ choice: UInt8, _ reader: inout PrimitiveFuzzInput, _ input: [UInt8]) {
        let padding = Self.padding(choice)
        var random = SeededRandomSource(seed: reader.bytes(8))
        let message = reader.bytes(reader.uint16() % (k + 8))
        let ours = try? ourEncryption.publicKey.encrypt(message, padding: padding.ours, using: &random)
        let theirs = try? theirEncryption.publicKey.encrypt(message, padding: padding.theirs)
        guard (ours == nil) == (theirs == nil) else {
            FuzzTarget.mismatch("RSA-\(k * 8) \(padding.name) encryption of \(message.count) bytes: engine \(ours != nil), reference \(theirs != nil)", input)
        }
        guard let ours else { return }
        guard let back = try? theirEncryption.decrypt(ours, padding: padding.theirs), Array(back) == message else {
            FuzzTarget.mismatch("BoringSSL could not decrypt the engine's RSA-\(k * 8) \(padding.name) ciphertext", input)
        }
    }

    /// BoringSSL encrypts; the engine decrypts (and, for PKCS #1 v1.5, its implicit rejection
    /// returns the same message).
    func encryptTheirs(_ choice: UInt8, _ reader: inout PrimitiveFuzzInput, _ input: [UInt8]) {
        let padding = Self.padding(choice)
        let message = reader.bytes(reader.uint16() % k)
        guard let ciphertext = try? Array(theirEncryption.publicKey.encrypt(message, padding: padding.theirs)) else { return }
        guard let back = try? ourEncryption.decrypt(ciphertext, padding: padding.ours), back == message else {
            FuzzTarget.mismatch("the engine could not decrypt BoringSSL's RSA-\(k * 8) \(padding.name) ciphertext", input)
        }
        checkImplicitRejection(padding.name, ciphertext, accepted: message, input)
    }

    /// A ciphertext whose decrypted block is a valid encoding with edits (or arbitrary k
    /// bytes), decrypted by both: the same message or both refuse.
    func decryptCrafted(_ choice: UInt8, _ reader: inout PrimitiveFuzzInput, _ input: [UInt8]) {
        let padding = Self.padding(choice)
        let arbitrary = choice & 0x40 != 0
        let message = reader.bytes(Int(reader.byte()) % (k - 41))
        let ciphertext: [UInt8]
        if arbitrary {
            ciphertext = sized(reader.rest())
        } else {
            guard let valid = try? Array(theirEncryption.publicKey.encrypt(message, padding: padding.theirs)) else { return }
            ciphertext = publicOperation(sized(reader.edited(privateOperation(valid))))
        }
        let ours = try? ourEncryption.decrypt(ciphertext, padding: padding.ours)
        let theirs = (try? theirEncryption.decrypt(ciphertext, padding: padding.theirs)).map { Array($0) }
        guard ours == theirs else {
            FuzzTarget.mismatch("RSA-\(k * 8) \(padding.name) decryption of \(Hex.encode(ciphertext.prefix(32)))…: engine \(ours.map { "\($0.count) bytes" } ?? "refused"), reference \(theirs.map { "\($0.count) bytes" } ?? "refused")", input)
        }
        checkImplicitRejection(padding.name, ciphertext, accepted: theirs, input)
    }

    /// PKCS #1 v1.5 only: where BoringSSL accepted a message of length L (1 ≤ L ≤ k − 11),
    /// implicit rejection for L gives that message; where it refused, L = 16 bytes of something.
    func checkImplicitRejection(_ name: String, _ ciphertext: [UInt8], accepted: [UInt8]?, _ input: [UInt8]) {
        guard name == "PKCS1v1.5" else { return }
        let length = accepted.map(\.count) ?? 16
        guard length >= 1, length <= k - 11 else { return }
        let result = try? ourEncryption.decryptWithImplicitRejection(ciphertext, messageByteCount: length)
        if let accepted {
            guard result?.unsafeExposedBytes == accepted else { FuzzTarget.mismatch("RSA-\(k * 8) implicit rejection changed an accepted \(length)-byte message", input) }
        } else if let result, result.count != length {
            FuzzTarget.mismatch("RSA-\(k * 8) implicit rejection length", input)
        }
    }

    /// The engine signs (PKCS #1 v1.5 or PSS over SHA-256/384/512); BoringSSL verifies.
    func signOurs(_ choice: UInt8, _ reader: inout PrimitiveFuzzInput, _ input: [UInt8]) {
        var random = SeededRandomSource(seed: reader.bytes(8))
        let message = reader.rest()
        let pss = choice & 0x20 != 0
        let (ourPadding, theirPadding): (CryptoPrimitives.RSA.Signing.Padding, _RSA.Signing.Padding) = pss ? (.pss, .PSS) : (.pkcs1v1_5, .insecurePKCS1v1_5)
        let verified: Bool
        switch choice % 3 {
        case 0:
            guard let made = try? ourSigning.signature(for: CryptoPrimitives.SHA256.hash(data: message), padding: ourPadding, using: &random) else { FuzzTarget.mismatch("RSA signing failed", input) }
            verified = theirSigning.publicKey.isValidSignature(.init(rawRepresentation: made.rawRepresentation), for: Crypto.SHA256.hash(data: message), padding: theirPadding)
        case 1:
            guard let made = try? ourSigning.signature(for: CryptoPrimitives.SHA384.hash(data: message), padding: ourPadding, using: &random) else { FuzzTarget.mismatch("RSA signing failed", input) }
            verified = theirSigning.publicKey.isValidSignature(.init(rawRepresentation: made.rawRepresentation), for: Crypto.SHA384.hash(data: message), padding: theirPadding)
        default:
            guard let made = try? ourSigning.signature(for: CryptoPrimitives.SHA512.hash(data: message), padding: ourPadding, using: &random) else { FuzzTarget.mismatch("RSA signing failed", input) }
            verified = theirSigning.publicKey.isValidSignature(.init(rawRepresentation: made.rawRepresentation), for: Crypto.SHA512.hash(data: message), padding: theirPadding)
        }
        guard verified else { FuzzTarget.mismatch("BoringSSL refused the engine's RSA-\(k * 8) signature (PSS \(pss), hash \(choice % 3))", input) }
    }

    /// BoringSSL signs; the engine verifies.
    func signTheirs(_ choice: UInt8, _ reader: inout PrimitiveFuzzInput, _ input: [UInt8]) {
        let message = reader.rest()
        let pss = choice & 0x20 != 0
        guard let made = theirSignature(choice, message) else { return }
        guard made.verified(made.signature) else { FuzzTarget.mismatch("the engine refused BoringSSL's RSA-\(k * 8) signature (PSS \(pss), hash \(choice % 3))", input) }
    }

    /// BoringSSL's signature of `message` and the engine's verification of any signature bytes
    /// for the same message, hash and padding.
    func theirSignature(_ choice: UInt8, _ message: [UInt8]) -> (signature: [UInt8], verified: ([UInt8]) -> Bool)? {
        let pss = choice & 0x20 != 0
        let (ourPadding, theirPadding): (CryptoPrimitives.RSA.Signing.Padding, _RSA.Signing.Padding) = pss ? (.pss, .PSS) : (.pkcs1v1_5, .insecurePKCS1v1_5)
        let key = ourSigning.publicKey
        switch choice % 3 {
        case 0:
            guard let made = try? theirSigning.signature(for: Crypto.SHA256.hash(data: message), padding: theirPadding) else { return nil }
            return (referenceBytes(made), { key.isValidSignature(.init(rawRepresentation: $0), for: CryptoPrimitives.SHA256.hash(data: message), padding: ourPadding) })
        case 1:
            guard let made = try? theirSigning.signature(for: Crypto.SHA384.hash(data: message), padding: theirPadding) else { return nil }
            return (referenceBytes(made), { key.isValidSignature(.init(rawRepresentation: $0), for: CryptoPrimitives.SHA384.hash(data: message), padding: ourPadding) })
        default:
            guard let made = try? theirSigning.signature(for: Crypto.SHA512.hash(data: message), padding: theirPadding) else { return nil }
            return (referenceBytes(made), { key.isValidSignature(.init(rawRepresentation: $0), for: CryptoPrimitives.SHA512.hash(data: message), padding: ourPadding) })
        }
    }

    /// A signature whose opened block is BoringSSL's valid encoding with edits (or arbitrary
    /// bytes), verified by both: the same verdict.
    func verifyCrafted(_ choice: UInt8, _ reader: inout PrimitiveFuzzInput, _ input: [UInt8]) {
        let message = reader.bytes(Int(reader.byte()))
        guard let made = theirSignature(choice, message) else { return }
        let valid = made.signature, ourVerdict = made.verified
        let signature = choice & 0x40 != 0 ? reader.edited(valid) : privateOperation(sized(reader.edited(publicOperation(valid))))
        let pss = choice & 0x20 != 0
        let reference: Bool
        let theirPadding: _RSA.Signing.Padding = pss ? .PSS : .insecurePKCS1v1_5
        let wrapped = _RSA.Signing.RSASignature(rawRepresentation: signature)
        switch choice % 3 {
        case 0: reference = theirSigning.publicKey.isValidSignature(wrapped, for: Crypto.SHA256.hash(data: message), padding: theirPadding)
        case 1: reference = theirSigning.publicKey.isValidSignature(wrapped, for: Crypto.SHA384.hash(data: message), padding: theirPadding)
        default: reference = theirSigning.publicKey.isValidSignature(wrapped, for: Crypto.SHA512.hash(data: message), padding: theirPadding)
        }
        let ours = ourVerdict(signature)
        guard ours == reference else {
            FuzzTarget.mismatch("RSA-\(k * 8) verdict (PSS \(pss), hash \(choice % 3)) on a crafted signature: engine \(ours), reference \(reference)", input)
        }
    }

    /// An edited DER key (SPKI, PKCS #1 public, PKCS #1 private, PKCS #8 private) parsed by
    /// both: the same verdict and the same modulus and exponent. The reference's "unsafe"
    /// initialisers take 1024 bits and up, like the engine (1024…8192).
    func parseKeys(_ choice: UInt8, _ reader: inout PrimitiveFuzzInput, _ input: [UInt8]) {
        let form = choice % 4
        let valid: [UInt8]
        switch form {
        case 0: valid = Array(theirSigning.publicKey.derRepresentation)
        case 1: valid = Array(theirSigning.publicKey.pkcs1DERRepresentation)
        case 2: valid = Array(theirSigning.derRepresentation)
        default: valid = Array(theirSigning.pkcs8DERRepresentation)
        }
        let encoding = reader.edited(valid)
        let ours: CryptoPrimitives.RSA.Signing.PublicKey?
        let theirs: _RSA.Signing.PublicKey?
        if form < 2 {
            ours = try? CryptoPrimitives.RSA.Signing.PublicKey(derRepresentation: encoding)
            theirs = try? _RSA.Signing.PublicKey(unsafeDERRepresentation: encoding)
        } else {
            let ourPrivate = try? CryptoPrimitives.RSA.Signing.PrivateKey(derRepresentation: encoding)
            ours = ourPrivate?.publicKey
            theirs = (try? _RSA.Signing.PrivateKey(unsafeDERRepresentation: encoding))?.publicKey
        }
        // BoringSSL's d2i_*_bio readers take the first DER element and ignore what follows it;
        // a key is that one element (RFC 8017 §A.1, RFC 5208 §5, RFC 5280 §4.1), so bytes after
        // it are the reference's refusal too (the engine refuses them).
        let theirsStrict = Self.isOneElement(encoding) ? theirs : nil
        let numbers = theirsStrict.flatMap { try? $0.getKeyPrimitives() }
        let ourNumbers = ours.map { [Self.minimal($0.modulus), Self.minimal($0.publicExponent)] }
        let theirNumbers = numbers.map { [Self.minimal(Array($0.modulus)), Self.minimal(Array($0.publicExponent))] }
        guard ourNumbers == theirNumbers else {
            FuzzTarget.mismatch("RSA-\(k * 8) key form \(form), \(encoding.count) bytes: engine \(ours != nil), reference \(theirsStrict != nil)", input)
        }
    }

    /// Whether `bytes` is exactly one DER element: a tag byte, a length (short form, or long
    /// form of one to four bytes) and that many content bytes, nothing after.
    static func isOneElement(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 2 else { return false }
        let first = Int(bytes[1])
        var header = 2
        var length = first
        if first & 0x80 != 0 {
            let count = first & 0x7F
            guard (1...4).contains(count), bytes.count >= 2 + count else { return false }
            length = bytes[2..<(2 + count)].reduce(0) { $0 << 8 | Int($1) }
            header += count
        }
        return header + length == bytes.count
    }

    static func minimal(_ bytes: [UInt8]) -> [UInt8] {
        Array(bytes.drop { $0 == 0 })
    }
}
