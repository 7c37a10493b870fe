// NIST CAVP AES files (AESAVS: KAT, MMT and Monte Carlo for ECB and CBC) and the CTR files
// in the same layout (SP 800-38A F.5 transcription, RFC 3686).

import CryptoPrimitives
import VectorFormats

enum CAVPAES {
    enum Mode: String { case ecb = "ECB", cbc = "CBC", ctr = "CTR" }

    /// The mode named by the header ("AESVS … test data for CBC", "AES Counter", "AES-CTR").
    static func mode(of file: CAVPFile) -> Mode? {
        let header = file.headerText
        if header.contains("AESVS") {
            if header.contains("for CBC") { return .cbc }
            if header.contains("for ECB") { return .ecb }
            return nil
        }
        if header.contains("AES Counter") || header.contains("AES-CTR") { return .ctr }
        return nil
    }

    static func check(_ file: CAVPFile, mode: Mode, _ log: inout CaseLog) {
        let monteCarlo = file.headerText.contains("MCT")
        for block in file.blocks where block.has("KEY") {
            let id = "COUNT \(block["COUNT"] ?? "?") line \(block.line)"
            let encrypt = block.inSection("ENCRYPT")
            do throws(VectorFormatError) {
                let key = SymmetricKey(data: try block.bytes("KEY"))
                let iv = mode == .ecb ? [] : try block.bytes("IV")
                let plaintext = try block.bytes("PLAINTEXT"), ciphertext = try block.bytes("CIPHERTEXT")
                let (input, expected) = encrypt ? (plaintext, ciphertext) : (ciphertext, plaintext)
                let got = monteCarlo
                    ? try? self.monteCarlo(mode, key: key, iv: iv, input: input, encrypt: encrypt)
                    : try? run(mode, key: key, iv: iv, input: input, encrypt: encrypt)
                log.expect(got, equals: expected, id, encrypt ? "encrypt" : "decrypt")
            } catch {
                log.fail(id, "", expected: "well-formed record", got: error.description)
            }
        }
    }

    /// One message in the given mode, without padding.
    static func run(_ mode: Mode, key: SymmetricKey, iv: [UInt8], input: [UInt8], encrypt: Bool) throws(CryptoError) -> [UInt8] {
        switch mode {
        case .ecb:
            var out: [UInt8] = []
            for offset in stride(from: 0, to: input.count, by: 16) {
                let block = Array(input[offset..<min(offset + 16, input.count)])
                out += encrypt ? try AES.encryptBlock(block, using: key) : try AES.decryptBlock(block, using: key)
            }
            return out
        case .cbc:
            return encrypt
                ? try AES.UnauthenticatedCBC.encrypt(input, using: key, iv: iv, padding: .none)
                : try AES.UnauthenticatedCBC.decrypt(input, using: key, iv: iv, padding: .none)
        case .ctr:
            return try AES.UnauthenticatedCTR.encrypt(input, using: key, counterBlock: iv)
        }
    }

    /// The AESAVS Monte Carlo inner loop (AESAVS §6.4.1 ECB, §6.4.2 CBC): 1000 chained
    /// operations from one record's key and text; returns the last output.
    static func monteCarlo(_ mode: Mode, key: SymmetricKey, iv: [UInt8], input: [UInt8], encrypt: Bool) throws(CryptoError) -> [UInt8] {
        let cipher: ([UInt8]) throws(CryptoError) -> [UInt8] = { (block) throws(CryptoError) in
            encrypt ? try AES.encryptBlock(block, using: key) : try AES.decryptBlock(block, using: key)
        }
        switch mode {
        case .ecb, .ctr:
            var text = input
            for _ in 0..<1000 { text = try cipher(text) }
            return text
        case .cbc:
            // Encrypt: CT[j] = E(PT[j] ⊕ CT[j−1]) with CT[−1] = IV; PT[j+1] = CT[j−1] (PT[1] = IV).
            // Decrypt: PT[j] = D(CT[j]) ⊕ CT[j−1]…; CT[j+1] = PT[j−1] (CT[1] = IV).
            var chain = iv, text = input, previousOutput = iv, output: [UInt8] = []
            for _ in 0..<1000 {
                if encrypt {
                    output = try cipher(zip(text, chain).map { $0 ^ $1 })
                    chain = output
                } else {
                    output = zip(try cipher(text), chain).map { $0 ^ $1 }
                    chain = text
                }
                text = previousOutput
                previousOutput = output
            }
            return output
        }
    }
}
