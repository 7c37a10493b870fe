// diff-aes: AES-128/192/256 against BoringSSL through _CryptoExtras: the block function both
// ways, CBC with and without PKCS #7 padding (encryption, and decryption of arbitrary
// ciphertexts: the same plaintext or both refuse), CTR one-shot and streamed, with counter
// blocks next to the 2³², 2⁶⁴ and 2¹²⁸ wraps.
//   byte 0: the operation; byte 1: the key length (one in eight an invalid length, which both
//   must refuse); then the key and the operation's inputs.
//
// Counter width: both sides increment the whole 128-bit counter block big-endian. The engine
// says so (AES+CTR.swift); BoringSSL's AES_ctr128_encrypt runs CRYPTO_ctr128_encrypt_ctr32,
// which increments the low 32 bits and carries into the upper 96 (ctr96_inc) when they wrap,
// so the two agree across every wrap and are compared everywhere.
import Crypto
import CryptoExtras
import CryptoPrimitives
import Foundation

extension FuzzTarget {
    static let differentialAES: [FuzzTarget] = [
        FuzzTarget("diff-aes") { input in
            var reader = PrimitiveFuzzInput(input)
            let operation = reader.byte()
            let keyChoice = reader.byte()
            let keyLength = keyChoice & 7 == 7 ? Int(keyChoice >> 3) % 41 : [16, 24, 32][Int(keyChoice >> 3) % 3]
            let key = reader.bytes(keyLength)
            switch operation % 4 {
            case 0: AESDifferential.block(key, &reader, input)
            case 1: AESDifferential.cbcEncrypt(key, &reader, input)
            case 2: AESDifferential.cbcDecrypt(key, &reader, input)
            default: AESDifferential.ctr(key, &reader, input)
            }
        },
    ]
}

enum AESDifferential {
    /// The block function both ways on one block (a block of the wrong length: both refuse).
    static func block(_ key: [UInt8], _ reader: inout PrimitiveFuzzInput, _ input: [UInt8]) {
        let block = reader.bytes(reader.byte() == 0xFF ? Int(reader.byte() % 32) : 16)
        let ourKey = CryptoPrimitives.SymmetricKey(data: key), theirKey = Crypto.SymmetricKey(data: key)
        var forward = block, backward = block
        let theirForward = (try? Crypto.AES.permute(&forward, key: theirKey)).map { forward }
        let theirBackward = (try? Crypto.AES.inversePermute(&backward, key: theirKey)).map { backward }
        let ourForward = try? CryptoPrimitives.AES.encryptBlock(block, using: ourKey)
        let ourBackward = try? CryptoPrimitives.AES.decryptBlock(block, using: ourKey)
        guard ourForward == theirForward, ourBackward == theirBackward else {
            FuzzTarget.mismatch("AES block function, key \(key.count) bytes, block \(block.count) bytes", input)
        }
    }

    /// CBC encryption of an arbitrary plaintext (padded, or unpadded and refused unless whole
    /// blocks), then the engine decrypts the reference's ciphertext.
    static func cbcEncrypt(_ key: [UInt8], _ reader: inout PrimitiveFuzzInput, _ input: [UInt8]) {
        let padded = reader.byte() & 1 == 0
        let iv = reader.bytes(16)
        let plaintext = reader.rest()
        let padding: CryptoPrimitives.AES.UnauthenticatedCBC.Padding = padded ? .pkcs7 : .none
        let ours = try? CryptoPrimitives.AES.UnauthenticatedCBC.encrypt(plaintext, using: CryptoPrimitives.SymmetricKey(data: key), iv: iv, padding: padding)
        let theirs = try? Crypto.AES._CBC.encrypt(plaintext, using: Crypto.SymmetricKey(data: key), iv: Crypto.AES._CBC.IV(ivBytes: iv), noPadding: !padded)
        guard ours == theirs.map({ Array($0) }) else {
            FuzzTarget.mismatch("CBC encrypt (padded \(padded), key \(key.count), iv \(iv.count), \(plaintext.count) bytes)", input)
        }
        guard let theirs, !theirs.isEmpty else { return }
        guard let back = try? CryptoPrimitives.AES.UnauthenticatedCBC.decrypt(theirs, using: CryptoPrimitives.SymmetricKey(data: key), iv: iv, padding: padding),
              back == plaintext else {
            FuzzTarget.mismatch("CBC decrypt of the reference's ciphertext (padded \(padded))", input)
        }
    }

    /// CBC decryption of an arbitrary ciphertext: the same plaintext or both refuse, padded and
    /// not, and the engine's deferred padding check agrees with both verdicts.
    ///
    /// One difference by design: an EMPTY ciphertext without padding decrypts to the empty
    /// plaintext in the engine (zero whole blocks) and is refused by _CryptoExtras
    /// (`ciphertext.count > 0`); only non-empty unpadded ciphertexts are compared. With padding
    /// both refuse the empty ciphertext, and that is compared.
    static func cbcDecrypt(_ key: [UInt8], _ reader: inout PrimitiveFuzzInput, _ input: [UInt8]) {
        let shape = reader.byte()
        let iv = reader.bytes(shape & 0x80 == 0 ? 16 : Int(shape & 0x1F))
        var ciphertext = reader.rest()
        // Mostly whole blocks, so the padding check is what decides.
        if shape & 0x40 == 0 { ciphertext.removeLast(ciphertext.count % 16) }
        let ourKey = CryptoPrimitives.SymmetricKey(data: key), theirKey = Crypto.SymmetricKey(data: key)
        let theirIV = try? Crypto.AES._CBC.IV(ivBytes: iv)
        let theirPadded = theirIV.flatMap { try? Crypto.AES._CBC.decrypt(ciphertext, using: theirKey, iv: $0, noPadding: false) }.map { Array($0) }
        let ourPadded = try? CryptoPrimitives.AES.UnauthenticatedCBC.decrypt(ciphertext, using: ourKey, iv: iv, padding: .pkcs7)
        guard ourPadded == theirPadded else {
            FuzzTarget.mismatch("CBC-PKCS7 decrypt (key \(key.count), iv \(iv.count), \(ciphertext.count) bytes): engine \(ourPadded.map { "\($0.count) bytes" } ?? "refused"), reference \(theirPadded.map { "\($0.count) bytes" } ?? "refused")", input)
        }
        guard !ciphertext.isEmpty else { return }
        let theirRaw = theirIV.flatMap { try? Crypto.AES._CBC.decrypt(ciphertext, using: theirKey, iv: $0, noPadding: true) }.map { Array($0) }
        let ourRaw = try? CryptoPrimitives.AES.UnauthenticatedCBC.decrypt(ciphertext, using: ourKey, iv: iv, padding: .none)
        guard ourRaw == theirRaw else { FuzzTarget.mismatch("CBC decrypt without padding (key \(key.count), iv \(iv.count), \(ciphertext.count) bytes)", input) }
        // The deferred check: the unpadded plaintext and `true`, or the whole block and `false`.
        let deferred = try? CryptoPrimitives.AES.UnauthenticatedCBC.decryptDeferringPaddingCheck(ciphertext, using: ourKey, iv: iv)
        let expected: ([UInt8], Bool)? = theirPadded.map { ($0, true) } ?? theirRaw.map { ($0, false) }
        guard deferred?.plaintext == expected?.0, deferred?.hasValidPadding == expected?.1 else {
            FuzzTarget.mismatch("CBC deferred padding check (\(ciphertext.count) bytes)", input)
        }
    }

    /// CTR from a counter block next to a wrap (or arbitrary), one-shot and streamed in
    /// fuzzer-chosen pieces, against the reference's one-shot (it has no streaming API).
    static func ctr(_ key: [UInt8], _ reader: inout PrimitiveFuzzInput, _ input: [UInt8]) {
        let kind = reader.byte()
        let below = reader.byte() % 12  // blocks before the wrap
        var counter: [UInt8]
        switch kind % 5 {
        case 0: counter = reader.bytes(16)  // arbitrary (short: both refuse)
        case 1: counter = reader.bytes(12) + [0xFF, 0xFF, 0xFF, 0xFF - below]  // 2³² wrap of the low word
        case 2: counter = reader.bytes(8) + [UInt8](repeating: 0xFF, count: 7) + [0xFF - below]  // 2⁶⁴
        case 3: counter = [UInt8](repeating: 0xFF, count: 15) + [0xFF - below]  // 2¹²⁸: back to zero
        default: counter = reader.bytes(4) + [UInt8](repeating: 0xFF, count: 11) + [0xFF - below]  // 2⁹⁶
        }
        let pieces = reader.pieces()
        let whole = pieces.flatMap { $0 }
        let ourKey = CryptoPrimitives.SymmetricKey(data: key)
        // A counter block of 12 bytes means "nonce, counter 0" to _CryptoExtras; the engine
        // takes only whole 16-byte blocks. Only 16-byte blocks go to the reference.
        let theirs = counter.count == 16
            ? (try? Crypto.AES._CTR.encrypt(whole, using: Crypto.SymmetricKey(data: key), nonce: Crypto.AES._CTR.Nonce(nonceBytes: counter))).map { Array($0) }
            : nil
        let ours = try? CryptoPrimitives.AES.UnauthenticatedCTR.encrypt(whole, using: ourKey, counterBlock: counter)
        guard ours == theirs else {
            FuzzTarget.mismatch("CTR one-shot (key \(key.count), counter \(Hex.encode(counter)), \(whole.count) bytes)", input)
        }
        guard let theirs, var stream = try? CryptoPrimitives.AES.UnauthenticatedCTR.Stream(key: ourKey, counterBlock: counter) else { return }
        let streamed = pieces.flatMap { stream.process($0) }
        guard streamed == theirs else { FuzzTarget.mismatch("CTR streamed in pieces \(pieces.map(\.count)) from counter \(Hex.encode(counter))", input) }
    }
}
