// Wycheproof AeadTest files (aead_test_schema_v1): AES-GCM and ChaCha20-Poly1305.

import CryptoPrimitives
import VectorFormats

enum WycheproofAEAD {
    /// The AEADs these files name.
    enum Algorithm {
        case aesGCM
        case chaChaPoly

        init?(_ name: String) {
            switch name {
            case "AES-GCM": self = .aesGCM
            case "CHACHA20-POLY1305": self = .chaChaPoly
            default: return nil
            }
        }
    }

    /// Flags of these files. None is on an "acceptable" case, so each only needs to be known:
    /// short, long and empty IVs, counter wraps and edge-case tags and keys are ordinary inputs
    /// to a valid or invalid case.
    static let knownFlags: Set<String> = [
        "Ktv", "Pseudorandom", "SpecialCase", "ModifiedTag", "SmallIv", "CounterWrap", "LongIv", "ZeroLengthIv",
        "EdgeCaseCiphertext", "EdgeCasePolyKey", "EdgeCaseTag", "EdgeCasePoly1305", "InvalidNonceSize",
    ]

    /// Valid cases must seal to `ct ‖ tag` and open back to `msg`; invalid ones must fail to
    /// open (a modified tag, a nonce the algorithm does not take). Groups whose tag is not 128
    /// bits are skipped: both AEADs offer only full tags.
    static func check(_ file: WycheproofFile, algorithm: Algorithm, _ log: inout CaseLog) {
        for group in file.groups {
            let tagBits = group.fields["tagSize"]?.int ?? 0
            for test in group.tests {
                let id = "#\(test.id)"
                guard tagBits == 128 else {
                    log.skip(id, reason: "\(tagBits)-bit tags are not offered (16-byte tags only)")
                    continue
                }
                WycheproofDecisions.knownFlags(test, knownFlags, &log)
                guard let mustSucceed = WycheproofDecisions.expectsSuccess(test, [:], &log) else { continue }
                do throws(VectorFormatError) {
                    let key = SymmetricKey(data: try test.bytes("key"))
                    let iv = try test.bytes("iv"), aad = try test.bytes("aad"), msg = try test.bytes("msg")
                    let ct = try test.bytes("ct"), tag = try test.bytes("tag")
                    let opened = open(algorithm, key: key, iv: iv, aad: aad, ciphertext: ct, tag: tag)
                    if mustSucceed {
                        let sealed = seal(algorithm, key: key, iv: iv, aad: aad, message: msg)
                        if sealed != ct + tag {
                            log.fail(id, test.comment, expected: hex(ct + tag), got: sealed.map(hex) ?? "sealing failed")
                        } else {
                            log.expect(opened, equals: msg, id, test.comment)  // a failed open fails the case
                        }
                    } else {
                        log.expect(opened == nil, id, test.comment, expected: "open refused", got: hex(opened ?? []))
                    }
                } catch {
                    log.fail(id, test.comment, expected: "well-formed case", got: error.description)
                }
            }
        }
    }

    /// `ct ‖ tag`, or nil when the algorithm refuses the inputs.
    private static func seal(_ algorithm: Algorithm, key: SymmetricKey, iv: [UInt8], aad: [UInt8], message: [UInt8]) -> [UInt8]? {
        do throws(CryptoError) {
            switch algorithm {
            case .aesGCM:
                let box = try AES.GCM.seal(message, using: key, nonce: AES.GCM.Nonce(data: iv), authenticating: aad)
                return box.ciphertext + box.tag
            case .chaChaPoly:
                let box = try ChaChaPoly.seal(message, using: key, nonce: ChaChaPoly.Nonce(data: iv), authenticating: aad)
                return box.ciphertext + box.tag
            }
        } catch {
            return nil
        }
    }

    /// The opened message, or nil when opening fails (any reason: the case only asks whether).
    private static func open(_ algorithm: Algorithm, key: SymmetricKey, iv: [UInt8], aad: [UInt8], ciphertext: [UInt8], tag: [UInt8]) -> [UInt8]? {
        do throws(CryptoError) {
            switch algorithm {
            case .aesGCM:
                let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: iv), ciphertext: ciphertext, tag: tag)
                return try AES.GCM.open(box, using: key, authenticating: aad)
            case .chaChaPoly:
                let box = try ChaChaPoly.SealedBox(nonce: ChaChaPoly.Nonce(data: iv), ciphertext: ciphertext, tag: tag)
                return try ChaChaPoly.open(box, using: key, authenticating: aad)
            }
        } catch {
            return nil
        }
    }
}
