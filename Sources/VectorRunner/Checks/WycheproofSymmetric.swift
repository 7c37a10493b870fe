// Wycheproof IndCpaTest (AES-CBC-PKCS5) and MacTest (HMAC-SHA*) files.

import CryptoPrimitives
import VectorFormats

enum WycheproofSymmetric {
    /// Flags these files use; none of them is on an "acceptable" case, so each only needs to
    /// be known. A flag outside this list is noted; an "acceptable" case, having no decision
    /// here, fails (docs/design.md §2, habit 12).
    static let knownFlags: Set<String> = ["BadPadding", "NoPadding", "Pseudorandom", "ModifiedTag",
                                          "Normal", "EmptySalt", "MaximalOutputSize", "SizeTooLarge", "OutputCollision"]

    /// Checks an `AES-CBC-PKCS5` file: valid cases must encrypt to `ct` and decrypt back;
    /// invalid ones (bad or missing padding) must fail to decrypt.
    static func checkCBC(_ file: WycheproofFile, _ log: inout CaseLog) {
        for group in file.groups {
            for test in group.tests {
                let id = "#\(test.id)"
                WycheproofDecisions.knownFlags(test, knownFlags, &log)
                guard let mustSucceed = WycheproofDecisions.expectsSuccess(test, [:], &log) else { continue }
                do throws(VectorFormatError) {
                    let key = SymmetricKey(data: try test.bytes("key"))
                    let iv = try test.bytes("iv"), msg = try test.bytes("msg"), ct = try test.bytes("ct")
                    let decrypted = try? AES.UnauthenticatedCBC.decrypt(ct, using: key, iv: iv)
                    if mustSucceed {
                        let encrypted = try? AES.UnauthenticatedCBC.encrypt(msg, using: key, iv: iv)
                        if encrypted != ct {
                            log.fail(id, test.comment, expected: hex(ct), got: encrypted.map(hex) ?? "encryption failed")
                        } else {
                            log.expect(decrypted, equals: msg, id, test.comment)  // a failed decryption fails the case
                        }
                    } else {
                        log.expect(decrypted == nil, id, test.comment, expected: "decryption failure", got: hex(decrypted ?? []))
                    }
                } catch {
                    log.fail(id, test.comment, expected: "well-formed case", got: error.description)
                }
            }
        }
    }

    /// Checks an `HMACSHA*` MacTest file: valid tags (full or truncated to `tagSize`) must be
    /// reproduced and verify; modified tags must not verify.
    static func checkMAC(_ file: WycheproofFile, hash: HashChoice, _ log: inout CaseLog) {
        for group in file.groups {
            let tagBytes = (group.fields["tagSize"]?.int ?? 0) / 8
            for test in group.tests {
                let id = "#\(test.id)"
                WycheproofDecisions.knownFlags(test, knownFlags, &log)
                guard let mustSucceed = WycheproofDecisions.expectsSuccess(test, [:], &log) else { continue }
                do throws(VectorFormatError) {
                    let key = try test.bytes("key"), msg = try test.bytes("msg"), tag = try test.bytes("tag")
                    let verifies = hash.isValidHMAC(tag, key: key, data: msg)
                    if mustSucceed {
                        let computed = Array(hash.hmac(key: key, data: msg).prefix(tagBytes))
                        if computed != tag {
                            log.fail(id, test.comment, expected: hex(tag), got: hex(computed))
                        } else {
                            log.expect(verifies, id, test.comment, expected: "tag verifies", got: "rejected")
                        }
                    } else {
                        log.expect(!verifies, id, test.comment, expected: "tag rejected", got: "accepted")
                    }
                } catch {
                    log.fail(id, test.comment, expected: "well-formed case", got: error.description)
                }
            }
        }
    }

    /// Checks an `HKDF-SHA-*` file: valid cases must derive `okm` of `size` bytes; a size past
    /// 255·HashLen (RFC 5869 §2.3) must be refused.
    static func checkHKDF(_ file: WycheproofFile, hash: HashChoice, _ log: inout CaseLog) {
        for group in file.groups {
            for test in group.tests {
                let id = "#\(test.id)"
                WycheproofDecisions.knownFlags(test, knownFlags, &log)
                guard let mustSucceed = WycheproofDecisions.expectsSuccess(test, [:], &log) else { continue }
                do throws(VectorFormatError) {
                    let ikm = try test.bytes("ikm"), salt = try test.bytes("salt"), info = try test.bytes("info")
                    guard let size = test.fields["size"]?.int else { throw .missingField("size") }
                    let derived: [UInt8]?
                    do throws(CryptoError) {
                        derived = try hash.hkdf(ikm: ikm, salt: salt, info: info, length: size)
                    } catch {
                        derived = nil
                    }
                    if mustSucceed {
                        log.expect(derived, equals: try test.bytes("okm"), id, test.comment)
                    } else {
                        log.expect(derived == nil, id, test.comment, expected: "refused", got: "\(size) bytes derived")
                    }
                } catch {
                    log.fail(id, test.comment, expected: "well-formed case", got: error.description)
                }
            }
        }
    }
}
