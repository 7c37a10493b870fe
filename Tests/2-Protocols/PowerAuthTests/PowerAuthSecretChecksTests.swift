// The two checks on secrets that the ctgrind run (ConstantTime/run) caught branching on secret
// bytes, rewritten branch-free: the PUK check (§3.3) and the all-zero unlock-key refusal of key
// locking (§4.2). These pin their answers on every boundary, against the spec's definitions.

import CryptoPrimitives
import PowerAuth
import ProtocolSupport
import Testing

@Suite struct PowerAuthSecretChecksTests {
    /// §3.3: a PUK is exactly ten ASCII digits. Every byte value in every position against the
    /// definition, including the neighbours of '0' and '9' that an off-by-one would let in.
    @Test func pukIsTenASCIIDigitsForEveryByteValue() {
        let digits = Array("0123456789".utf8)
        for position in [0, 4, 9] {
            for value in 0...255 {
                var candidate = Array("3141592653".utf8)
                candidate[position] = UInt8(value)
                let expected = digits.contains(UInt8(value))
                #expect(PowerAuth.isValidPUK(SecretBytes(candidate)) == expected, "byte \(value) at \(position)")
            }
        }
        for (text, expected) in [("0000000000", true), ("9999999999", true), ("/000000000", false), ("999999999:", false)] {
            #expect(PowerAuth.isValidPUK(SecretBytes(Array(text.utf8))) == expected, "\(text)")
            #expect(PowerAuth.isValidPUK(text) == expected, "\(text) as text")
        }
    }

    @Test func pukOfAnyOtherLengthIsRefused() {
        for count in [0, 1, 9, 11, 20] {
            #expect(!PowerAuth.isValidPUK(SecretBytes([UInt8](repeating: 0x37, count: count))), "\(count) digits")
        }
    }

    /// §4.2: an all-zero unlock key is refused; a key that differs from zero in one byte only —
    /// first or last — is a key like any other and round-trips.
    @Test func lockRefusesOnlyTheAllZeroUnlockKey() throws {
        let key = SymmetricKey(data: (0..<16).map { UInt8($0 &* 17) })
        #expect(throws: ProtocolError.self) {
            try PowerAuth.KeyLocking.lock(key, with: SymmetricKey(data: [UInt8](repeating: 0, count: 16)))
        }
        for position in [0, 15] {
            var bytes = [UInt8](repeating: 0, count: 16)
            bytes[position] = 0x01
            let unlockKey = SymmetricKey(data: bytes)
            let locked = try PowerAuth.KeyLocking.lock(key, with: unlockKey)
            #expect(try PowerAuth.KeyLocking.unlock(locked, with: unlockKey) == key)
        }
    }
}
