// What HardwareKeyMatrixTests needs around mfa-server: a PKCS #11 token the `mfa` children reach
// (a throw-away SoftHSM2 token, or the swtpm TPM token CI names in SWIFTMFA_TPM2_PKCS11_URI),
// with a fresh twin and a way to unplug it; and `mfa` children with their own environment, killed
// with SIGKILL at a chosen point. The counting forwarder in front of the server is CountingProxy.

import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A token under test. The URI carries `pin-source=file:` (never a PIN: argv is readable by every
/// user); `environment` is what an `mfa` child needs to reach the token.
final class HardwareToken: @unchecked Sendable {
    enum Kind { case softHSM2, tpm2 }

    static let softHSMUtility = "/usr/bin/softhsm2-util"
    /// The SoftHSM2 module, where HardwareKeys/softhsm-token looks for it; nil when not installed.
    static let softHSMModule: String? = ["/usr/lib/softhsm/libsofthsm2.so", "/usr/lib/x86_64-linux-gnu/softhsm/libsofthsm2.so",
                                         "/usr/lib/aarch64-linux-gnu/softhsm/libsofthsm2.so", "/usr/local/lib/softhsm/libsofthsm2.so"]
        .first { FileManager.default.fileExists(atPath: $0) }
    static var softHSMInstalled: Bool { softHSMModule != nil && FileManager.default.isExecutableFile(atPath: softHSMUtility) }
    /// The TPM token CI made with HardwareKeys/swtpm-token (its URI carries a throw-away pin-value).
    static var tpmURI: String? { ProcessInfo.processInfo.environment["SWIFTMFA_TPM2_PKCS11_URI"] }

    let kind: Kind
    let label: String
    let pin: String
    let directory: String
    let pinFile: String
    let uri: String
    /// Added to an `mfa` child's environment (SoftHSM2: its configuration; TPM: an unplugged store).
    private(set) var environment: [String: String]

    var name: String { kind == .softHSM2 ? "SoftHSM2" : "TPM 2.0 (swtpm)" }
    /// The file name of the token's module, as /proc/PID/maps shows it once loaded.
    var moduleFileName: String {
        let path = uri.split(separator: "?").last?.split(separator: "&").first { $0.hasPrefix("module-path=") }?.dropFirst("module-path=".count)
        return path.map { String($0.split(separator: "/").last ?? $0) } ?? (kind == .softHSM2 ? "libsofthsm2.so" : "libtpm2_pkcs11.so")
    }

    private init(kind: Kind, label: String, pin: String, directory: String, uri: String, environment: [String: String]) throws {
        (self.kind, self.label, self.pin, self.directory, self.environment) = (kind, label, pin, directory, environment)
        pinFile = directory + "/pin"
        self.uri = uri.contains("?") ? uri + "&pin-source=file:" + pinFile : uri + "?pin-source=file:" + pinFile
        try setPIN(pin)
    }

    /// A new directory of mode 0700 in `parent` (default: the temporary directory).
    static func temporaryDirectory(_ prefix: String, in parent: String = FileManager.default.temporaryDirectory.path) throws -> String {
        let path = parent + "/\(prefix)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return path
    }

    /// A throw-away SoftHSM2 token labelled `swiftmfa`, user PIN 1234, in its own directory.
    static func softHSM2() throws -> HardwareToken {
        let module = try #require(softHSMModule, "SoftHSM2 is installed")
        let directory = try temporaryDirectory("hwk-softhsm")
        let configuration = try initialiseSoftHSM(in: directory, label: "swiftmfa", pin: "1234")
        return try HardwareToken(kind: .softHSM2, label: "swiftmfa", pin: "1234", directory: directory,
                                 uri: "pkcs11:token=swiftmfa?module-path=" + module, environment: ["SOFTHSM2_CONF": configuration])
    }

    /// `DIR/softhsm2.conf` naming `DIR/tokens`, with one initialised token; returns the configuration's path.
    static func initialiseSoftHSM(in directory: String, label: String, pin: String) throws -> String {
        try FileManager.default.createDirectory(atPath: directory + "/tokens", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let configuration = directory + "/softhsm2.conf"
        try "directories.tokendir = \(directory)/tokens\nobjectstore.backend = file\nlog.level = ERROR\n"
            .write(toFile: configuration, atomically: true, encoding: .utf8)
        try tool(softHSMUtility, ["--init-token", "--free", "--label", label, "--pin", pin, "--so-pin", "5678"], environment: ["SOFTHSM2_CONF": configuration])
        return configuration
    }

    /// The TPM token of `SWIFTMFA_TPM2_PKCS11_URI`, its pin-value moved into a PIN file.
    static func tpm2() throws -> HardwareToken {
        let text = try #require(tpmURI, "SWIFTMFA_TPM2_PKCS11_URI is set")
        let parts = text.split(separator: "?", maxSplits: 1).map(String.init)
        let query = parts.count == 2 ? parts[1].split(separator: "&").map(String.init) : []
        let pinValue = try #require(query.first { $0.lowercased().hasPrefix("pin-value=") }, "the TPM URI carries its test PIN")
        let pin = try #require(String(pinValue.dropFirst("pin-value=".count)).removingPercentEncoding)
        let tokenAttribute = try #require(parts[0].dropFirst("pkcs11:".count).split(separator: ";").first { $0.hasPrefix("token=") })
        let label = try #require(String(tokenAttribute.dropFirst("token=".count)).removingPercentEncoding)
        let kept = query.filter { !$0.lowercased().hasPrefix("pin-value=") }
        return try HardwareToken(kind: .tpm2, label: label, pin: pin, directory: try temporaryDirectory("hwk-tpm"),
                                 uri: parts[0] + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&")), environment: [:])
    }

    /// Writes `text` as the PIN file (mode 0600, as pin-source requires).
    func setPIN(_ text: String) throws {
        try? FileManager.default.removeItem(atPath: pinFile)
        guard FileManager.default.createFile(atPath: pinFile, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw HarnessError(what: "cannot write the PIN file \(pinFile)")
        }
    }

    /// The environment of a FRESH token with the same label and PIN and no key object: another
    /// SoftHSM2 token directory, or another tpm2-pkcs11 store on the same TPM.
    func freshTwin() throws -> [String: String] {
        let twin = try Self.temporaryDirectory("twin", in: directory)
        switch kind {
        case .softHSM2:
            return ["SOFTHSM2_CONF": try Self.initialiseSoftHSM(in: twin, label: label, pin: pin)]
        case .tpm2:
            let environment = ["TPM2_PKCS11_STORE": twin]
            try Self.tool("/usr/bin/env", ["tpm2_ptool", "init"], environment: environment)
            try Self.tool("/usr/bin/env", ["tpm2_ptool", "addtoken", "--pid=1", "--label=\(label)", "--userpin=\(pin)", "--sopin=5678"],
                          environment: environment)
            return environment
        }
    }

    /// Unplugs the token: SoftHSM2's token directory moved away (an empty one in its place), the
    /// TPM's tpm2-pkcs11 store replaced by an empty one. ``plugIn()`` undoes it.
    func unplug() throws {
        switch kind {
        case .softHSM2:
            try FileManager.default.moveItem(atPath: directory + "/tokens", toPath: directory + "/tokens.unplugged")
            try FileManager.default.createDirectory(atPath: directory + "/tokens", withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        case .tpm2:
            environment["TPM2_PKCS11_STORE"] = try Self.temporaryDirectory("unplugged", in: directory)
        }
    }

    func plugIn() throws {
        switch kind {
        case .softHSM2:
            try FileManager.default.removeItem(atPath: directory + "/tokens")
            try FileManager.default.moveItem(atPath: directory + "/tokens.unplugged", toPath: directory + "/tokens")
        case .tpm2:
            environment["TPM2_PKCS11_STORE"] = nil
        }
    }

    func destroy() { try? FileManager.default.removeItem(atPath: directory) }

    /// Runs a setup tool to completion; its failure (with its standard error) throws.
    static func tool(_ path: String, _ arguments: [String], environment: [String: String]) throws {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: path)
        child.arguments = arguments
        child.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        child.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        child.standardError = errors
        try child.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        try #require(child.terminationStatus == 0, "\(path) \(arguments.first ?? ""): \(text)")
    }
}

struct HarnessError: Error { let what: String }

/// What one `mfa` child did.
struct ChildOutcome {
    let status: Int32
    let out: String
    let err: String
    let killed: Bool
    /// Seconds from loading the token's module to the end, when the child was watched.
    var tokenPhase: Double?
    /// Standard output and standard error (under `--json` an error is a JSON object on standard output).
    var text: String { out + err }
    /// The JSON object printed, or empty.
    var object: [String: Any] { ((try? JSONSerialization.jsonObject(with: Data(out.utf8))) as? [String: Any]) ?? [:] }
}

enum MFAChild {
    /// Starts `mfa <arguments>` with `environment` added to this process's, `input` on standard input.
    static func start(_ arguments: [String], input: String, environment: [String: String]) throws -> (Process, Pipe, Pipe) {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: try #require(EndToEnd.MFAPowerAuthCommandTests.mfa, "the root package's mfa is built"))
        child.arguments = arguments
        child.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let (stdin, stdout, stderr) = (Pipe(), Pipe(), Pipe())
        (child.standardInput, child.standardOutput, child.standardError) = (stdin, stdout, stderr)
        try child.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        return (child, stdout, stderr)
    }

    /// When a watched child is killed with SIGKILL. `afterLoading`: once it has loaded `module`
    /// (seen in /proc/PID/maps: from then on it works with the token), `delay` seconds later (nil:
    /// only watched, to time ``ChildOutcome/tokenPhase``). `onStoreWrite`: the moment a record of
    /// the store `directory` is replaced (a signer's write-ahead counter).
    enum KillPoint {
        case afterLoading(module: String, delay: Double?)
        case onStoreWrite(directory: String)
    }

    /// The whole of a /proc file, read to its end (its size reads as 0, so a reader that trusts
    /// the size stops early, before the libraries mapped last).
    static func readAll(_ path: String) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return "" }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Each record of `directory` (not the dot files) with its inode and modification time.
    static func records(_ directory: String) -> [String: [Int]] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var result: [String: [Int]] = [:]
        for name in names where !name.hasPrefix(".") {
            var info = stat()
            guard lstat(directory + "/" + name, &info) == 0 else { continue }
            result[name] = [Int(info.st_ino), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)]
        }
        return result
    }

    /// Waits for a started child, watching it (and killing it) at `killPoint` when given.
    static func finish(_ started: (Process, Pipe, Pipe), killAt killPoint: KillPoint? = nil, recordsBefore: [String: [Int]] = [:]) -> ChildOutcome {
        let (child, stdout, stderr) = started
        var loaded: Date?
        let deadline = Date().addingTimeInterval(60)
        switch killPoint {
        case .afterLoading(let module, let delay):
            let maps = "/proc/\(child.processIdentifier)/maps"
            while child.isRunning, Date() < deadline {
                if readAll(maps).contains(module) {
                    loaded = Date()
                    if let delay {
                        usleep(UInt32(delay * 1_000_000))
                        kill(child.processIdentifier, SIGKILL)
                    }
                    break
                }
                usleep(1_000)
            }
        case .onStoreWrite(let directory):
            while child.isRunning, Date() < deadline {
                if records(directory) != recordsBefore {
                    kill(child.processIdentifier, SIGKILL)
                    break
                }
                usleep(200)
            }
        case nil:
            break
        }
        let out = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let err = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        return ChildOutcome(status: child.terminationStatus, out: out, err: err, killed: child.terminationReason == .uncaughtSignal,
                            tokenPhase: loaded.map { Date().timeIntervalSince($0) })
    }

    /// Runs `mfa <arguments>` to completion (or to SIGKILL) off the cooperative pool: a blocking
    /// wait there would starve the in-process server on two cores.
    static func run(_ arguments: [String], input: String = "", environment: [String: String], killAt killPoint: KillPoint? = nil) async throws -> ChildOutcome {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result {
                    var before: [String: [Int]] = [:]
                    if case .onStoreWrite(let directory) = killPoint { before = records(directory) }
                    return finish(try start(arguments, input: input, environment: environment), killAt: killPoint, recordsBefore: before)
                })
            }
        }
    }
}
