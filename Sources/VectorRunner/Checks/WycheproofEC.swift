// Wycheproof EcdsaVerify, EcdsaP1363Verify, EcdhTest and EcdhEcpointTest files for secp256r1
// and secp384r1 (the curve's calls in CurveChoice.swift).

import CryptoPrimitives
import VectorFormats

enum WycheproofEC {
    /// Flags of the ECDSA files; none marks an "acceptable" case in the v1 files, so none needs
    /// a decision beyond being known. BER-encoded signatures are invalid there, and we refuse BER.
    static let ecdsaFlags: Set<String> = [
        "ArithmeticError", "InvalidEncoding", "InvalidSignature", "InvalidTypesInSignature", "SpecialCaseHash",
        "ModifiedSignature", "EdgeCasePublicKey", "ModularInverse", "ValidSignature", "SmallRandS", "BerEncodedSignature",
        "PointDuplication", "RangeCheck", "ModifiedInteger", "IntegerOverflow", "MissingZero",
        "EdgeCaseShamirMultiplication", "SignatureSize",
    ]

    /// ECDH flags, with our decision for each flag that appears on an "acceptable" case:
    /// - `CompressedPublic`, `CompressedPoint`: **accept** — we decode SEC 1 compressed points
    ///   (PowerAuth's SDK sends them).
    /// - `InvalidAsn`: **reject** — public keys are read as strict DER; BER variants fail.
    /// - `UnnamedCurve` (with `UnusedParam`, `WrongOrder`, `ModifiedGenerator`, `ModifiedCofactor`,
    ///   `NoCofactor`, `ModifiedCurveParameter`): **reject** — only the named curve secp256r1 is
    ///   accepted in SubjectPublicKeyInfo; explicit parameters are never parsed.
    static let ecdhDecisions: [String: WycheproofDecisions.Decision] = [
        "CompressedPublic": .accept, "CompressedPoint": .accept, "InvalidAsn": .reject, "UnnamedCurve": .reject,
        "UnusedParam": .reject, "WrongOrder": .reject, "ModifiedGenerator": .reject, "ModifiedCofactor": .reject,
        "NoCofactor": .reject, "ModifiedCurveParameter": .reject,
    ]
    static let ecdhFlags: Set<String> = Set(ecdhDecisions.keys).union([
        "Normal", "EdgeCaseSharedSecret", "EdgeCaseEphemeralKey", "EdgeCaseDoubling", "AdditionChain", "CVE-2017-8932",
        "InvalidCurveAttack", "InvalidEncoding", "WrongCurve", "ModifiedPublicPoint", "InvalidPublic", "NegativeCofactor",
        "LargeCofactor", "ModifiedPrime", "ModifiedGroup", "WeakPublicKey", "InvalidCompressedPublic",
    ])

    /// EcdsaVerify (DER signatures) or EcdsaP1363Verify (r‖s) with SHA-256 on P-256, or with
    /// SHA-256, SHA-384 or SHA-512 on P-384.
    static func checkECDSA(_ file: WycheproofFile, curve: CurveChoice, p1363: Bool, _ log: inout CaseLog) {
        for group in file.groups {
            guard let hash = group.fields["sha"]?.string.flatMap(HashChoice.init(name:)), curve.verifies(with: hash),
                  let keyHex = group.fields["publicKey"]?["uncompressed"]?.string else {
                for test in group.tests { log.skip("#\(test.id)", reason: "\(curve) with this hash or key form is not run") }
                continue
            }
            let keyBytes: [UInt8], der: [UInt8]?
            do throws(VectorFormatError) {
                keyBytes = try HexText.bytes(keyHex, field: "publicKey.uncompressed")
                der = try group.fields["publicKeyDer"].map { value throws(VectorFormatError) in
                    guard let text = value.string else { throw .malformed("publicKeyDer is not a string") }
                    return try HexText.bytes(text, field: "publicKeyDer")
                }
            } catch {
                log.fileError("a test group: \(error.description)")  // a malformed key is the file's fault, not a skip
                continue
            }
            let key = curve.verificationKey(x963: keyBytes)
            if let der {
                // Both encodings must decode, to the same point (two refusals are no agreement).
                let fromDER = curve.verificationKey(der: der)
                if key == nil || fromDER == nil || fromDER != key {
                    log.fileError("publicKeyDer and the uncompressed key of a group do not both decode to one key")
                }
            }
            for test in group.tests {
                WycheproofDecisions.knownFlags(test, ecdsaFlags, &log)
                guard let expected = WycheproofDecisions.expectsSuccess(test, [:], &log) else { continue }
                do throws(VectorFormatError) {
                    let message = try test.bytes("msg"), signatureBytes = try test.bytes("sig")
                    let verifies = key.map { curve.isValid(signatureBytes, p1363: p1363, message: message, hash: hash, key: $0) } ?? false
                    log.expect(verifies == expected, "#\(test.id)", test.comment,
                               expected: expected ? "valid" : "invalid", got: verifies ? "valid" : "invalid")
                } catch {
                    log.fail("#\(test.id)", test.comment, expected: "well-formed case", got: error.description)
                }
            }
        }
    }

    /// EcdhTest (SubjectPublicKeyInfo public keys) or EcdhEcpointTest (SEC 1 points).
    static func checkECDH(_ file: WycheproofFile, curve: CurveChoice, ecpoint: Bool, _ log: inout CaseLog) {
        for group in file.groups {
            for test in group.tests {
                let id = "#\(test.id)"
                WycheproofDecisions.knownFlags(test, ecdhFlags, &log)
                guard let expectSuccess = WycheproofDecisions.expectsSuccess(test, ecdhDecisions, &log) else { continue }
                do throws(VectorFormatError) {
                    let publicBytes = try test.bytes("public"), shared = try test.bytes("shared")
                    let result = curve.agree(privateKey: try test.bytes("private"), peer: publicBytes, ecpoint: ecpoint)
                    if expectSuccess {
                        log.expect(result, equals: shared, id, test.comment)
                    } else {
                        log.expect(result == nil, id, test.comment, expected: "rejected", got: "shared secret computed")
                    }
                } catch {
                    log.fail(id, test.comment, expected: "well-formed case", got: error.description)
                }
            }
        }
    }
}
