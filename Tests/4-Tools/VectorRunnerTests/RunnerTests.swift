// The runner over every third-party file of the engine's primitives, our own vectors, and files
// built to fail: the runner must be able to say FAIL.

import Foundation
import Testing
import TestSupport
import VectorRunner

@Suite(.enabled(if: TestBuild.isOptimized, "heavy unoptimised; swift test -c release runs it"))
struct RunnerTests {
    /// Every third-party file of the symmetric primitives, with its case count.
    static let foundationFiles: [(String, Int)] = [
        ("wycheproof/testvectors_v1/aes_cbc_pkcs5_test.json", 216), ("wycheproof/testvectors_v1/hmac_sha256_test.json", 174),
        ("cavp/aes/CBCGFSbox128.rsp", 14), ("cavp/aes/CBCKeySbox256.rsp", 32), ("cavp/aes/CBCVarKey256.rsp", 512),
        ("cavp/aes/CBCVarTxt128.rsp", 256), ("cavp/aes/CBCMMT128.rsp", 20), ("cavp/aes/CBCMCT256.rsp", 200),
        ("cavp/aes/ECBGFSbox256.rsp", 10), ("cavp/aes/ECBKeySbox128.rsp", 42), ("cavp/aes/ECBVarKey128.rsp", 256),
        ("cavp/aes/ECBVarTxt256.rsp", 256), ("cavp/aes/ECBMMT256.rsp", 20), ("cavp/aes/ECBMCT128.rsp", 200),
        ("cavp/aes/SP800-38A_AES_CBC_examples.txt", 6), ("cavp/aes/SP800-38A_AES_CTR_examples.txt", 6),
        ("cavp/aes/SP800-38A_F5_CTR.rsp", 6), ("cavp/aes/rfc3686-aes-128-ctr.txt", 3), ("cavp/aes/rfc3686-aes-256-ctr.txt", 3),
        ("cavp/sha/SHA256ShortMsg.rsp", 65), ("cavp/sha/SHA256LongMsg.rsp", 64), ("cavp/sha/SHA256Monte.rsp", 100),
        ("cavp/hmac/HMAC_SHA256_L32.rsp", 225), ("cavp/hmac/rfc-4231-sha256.txt", 6),
        ("cavp/kdf/ansx963_2001_SHA256.rsp", 20), ("mpin/milagro-crypto-c/sha2/SHA256ShortMsg.rsp", 65),
        ("mpin/milagro-crypto-c/sha2/HMAC_SHA256.rsp", 225), ("mpin/milagro-crypto-c/sha2/HKDF_SHA256.rsp", 2),
        ("powerauth/kdf-x963-sha256.json", 20), ("powerauth/crc16-arc.json", 10),
    ]

    /// Every third-party file of the primitives under TLS, with its case count: every case must
    /// pass (the AEADs, X25519, P-384 and HKDF-SHA384 have no skipped groups).
    static let tlsPrimitiveFiles: [(String, Int)] = [
        ("wycheproof/testvectors_v1/aes_gcm_test.json", 316), ("wycheproof/testvectors_v1/chacha20_poly1305_test.json", 325),
        ("wycheproof/testvectors_v1/x25519_test.json", 518), ("wycheproof/testvectors_v1/hkdf_sha384_test.json", 83),
        ("wycheproof/testvectors_v1/hmac_sha384_test.json", 174),
        ("wycheproof/testvectors_v1/ecdsa_secp384r1_sha384_test.json", 504),
        ("wycheproof/testvectors_v1/ecdsa_secp384r1_sha384_p1363_test.json", 280),
        ("wycheproof/testvectors_v1/ecdh_secp384r1_test.json", 1047),
        ("wycheproof/testvectors_v1/rsa_pss_2048_sha384_mgf1_48_test.json", 141),
        ("wycheproof/testvectors_v1/rsa_signature_2048_sha384_test.json", 258),
        ("wycheproof/testvectors_v1/rsa_signature_3072_sha384_test.json", 259),
    ]

    /// Every third-party P-256 file, with its case count.
    static let p256Files: [(String, Int)] = [
        ("wycheproof/testvectors_v1/ecdsa_secp256r1_sha256_test.json", 484),
        ("wycheproof/testvectors_v1/ecdsa_secp256r1_sha256_p1363_test.json", 262),
        ("wycheproof/testvectors_v1/ecdh_secp256r1_test.json", 612), ("wycheproof/testvectors_v1/ecdh_secp256r1_ecpoint_test.json", 355),
        ("cavp/ecdsa/SigVer_P256_SHA256.rsp", 15), ("cavp/ecdsa/SigGen_P256_SHA256.rsp", 15),
        ("cavp/ecdsa/SigGen_P256_SHA256_with_k.txt", 15), ("cavp/ecdsa/SigGenComponent_P256_SHA256.rsp", 10),
        ("cavp/ecdsa/SigGenComponent_P256_SHA256_with_k.txt", 10), ("cavp/ecdsa/KeyPair_P256.rsp", 10),
        ("cavp/ecdsa/PKV_P256.rsp", 12), ("cavp/ecdh/KAS_ECC_CDH_PrimitiveTest_P256.txt", 25),
        ("mpin/milagro-crypto-c/nist256/ecdh_P-256_KAS_ECC_CDH_PrimitiveTest.txt", 25),
        ("mpin/milagro-crypto-c/nist256/ecdsa_P-256_KeyPair.rsp", 10),
        ("mpin/milagro-crypto-c/nist256/ecdsa_P-256_sha256Sign.rsp", 15), ("mpin/milagro-crypto-c/nist256/ecdsa_P-256_sha256Verify.rsp", 15),
        ("mpin/milagro-crypto-c/nist256/ecdsa_P-256_sha512Sign.rsp", 15), ("mpin/milagro-crypto-c/nist256/ecdsa_P-256_sha512Verify.rsp", 15),
        ("powerauth/verify-activation-data-signature-v3.json", 20), ("powerauth/compute-master-secret-key.json", 40),
    ]

    /// Every third-party RSA file, with its case count (every Wycheproof case
    /// counted: the file's numberOfTests, less the skips checked below).
    static let rsaFiles: [(String, Int)] = [
        ("cavp/rsa/RSADPComponent800_56B.rsp", 60), ("cavp/rsa/RSADPComponent800_56B.txt", 60), ("cavp/rsa/RSASP1.fax", 30),
        ("cavp/rsa/SigGen15_186-3.rsp", 150), ("cavp/rsa/SigVer15_186-3.rsp", 270), ("cavp/rsa/non-cavp/oaep-int.txt", 1),
        ("cavp/rsa/non-cavp/oaep-sha1-sha256.txt", 60), ("cavp/rsa/non-cavp/oaep-sha256-sha1.txt", 60),
        ("cavp/rsa/non-cavp/oaep-sha256-sha256.txt", 60), ("cavp/rsa/non-cavp/oaep-vect.txt", 60),
        ("cavp/rsa/non-cavp/pkcs1v15crypt-vectors.txt", 300), ("cavp/rsa/non-cavp/pkcs1v15sign-vectors.txt", 300),
        ("mpin/milagro-crypto-c/rsa2048/pkcs-vect.txt", 8),
        ("saltedge/android-test-tools/private_key.pem", 1), ("saltedge/android-test-tools/private_key_pkcs8.pem", 1),
        ("saltedge/android-test-tools/public_key.pem", 1), ("saltedge/ios-fixtures/test_private.pem", 1),
        ("saltedge/ios-fixtures/test_public.pem", 1),
        ("wycheproof/testvectors_v1/rsa_oaep_2048_sha1_mgf1sha1_test.json", 36),
        ("wycheproof/testvectors_v1/rsa_oaep_2048_sha256_mgf1sha1_test.json", 31),
        ("wycheproof/testvectors_v1/rsa_oaep_2048_sha256_mgf1sha256_test.json", 37),
        ("wycheproof/testvectors_v1/rsa_oaep_3072_sha256_mgf1sha1_test.json", 32),
        ("wycheproof/testvectors_v1/rsa_oaep_3072_sha256_mgf1sha256_test.json", 37),
        ("wycheproof/testvectors_v1/rsa_oaep_4096_sha256_mgf1sha1_test.json", 32),
        ("wycheproof/testvectors_v1/rsa_oaep_4096_sha256_mgf1sha256_test.json", 37),
        ("wycheproof/testvectors_v1/rsa_oaep_misc_test.json", 395),
        ("wycheproof/testvectors_v1/rsa_pkcs1_2048_sig_gen_test.json", 35), ("wycheproof/testvectors_v1/rsa_pkcs1_2048_test.json", 67),
        ("wycheproof/testvectors_v1/rsa_pkcs1_3072_sig_gen_test.json", 26), ("wycheproof/testvectors_v1/rsa_pkcs1_3072_test.json", 67),
        ("wycheproof/testvectors_v1/rsa_pkcs1_4096_sig_gen_test.json", 24), ("wycheproof/testvectors_v1/rsa_pkcs1_4096_test.json", 67),
        ("wycheproof/testvectors_v1/rsa_pss_2048_sha256_mgf1_0_test.json", 103),
        ("wycheproof/testvectors_v1/rsa_pss_2048_sha256_mgf1_32_test.json", 108),
        ("wycheproof/testvectors_v1/rsa_signature_2048_sha256_test.json", 259),
        ("wycheproof/testvectors_v1/rsa_signature_3072_sha256_test.json", 259),
        ("wycheproof/testvectors_v1/rsa_signature_4096_sha256_test.json", 258),
    ]

    /// Every third-party BN254CX / M-Pin file, with its case count (arithmetic
    /// files: one case per operation line).
    static let mpinFiles: [(String, Int)] = [
        ("mpin/milagro-crypto-c/mpin/BN254_CX.json", 300), ("mpin/milagro-crypto-c/mpin/BN254_CXOnePass.json", 300),
        ("mpin/milagro-crypto-c/bn254cx/fp_BN254CX.txt", 119), ("mpin/milagro-crypto-c/bn254cx/fp2_BN254CX.txt", 130),
        ("mpin/milagro-crypto-c/bn254cx/fp4_BN254CX.txt", 170), ("mpin/milagro-crypto-c/bn254cx/fp12_BN254CX.txt", 140),
        ("mpin/milagro-crypto-c/bn254cx/ecp_BN254CX.txt", 110), ("mpin/milagro-crypto-c/bn254cx/ecp2_BN254CX.txt", 90),
        ("mpin/own/mpin_dvs_milagro_generated.json", 16), ("mpin/own/pairing_bn254cx_milagro_generated.json", 10),
        ("mpin/own/bn254cx_params.json", 7),
    ]

    /// Every Salt Edge and CM file, with its case count.
    static let saltEdgeAndCMFiles: [(String, Int)] = [
        ("saltedge/derived_vectors.json", 50), ("saltedge/ios-fixtures/correct_encrypted_data.json", 3),
        ("saltedge/ios-fixtures/incorrect_encrypted_data.json", 1), ("saltedge/ios-fixtures/valid_unconfirmed_session_response.json", 3),
        ("saltedge/ios-fixtures/valid_encrypted_authorization_data.json", 3),
        ("cm/jwt_vectors.json", 8), ("cm/qr_samples.json", 6), ("cm/sdk_constants.json", 11),
    ]

    /// The PowerAuth protocol files (besides the four primitive-level ones above), with
    /// their case counts.
    static let powerAuthFiles: [(String, Int)] = [
        ("powerauth/compute-derived-keys.json", 100), ("powerauth/signatures-v3.json", 300), ("powerauth/signatures-v31.json", 300),
        ("powerauth/signatures-offline.json", 200), ("powerauth/activation-status-blob-iv.json", 32),
        ("powerauth/activation-status-blob-data.json", 72), ("powerauth/public-key-fingerprint-v3.json", 100),
        ("powerauth/activation-code-cases.json", 138), ("powerauth/url-encoding-and-config.json", 10),
        ("powerauth/ecies-v3.0-v3.1.json", 48), ("powerauth/ecies-v3.2-v3.3.json", 192),
        ("powerauth/worked-examples-self-computed.json", 11),
    ]

    @Test(.enabled(if: SharedVectors.isAvailable, "needs ../shared/vectors"))
    func theSHA1SigningCasesAreSkippedWithTheirReason() {
        let report = VectorRunner.check(path: SharedVectors.path("wycheproof/testvectors_v1/rsa_pkcs1_2048_sig_gen_test.json"))
        #expect(report.skipped == 8)
        #expect(report.skips.allSatisfy { $0.reason.contains("SHA-1") })
    }

    @Test(.enabled(if: SharedVectors.isAvailable, "needs ../shared/vectors"))
    func everyNamedThirdPartyFileIsRecognisedAndPasses() {
        for (path, cases) in Self.foundationFiles + Self.tlsPrimitiveFiles + Self.p256Files + Self.rsaFiles + Self.mpinFiles + Self.saltEdgeAndCMFiles + Self.powerAuthFiles {
            let report = VectorRunner.check(path: SharedVectors.path(path))
            #expect(report.recognized, "\(path) not recognised")
            #expect(report.failed == 0, "\(path): \(report.failures.prefix(3)) \(report.fileError ?? "")")
            #expect(report.passed == cases, "\(path) passed \(report.passed), expected \(cases)")
        }
    }

    @Test func ourOwnVectorsAllPass() {
        let report = VectorRunner.run(roots: [SharedVectors.packageRoot + "/Vectors"])
        #expect(report.files.count >= 22)
        #expect(report.files.allSatisfy { $0.recognized })
        #expect(report.failed == 0)
        #expect(report.passed > 3000)
        #expect(report.exitCode == 0)
    }

    @Test func corruptedVectorsFailAndAreReported() throws {
        let temporary = try TemporaryDirectory("runner")
        defer { temporary.remove() }
        let folder = URL(fileURLWithPath: temporary.appending("store"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // A correct case and a wrong digest (SHA-256 of "abc" with its last byte changed).
        let json = #"{"schema":"swiftmfa-vectors-v1","algorithm":"SHA-256","cases":["#
            + #"{"id":1,"comment":"right","result":"valid","inputs":{"msg":"616263"},"outputs":{"digest":"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"}},"#
            + #"{"id":2,"comment":"wrong","result":"valid","inputs":{"msg":"616263"},"outputs":{"digest":"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ae"}}]}"#
        try json.write(to: folder.appendingPathComponent("sha.json"), atomically: true, encoding: .utf8)
        try "KEY = 00\n".write(to: folder.appendingPathComponent("mystery.rsp"), atomically: true, encoding: .utf8)
        try "{broken".write(to: folder.appendingPathComponent("broken.json"), atomically: true, encoding: .utf8)
        let report = VectorRunner.run(roots: [folder.path, folder.path + "/missing"])
        #expect(report.passed == 1)
        #expect(report.failed == 3)  // the wrong digest, the broken file, the missing root
        #expect(report.exitCode == 1)
        let text = report.text(verbose: true)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("FAIL ") && $0.hasSuffix("sha.json: 1 passed, 1 failed, 0 skipped") })
        #expect(lines.contains { $0.contains("sha.json #2 wrong: expected ba7816bf") && $0.contains("15ae, got ba7816bf") && $0.hasSuffix("15ad") })
        #expect(lines.contains { $0.hasPrefix("SKIP ") && $0.hasSuffix("mystery.rsp: unrecognized") })
        #expect(lines.last == "1 passed, 3 failed, 0 skipped")
        let document = try JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [String: Any]
        #expect(document?["failed"] as? Int == 3)
        #expect((document?["files"] as? [Any])?.count == 4)
        // One object per case, with its result (and, for a failure, what was expected and got).
        let sha = (document?["files"] as? [[String: Any]])?.first { ($0["path"] as? String)?.hasSuffix("sha.json") == true }
        let cases = sha?["cases"] as? [[String: Any]] ?? []
        #expect(cases.count == 2)
        #expect(cases.contains { $0["id"] as? String == "#2" && $0["result"] as? String == "failed" && ($0["detail"] as? String)?.contains("15ae") == true })
    }

    /// A flag newer than the runner is noted; valid and invalid cases carrying it are still
    /// judged on their result, and only an acceptable case without any decision fails. Key and
    /// tag are Wycheproof hmac_sha256_test.json #1 (empty message).
    @Test func unknownWycheproofFlagsAreNotedNotFailed() throws {
        let temporary = try TemporaryDirectory("runner")
        defer { temporary.remove() }
        let folder = URL(fileURLWithPath: temporary.appending("store"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let key = "1e225cafb90339bba1b24076d4206c3e79c355805d851682bc818baa4f5a7779"
        let tag = "b175b57d89ea6cb606fb3363f2538abd73a4c00b4a1386905bac809004cf1933"
        let badTag = "b175b57d89ea6cb606fb3363f2538abd73a4c00b4a1386905bac809004cf1934"
        func test(_ id: Int, _ result: String, _ tag: String) -> String {
            #"{"tcId":\#(id),"comment":"c\#(id)","flags":["FlagFrom2027"],"key":"\#(key)","msg":"","tag":"\#(tag)","result":"\#(result)"}"#
        }
        let json = #"{"algorithm":"HMACSHA256","schema":"mac_test_schema_v1.json","numberOfTests":4,"testGroups":[{"type":"MacTest","keySize":256,"tagSize":256,"tests":["#
            + [test(1, "valid", tag), test(2, "invalid", badTag), test(3, "acceptable", tag), test(4, "valid", badTag)].joined(separator: ",")
            + "]}]}"
        try json.write(to: folder.appendingPathComponent("hmac_sha256_test.json"), atomically: true, encoding: .utf8)
        let report = VectorRunner.run(roots: [folder.path])
        #expect(report.passed == 2)   // #1 verifies, #2 is refused
        #expect(report.failed == 2)   // #3 has no decision, #4 does not verify
        let lines = report.text(verbose: false).split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains("note:") && $0.contains("#1: unknown flag(s) FlagFrom2027") })
        #expect(lines.contains { $0.contains("#3") && $0.contains("a decision for an acceptable case") })
        #expect(lines.contains { $0.contains("#4 c4: expected") })
    }

    @Test func defaultRootsFollowTheEnvironment() {
        let roots = VectorRunner.defaultRoots(environment: ["MFA_VECTORS": "/a:/b:"])
        #expect(roots.first == "Vectors")
        #expect(Array(roots.suffix(2)) == ["/a", "/b"])
    }
}
