// The memory one `mfa powerauth call` needs for a 16 MiB answer over HTTPS (nginx on
// 127.0.0.1, the default TLSTransport): the built `mfa` runs as a child, and its peak resident
// set (ru_maxrss, reported by a forking wrapper) must stay under 40 MiB. The answer is held once, read within the
// limits, and printed from its bytes after one validating scan. Release builds only: a debug
// binary's start-up alone is larger.

import CryptoPrimitives
import Foundation
import Glibc
import PowerAuth
import PowerAuthServer
import Testing
import TestSupport

@Suite(.serialized, .enabled(if: TestBuild.isOptimized, "the peak of a release mfa; swift test -c release runs it"),
       .enabled(if: TLSPeer.isInstalled("nginx") || TLSPeer.isRequired, "needs nginx"))
struct PeakMemoryTests {
    /// Runs `arguments` under the built mfa; its exit status, output size and peak RSS in KiB.
    ///
    /// A child spawned from this (large) test process starts with the parent's resident set
    /// counted in its high-water mark (vfork and fork both carry it over), so a small Python
    /// forks the mfa instead and reports the grandchild's `ru_maxrss` from wait4.
    static func run(_ arguments: [String], input: String = "") throws -> (status: Int32, outputBytes: Int, peakKiB: Int) {
        let mfa = BuiltProducts.executable("mfa")
        let wrapper = """
            import os, sys
            pid = os.fork()
            if pid == 0:
                null = os.open("/dev/null", os.O_WRONLY)
                os.dup2(null, 2)
                os.execv(sys.argv[1], sys.argv[1:])
            _, status, usage = os.wait4(pid, 0)
            sys.stderr.write("%d %d" % (os.waitstatus_to_exitcode(status), usage.ru_maxrss))
            """
        var output: [Int32] = [0, 0], feed: [Int32] = [0, 0], report: [Int32] = [0, 0]
        guard pipe(&output) == 0, pipe(&feed) == 0, pipe(&report) == 0 else { throw POSIXError(.EMFILE) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, feed[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, report[1], 2)
        for descriptor in [output[0], feed[1], report[0]] { posix_spawn_file_actions_addclose(&actions, descriptor) }
        let argv = (["/usr/bin/python3", "-c", wrapper, mfa] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/usr/bin/python3", &actions, nil, argv, environ) == 0 else { throw POSIXError(.ENOENT) }
        close(output[1])
        close(feed[0])
        close(report[1])
        _ = input.withCString { write(feed[1], $0, strlen($0)) }
        close(feed[1])
        var count = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let read = Glibc.read(output[0], &buffer, buffer.count)
            guard read > 0 else { break }
            count += read
        }
        close(output[0])
        var reported = [UInt8]()
        while true {
            let read = Glibc.read(report[0], &buffer, buffer.count)
            guard read > 0 else { break }
            reported += buffer[..<read]
        }
        close(report[0])
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        let fields = String(decoding: reported, as: UTF8.self).split(separator: " ").compactMap { Int($0) }
        guard fields.count == 2, let exit = Int32(exactly: fields[0]) else {
            throw POSIXError(.EIO)
        }
        return (exit, count, fields[1])
    }

    @Test func aSixteenMebibyteAnswerOverHTTPSStaysUnderFortyMebibytes() throws {
        let site = NSTemporaryDirectory() + "swiftmfa-peak-\(getpid())"
        try FileManager.default.createDirectory(atPath: site, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: site) }
        let string = String(repeating: "a", count: (16 << 20) - 40)
        try Data(#"{"status":"OK","responseObject":"\#(string)"}"#.utf8).write(to: URL(fileURLWithPath: site + "/big.json"))
        let server = try TLSPeer.nginx("p256", root: site)
        var random = SystemRandomSource()
        let url = "https://localhost:\(server.port)"
        let configuration = try PowerAuthServer.Application(using: &random).clientConfiguration(baseURL: url).configurationString
        let store = site + "/store", ca = TLSPeer.certificates + "/p256/root.pem"
        let configurationFile = site + "/configuration"
        try #require(FileManager.default.createFile(atPath: configurationFile, contents: Data(configuration.utf8), attributes: [.posixPermissions: 0o600]))
        let configured = try Self.run(["powerauth", "configure", "--store", store, "--config-string-file", configurationFile, "--base-url", url,
                                       "--allow-http-loopback"])
        #expect(configured.status == 0)
        let call = try Self.run(["powerauth", "call", "--store", store, "--ca-file", ca, "--method", "GET", "--path", "big.json"])
        #expect(call.status == 0)
        #expect(call.outputBytes == (16 << 20) - 40 + 3, "the response object and a newline")
        #expect(call.peakKiB < 40 * 1024, "peak RSS \(call.peakKiB) KiB")
        let baseline = try Self.run(["--version"])
        print("peak RSS: mfa --version \(baseline.peakKiB) KiB; a 16 MiB answer over HTTPS \(call.peakKiB) KiB")
    }
}
