// The worked examples of SP 800-38A Appendix F (CBC F.2, CTR F.5).

import CryptoPrimitives
import VectorFormats

enum SP80038A {
    static func check(_ examples: SP80038AExamples, _ log: inout CaseLog) {
        for example in examples.examples {
            let id = "\(example.mode)-AES\(example.keyBits) \(example.encrypt ? "encrypt" : "decrypt") line \(example.line)"
            let mode: CAVPAES.Mode = example.mode == "CBC" ? .cbc : .ctr
            let got = try? CAVPAES.run(mode, key: SymmetricKey(data: example.key), iv: example.iv,
                                       input: example.input, encrypt: example.encrypt)
            log.expect(got, equals: example.output, id)
        }
    }
}
