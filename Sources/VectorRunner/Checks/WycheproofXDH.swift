// Wycheproof XdhComp files (xdh_comp_schema_v1) for X25519.

import CryptoPrimitives
import VectorFormats

enum WycheproofXDH {
    /// Our decisions on the "acceptable" cases (docs/design.md §2, habit 12). X25519 computes on
    /// every 32-byte u-coordinate (RFC 7748 §5: twist points, non-canonical values reduced mod p,
    /// bit 255 masked), so those cases must give the expected secret; an all-zero result
    /// (a small-order peer) is refused, as TLS 1.3 requires (RFC 8446 §7.4.2).
    static let decisions: [String: WycheproofDecisions.Decision] = [
        "Twist": .accept, "NonCanonicalPublic": .accept, "SpecialPublicKey": .accept, "SmallPublicKey": .accept,
        "EdgeCaseMultiplication": .accept, "EdgeCaseShared": .accept, "Ktv": .accept,
        "LowOrderPublic": .reject, "ZeroSharedSecret": .reject,
    ]
    /// Flags on valid cases only.
    static let knownFlags = Set(decisions.keys).union(["Normal", "EdgeCasePrivateKey"])

    /// Valid and accepted cases must agree on `shared`; rejected ones must throw.
    static func check(_ file: WycheproofFile, _ log: inout CaseLog) {
        for group in file.groups {
            for test in group.tests {
                let id = "#\(test.id)"
                WycheproofDecisions.knownFlags(test, knownFlags, &log)
                guard let mustSucceed = WycheproofDecisions.expectsSuccess(test, decisions, &log) else { continue }
                do throws(VectorFormatError) {
                    let privateBytes = try test.bytes("private"), publicBytes = try test.bytes("public")
                    let shared = try test.bytes("shared")
                    let got: [UInt8]?
                    do throws(CryptoError) {
                        let key = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: privateBytes)
                        let peer = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: publicBytes)
                        got = try key.sharedSecretFromKeyAgreement(with: peer).secret.unsafeExposedBytes
                    } catch {
                        got = nil
                    }
                    if mustSucceed {
                        log.expect(got, equals: shared, id, test.comment)
                    } else {
                        log.expect(got == nil, id, test.comment, expected: "agreement refused", got: hex(got ?? []))
                    }
                } catch {
                    log.fail(id, test.comment, expected: "well-formed case", got: error.description)
                }
            }
        }
    }
}
