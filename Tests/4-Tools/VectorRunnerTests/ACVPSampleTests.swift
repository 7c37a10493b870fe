// The NIST ACVP sample vector sets in ../shared/vectors/acvp, one test per algorithm with the
// counts each must give: every case the engine supports passes, the rest are skipped with a
// reason (other curves, SHA-3/SHAKE, SP 800-106, large exponents, 1-8 GiB LDT messages).

import Foundation
import Testing
import TestSupport
import VectorRunner

@Suite struct ACVPSampleTests {
    static let available = FileManager.default.fileExists(atPath: SharedVectors.path("acvp"))

    /// Runs one sample folder and checks its counts.
    static func check(_ folder: String, passed: Int, skipped: Int, reasons: [String] = []) {
        let report = VectorRunner.check(path: SharedVectors.path("acvp/\(folder)/prompt.json"))
        #expect(report.recognized, "\(folder)")
        #expect(report.path == SharedVectors.path("acvp/\(folder)"))
        #expect(report.passed == passed, "\(folder)")
        #expect(report.failed == 0, "\(folder): \(report.failures.prefix(3)) \(report.fileError ?? "")")
        #expect(report.skipped == skipped, "\(folder)")
        for reason in reasons {
            #expect(report.skips.contains { $0.reason.contains(reason) }, "\(folder): \(reason)")
        }
    }

    @Test(.enabled(if: available, "needs ../shared/vectors/acvp"))
    func sha256AFTAndMonteCarlo() {
        Self.check("SHA2-256-1.0", passed: 513, skipped: 4, reasons: ["LDT message of 1024 MiB"])
    }

    @Test(.enabled(if: available, "needs ../shared/vectors/acvp"))
    func sha512AFTAndMonteCarlo() {
        Self.check("SHA2-512-1.0", passed: 1025, skipped: 4, reasons: ["LDT message of 8192 MiB"])
    }

    @Test(.enabled(if: available, "needs ../shared/vectors/acvp"))
    func hmacSHA256() {
        Self.check("HMAC-SHA2-256-1.0", passed: 975, skipped: 0)
    }

    @Test(.enabled(if: available, "needs ../shared/vectors/acvp"))
    func aesCTRWithBitLengthPayloads() {
        Self.check("ACVP-AES-CTR-1.0", passed: 150, skipped: 0)
    }

    @Test(.enabled(if: available, "needs ../shared/vectors/acvp"), .enabled(if: TestBuild.isOptimized, "600,000 AES blocks; swift test -c release runs it"))
    func aesCBCAFTAndMonteCarlo() {
        Self.check("ACVP-AES-CBC-1.0", passed: 2156, skipped: 0)
    }

    @Test(.enabled(if: available, "needs ../shared/vectors/acvp"))
    func ecdsaKeyVerification() {
        Self.check("ECDSA-KeyVer-FIPS186-5", passed: 6, skipped: 9, reasons: ["curve P-521 is not in the engine"])
    }

    @Test(.enabled(if: available, "needs ../shared/vectors/acvp"))
    func ecdsaSignatureGeneration() {
        Self.check("ECDSA-SigGen-FIPS186-5", passed: 80, skipped: 2800,
                   reasons: ["SP800-106 randomized hashing", "hash SHA3-256 is not in the engine", "curve K-233"])
    }

    @Test(.enabled(if: available, "needs ../shared/vectors/acvp"))
    func ecdsaSignatureVerification() {
        Self.check("ECDSA-SigVer-FIPS186-5", passed: 120, skipped: 120)
    }

    @Test(.enabled(if: available, "needs ../shared/vectors/acvp"))
    func kasECCSharedSecretHasNoP256Group() {
        Self.check("KAS-ECC-SSC-Sp800-56Ar3", passed: 0, skipped: 20, reasons: ["curve K-283"])
    }

    @Test(.enabled(if: available, "needs ../shared/vectors/acvp"))
    func ansiX963KDF() {
        Self.check("kdf-components-ansix9.63-1.0", passed: 400, skipped: 0)
    }

    @Test(.enabled(if: available, "needs ../shared/vectors/acvp"), .enabled(if: TestBuild.isOptimized, "250,000 PBKDF2 rounds; swift test -c release runs it"))
    func pbkdf2() {
        Self.check("PBKDF-1.0", passed: 50, skipped: 0)
    }

    @Test(.enabled(if: available, "needs ../shared/vectors/acvp"))
    func rsaSignatureVerification() {
        Self.check("RSA-SigVer-FIPS186-5", passed: 12, skipped: 258,
                   reasons: ["the engine takes exponents below 2^32", "hash SHAKE-128 is not in the engine"])
    }

    @Test(.enabled(if: available, "needs ../shared/vectors/acvp"), .enabled(if: TestBuild.isOptimized, "90 RSA private operations vartime; swift test -c release runs it"))
    func rsaDecryptionPrimitive() {
        Self.check("RSA-DecryptionPrimitive-Sp800-56Br2", passed: 90, skipped: 0)
    }
}
