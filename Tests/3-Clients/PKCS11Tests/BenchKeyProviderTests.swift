// `mfa bench --key-provider` (the debug executable) on a throw-away SoftHSM2 token: the two rows
// run and report sane figures; the token is asked once per operation — counted by the rows
// themselves and, independently of our code, by OpenSC's pkcs11-spy placed between `mfa` and
// SoftHSM2 (every C_SignInit it logs is one derivation); a pin-value on the command line is
// refused before anything runs; the file provider makes no token call.

import Foundation
import Testing
import TestSupport
import PKCS11

extension SoftHSMSuite {
    @Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: mfaExecutable), "the mfa executable is not built"))
    struct BenchKeyProviderTests {
        static let spyModule = "/usr/lib/x86_64-linux-gnu/pkcs11/pkcs11-spy.so"

        /// One row of `mfa bench --key-provider … --json`.
        struct Row {
            let name: String
            let operationsPerSecond: Double
            let operations: Int
            let tokenCalls: Int
            let tokenCallsPerOperation: Double
        }

        /// Runs `mfa arguments` with `environment` added; exit status, standard output and error.
        func mfa(_ arguments: [String], environment: [String: String]) throws -> (Int32, String, String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: mfaExecutable)
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            let output = Pipe(), error = Pipe()
            process.standardOutput = output
            process.standardError = error
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let out = output.fileHandleForReading.readDataToEndOfFile(), err = error.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
        }

        /// The rows of a `--json` document, by name.
        func rows(_ json: String) throws -> [String: Row] {
            let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            let list = try #require(document["rows"] as? [[String: Any]])
            var rows: [String: Row] = [:]
            for object in list {
                let row = Row(name: try #require(object["name"] as? String), operationsPerSecond: try #require(object["ops_per_s"] as? Double),
                              operations: try #require(object["operations"] as? Int), tokenCalls: try #require(object["token_calls"] as? Int),
                              tokenCallsPerOperation: try #require(object["token_calls_per_op"] as? Double))
                rows[row.name] = row
            }
            return rows
        }

        /// A fresh token, its directory and a pin-source file beside it.
        func token() throws -> (SoftHSMToken, String) {
            let token = try SoftHSMToken(label: "bench")
            token.activate()
            let pinFile = token.directory + "/pin"
            try "1234\n".write(toFile: pinFile, atomically: true, encoding: .utf8)
            chmod(pinFile, 0o600)
            return (token, pinFile)
        }

        @Test func tokenRowsRunWithOneDerivationPerOperation() throws {
            let (token, pinFile) = try token()
            let uri = "pkcs11:token=\(token.label)?module-path=\(SoftHSM.modulePath)&pin-source=file:\(pinFile)"
            let (status, output, error) = try mfa(["bench", "--key-provider", uri, "--min-time", "0.01", "--json"],
                                                  environment: ["SOFTHSM2_CONF": token.configuration])
            #expect(status == 0, "\(error)")
            let rows = try rows(output)
            #expect(Set(rows.keys) == ["keys/pkcs11/powerauth-sign-2fa", "keys/pkcs11/store-open"])
            for row in rows.values {
                // A signature runs PBKDF2 and an fsync; a store open, a session and an HMAC: neither
                // takes a microsecond nor a minute, even in a debug build on a loaded machine.
                #expect(row.operationsPerSecond > 1.0 / 60 && row.operationsPerSecond < 1e6, "\(row.name): \(row.operationsPerSecond) ops/s")
                #expect(row.operations > 0)
                #expect(row.tokenCalls == row.operations, "\(row.name): \(row.tokenCalls) token derivations in \(row.operations) operations")
                #expect(row.tokenCallsPerOperation == 1)
            }
            // The PIN is digits, so the rates' own digits are taken out first: "412345.6 ops/s"
            // is not a leak (this check failed on such a number once).
            let withoutNumbers = output.replacing(/:\s*-?[0-9][0-9.eE+-]*/, with: ":")
            #expect(!withoutNumbers.contains("1234") && !error.contains("1234"))
        }

        /// pkcs11-spy logs every call the module receives: the derivations counted there are the
        /// two of the set-up (the new store's key and the instance's possession key) plus one per
        /// operation of either row — a row that asked the token twice per signature fails here
        /// even if it forgot to count.
        @Test(.enabled(if: FileManager.default.fileExists(atPath: spyModule), "OpenSC's pkcs11-spy is not installed (apt-get install opensc-pkcs11)"))
        func theTokenSeesOneSignaturePerOperation() throws {
            let (token, pinFile) = try token()
            let log = token.directory + "/spy.log"
            let uri = "pkcs11:token=\(token.label)?module-path=\(Self.spyModule)&pin-source=file:\(pinFile)"
            let (status, output, error) = try mfa(["bench", "--key-provider", uri, "--min-time", "0.01", "--json"],
                                                  environment: ["SOFTHSM2_CONF": token.configuration, "PKCS11SPY": SoftHSM.modulePath,
                                                                "PKCS11SPY_OUTPUT": log])
            #expect(status == 0, "\(error)")
            let rows = try rows(output)
            let operations = rows.values.map(\.operations).reduce(0, +)
            #expect(operations > 0)
            let calls = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            let signInits = calls.filter { $0.hasSuffix(": C_SignInit") }.count
            let signs = calls.filter { $0.hasSuffix(": C_Sign") }.count
            #expect(signInits == 2 + operations, "\(signInits) C_SignInit for \(operations) operations")
            #expect(signs == 2 * signInits, "one length query and one signature per derivation")
        }

        @Test func aPINValueOnTheCommandLineIsRefusedAndTheFileProviderCallsNoToken() throws {
            let refused = try mfa(["bench", "--key-provider", "pkcs11:token=bench?module-path=\(SoftHSM.modulePath)&pin-value=98765"],
                                  environment: [:])
            #expect(refused.0 == 2)
            #expect(!refused.1.contains("98765") && !refused.2.contains("98765"))

            let (status, output, error) = try mfa(["bench", "--key-provider", "file", "--min-time", "0.01", "--json"], environment: [:])
            #expect(status == 0, "\(error)")
            let rows = try rows(output)
            #expect(Set(rows.keys) == ["keys/file/powerauth-sign-2fa", "keys/file/store-open"])
            #expect(rows.values.allSatisfy { $0.tokenCalls == 0 && $0.operationsPerSecond > 0 })
        }

        /// The store rows' activation lives in a store made with mkdtemp under TMPDIR once per
        /// run and removed when `mfa bench` exits: TMPDIR is left empty, and nothing appears in
        /// /tmp under the guessable `swiftmfa-bench-store-<number>` name a run used to leave.
        @Test func aBenchRunLeavesNoStoreBehind() throws {
            let temporary = try TemporaryDirectory("bench-tmp")
            defer { temporary.remove() }
            func leftovers() throws -> Set<String> {
                Set(try FileManager.default.contentsOfDirectory(atPath: "/tmp").filter { name in
                    name.hasPrefix("swiftmfa-bench-store-") && name.dropFirst("swiftmfa-bench-store-".count).allSatisfy(\.isNumber)
                })
            }
            let before = try leftovers()
            let (status, output, error) = try mfa(["bench", "--filter", "powerauth/store/sign-and-persist", "--min-time", "0.01", "--json"],
                                                  environment: ["TMPDIR": temporary.path])
            #expect(status == 0, "\(error)")
            #expect(output.contains("\"powerauth/store/sign-and-persist\""), "\(output)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
            #expect(try leftovers().subtracting(before).isEmpty)
        }
    }
}
