// Secret storage: redaction, constant-time equality, copy on write, wiping.

import CryptoCore
import Foundation
import Testing

@Suite struct SecretBytesTests {
    @Test func descriptionsAndDumpShowNoBytes() {
        let secret = SecretBytes([0xDE, 0xAD, 0xBE, 0xEF, 0x41, 0x42])
        #expect(secret.description == "SecretBytes(6 bytes, redacted)")
        #expect(secret.debugDescription == secret.description)
        var dumped = ""
        dump(secret, to: &dumped)
        // The bytes 0xDE 0xAD 0xBE 0xEF 0x41 0x42 appear nowhere, in decimal or hex.
        for needle in ["222", "173", "190", "239", "65", "66", "de", "ad", "be", "ef"] {
            #expect(!dumped.lowercased().replacingOccurrences(of: "redacted", with: "").contains(needle), "dump shows \(needle)")
        }
        #expect(dumped.contains("redacted"))
        #expect("\(secret)" == secret.description)
    }

    @Test func equalityComparesContentsAndLengths() {
        #expect(SecretBytes([1, 2, 3]) == SecretBytes([1, 2, 3]))
        #expect(SecretBytes([1, 2, 3]) != SecretBytes([1, 2, 4]))
        #expect(SecretBytes([1, 2, 3]) != SecretBytes([1, 2, 3, 0]))
        #expect(SecretBytes([]) == SecretBytes(zeros: 0))
    }

    @Test func copiesAreIndependentAfterMutation() {
        let original = SecretBytes([1, 2, 3])
        var copy = original
        copy.withUnsafeMutableBytes { $0[0] = 9 }
        #expect(original.unsafeExposedBytes == [1, 2, 3])
        #expect(copy.unsafeExposedBytes == [9, 2, 3])
    }

    @Test func initialisationInPlaceAndZeros() throws {
        let secret = SecretBytes(count: 4) { buffer in
            for i in 0..<buffer.count { buffer[i] = UInt8(i + 10) }
        }
        #expect(secret.unsafeExposedBytes == [10, 11, 12, 13])
        #expect(SecretBytes(zeros: 3).unsafeExposedBytes == [0, 0, 0])
        #expect(SecretBytes(zeros: -1).count == 0)
    }

    @Test func wipeZeroesTheBuffer() {
        var bytes: [UInt8] = [1, 2, 3, 4, 5]
        bytes.withUnsafeMutableBytes { SecretBytes.wipe($0) }
        #expect(bytes == [0, 0, 0, 0, 0])
    }
}
