// Finding vector files, recognising them and running them against the engine.

public import FoundationEssentials
import FoundationEssentials
import VectorFormats

/// Runs test-vector files against the engine (the `mfa vectors` command, docs/design.md §3).
public enum VectorRunner {
    /// The roots read when no path is given: `Vectors/`, `../shared/vectors` when it exists,
    /// and every directory listed in `MFA_VECTORS` (colon-separated).
    public static func defaultRoots(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        var roots = ["Vectors"]
        if FileManager.default.fileExists(atPath: "../shared/vectors") { roots.append("../shared/vectors") }
        if let extra = environment["MFA_VECTORS"] {
            roots += extra.split(separator: ":").map(String.init).filter { !$0.isEmpty }
        }
        return roots
    }

    /// Every vector file under `roots` (files as given, directories recursively), sorted,
    /// without documentation files. A root that does not exist is returned in `missing`.
    public static func files(under roots: [String]) -> (files: [String], missing: [String]) {
        var files: [String] = []
        var missing: [String] = []
        for root in roots {
            switch FileKind(atPath: root) {
            case nil:
                missing.append(root)
            case .file?:
                files.append(root)
            case .directory?:
                let base = root.hasSuffix("/") ? String(root.dropLast()) : root
                for entry in DirectoryWalk.relativeFilePaths(under: base).sorted() where !VectorFile.isDocumentation(path: base + "/" + entry)
                    && ACVPRunner.promptPath(forExpected: base + "/" + entry) == nil {  // an ACVP pair runs once, from its prompt
                    files.append(base + "/" + entry)
                }
            }
        }
        return (files, missing)
    }

    /// Runs every file under `roots`.
    public static func run(roots: [String]) -> RunReport {
        run(roots: roots) { _, _ in }
    }

    /// Runs every file under `roots`, calling `progress` with (files done, files in all)
    /// before the first file and after each one.
    public static func run(roots: [String], progress: (Int, Int) -> Void) -> RunReport {
        let found = files(under: roots)
        var reports: [FileReport] = []
        progress(0, found.files.count)
        for path in found.files {
            reports.append(check(path: path))
            progress(reports.count, found.files.count)
        }
        for root in found.missing {
            var report = FileReport(path: root)
            report.fileError = "no such file or directory"
            reports.append(report)
        }
        return RunReport(roots: roots, files: reports)
    }

    /// Runs one file.
    public static func check(path: String) -> FileReport {
        let file: VectorFile
        do {
            file = try VectorFile.load(path: path)
        } catch {
            var report = FileReport(path: path)
            report.fileError = error.description
            return report
        }
        var log = CaseLog(path: path)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        switch file {
        case .wycheproof(let wycheproof):
            guard checkWycheproof(wycheproof, &log) else { return .unrecognized(path) }
        case .cavp(let cavp):
            guard checkCAVP(cavp, &log) else { return .unrecognized(path) }
        case .sp80038a(let examples):
            SP80038A.check(examples, &log)
        case .own(let own):
            guard OwnSymmetric.check(own, &log) else { return .unrecognized(path) }
        case .labelledHex(let labelled):
            RSAExampleFiles.check(labelled, &log)
        case .pem(let text):
            guard PEMFixtures.check(text, &log) else { return .unrecognized(path) }
        case .json(let json) where ACVPFile.isACVP(json):
            return ACVPRunner.check(json, path: path)
        case .json(let json):
            guard let checker = PowerAuthFiles.checker(for: name, json) ?? PowerAuthProtocolFiles.checker(for: name, json)
                    ?? PowerAuthCodeFiles.checker(for: name, json) ?? PowerAuthECIESFiles.checker(for: name, json)
                    ?? PowerAuthWorkedExamples.checker(for: name, json)
                    ?? MPinFiles.checker(for: name, json) ?? MPinRecordedTrafficFile.checker(json)
                    ?? SaltEdgeFiles.checker(forPath: path, json) ?? CMFiles.checker(for: name, json) else {
                return .unrecognized(path)
            }
            checker(json, &log)
        case .unrecognized:
            return .unrecognized(path)
        }
        return log.report
    }

    private static func checkWycheproof(_ file: WycheproofFile, _ log: inout CaseLog) -> Bool {
        switch (file.schema, file.algorithm) {
        case ("ind_cpa_test_schema_v1.json", "AES-CBC-PKCS5"):
            WycheproofSymmetric.checkCBC(file, &log)
        case ("hkdf_test_schema_v1.json", let algorithm) where algorithm.hasPrefix("HKDF-"):
            guard let hash = HashChoice(name: String(algorithm.dropFirst(5))) else { return false }
            WycheproofSymmetric.checkHKDF(file, hash: hash, &log)
        case ("xdh_comp_schema_v1.json", "XDH") where file.groups.allSatisfy({ $0.fields["curve"]?.string == "curve25519" }):
            WycheproofXDH.check(file, &log)
        case ("aead_test_schema_v1.json", let name):
            guard let algorithm = WycheproofAEAD.Algorithm(name) else { return false }
            WycheproofAEAD.check(file, algorithm: algorithm, &log)
        case ("mac_test_schema_v1.json", let algorithm) where algorithm.hasPrefix("HMAC"):
            guard let hash = HashChoice(name: String(algorithm.dropFirst(4))) else { return false }
            WycheproofSymmetric.checkMAC(file, hash: hash, &log)
        case ("ecdsa_verify_schema_v1.json", "ECDSA"):
            guard let curve = CurveChoice(file) else { return false }
            WycheproofEC.checkECDSA(file, curve: curve, p1363: false, &log)
        case ("ecdsa_p1363_verify_schema_v1.json", "ECDSA"):
            guard let curve = CurveChoice(file) else { return false }
            WycheproofEC.checkECDSA(file, curve: curve, p1363: true, &log)
        case ("ecdh_test_schema_v1.json", "ECDH"):
            guard let curve = CurveChoice(file) else { return false }
            WycheproofEC.checkECDH(file, curve: curve, ecpoint: false, &log)
        case ("ecdh_ecpoint_test_schema_v1.json", "ECDH"):
            guard let curve = CurveChoice(file) else { return false }
            WycheproofEC.checkECDH(file, curve: curve, ecpoint: true, &log)
        case ("rsaes_oaep_decrypt_schema_v1.json", _):
            WycheproofRSA.check(file, kind: .oaepDecrypt, &log)
        case ("rsaes_pkcs1_decrypt_schema_v1.json", _):
            WycheproofRSA.check(file, kind: .pkcs1Decrypt, &log)
        case ("rsassa_pkcs1_verify_schema_v1.json", _):
            WycheproofRSA.check(file, kind: .pkcs1Verify, &log)
        case ("rsassa_pkcs1_generate_schema_v1.json", _):
            WycheproofRSA.check(file, kind: .pkcs1Generate, &log)
        case ("rsassa_pss_verify_schema_v1.json", _):
            WycheproofRSA.check(file, kind: .pssVerify, &log)
        default:
            return false
        }
        WycheproofDecisions.checkCount(file, &log)
        return true
    }

    private static func checkCAVP(_ file: CAVPFile, _ log: inout CaseLog) -> Bool {
        let header = file.headerText
        let fields = Set(file.blocks.flatMap { $0.fields.map(\.name) })
        if let kind = MilagroFieldArithmetic.kind(of: file) {
            MilagroFieldArithmetic.check(file, kind: kind, &log)
        } else if let kind = CAVPEC.kind(of: file) {
            CAVPEC.check(file, kind: kind, &log)
        } else if let kind = CAVPRSA.kind(of: file) {
            CAVPRSA.check(file, kind: kind, &log)
        } else if MilagroRSA.isMilagroRSA(file) {
            MilagroRSA.check(file, &log)
        } else if let mode = CAVPAES.mode(of: file) {
            CAVPAES.check(file, mode: mode, &log)
        } else if fields.contains("Klen") && fields.contains("Mac") {
            CAVPDigests.checkCAVSHMAC(file, &log)
        } else if header.contains("HMAC-"), fields.isSuperset(of: ["Key", "Msg", "MD"]),
                  let hash = header.split(separator: " ").lazy.compactMap({ HashChoice(name: String($0.dropFirst(5))) }).first {
            CAVPDigests.checkRFC4231(file, hash: hash, &log)
        } else if fields.contains("MD"), let hash = CAVPDigests.shaHash(of: file) {
            CAVPDigests.checkSHA(file, hash: hash, &log)
        } else if fields.isSuperset(of: ["Z", "SharedInfo", "key_data"]) {
            CAVPKDF.checkX963(file, &log)
        } else if fields.isSuperset(of: ["IKM", "OKM"]) {
            CAVPKDF.checkHKDF(file, &log)
        } else {
            return false
        }
        return true
    }
}
