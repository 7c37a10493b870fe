// Symmetric keys are secrets: redacted and compared in constant time.

import CryptoPrimitives
import Testing

@Suite struct SymmetricKeyTests {
    @Test func keysAreRedactedAndSized() throws {
        let key = SymmetricKey(data: [0xAB, 0xCD, 0xEF, 0x01])
        #expect(key.description == "SymmetricKey(32 bits, redacted)")
        #expect(!"\(key)".contains("ab") && !"\(key)".contains("171"))
        #expect(key.bitCount == 32 && key.byteCount == 4)
        #expect(key == SymmetricKey(data: [0xAB, 0xCD, 0xEF, 0x01]))
        #expect(key != SymmetricKey(data: [0xAB, 0xCD, 0xEF, 0x02]))
        var seeded = SeededRandomSource(seed: 7)
        let random = try SymmetricKey(byteCount: 32, using: &seeded)
        var again = SeededRandomSource(seed: 7)
        #expect(random == (try SymmetricKey(byteCount: 32, using: &again)))
        #expect(try SymmetricKey(byteCount: 16).byteCount == 16)
    }
}
