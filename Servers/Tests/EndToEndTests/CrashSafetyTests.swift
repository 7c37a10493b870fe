// Crash safety by killing processes: a child signs in
// a loop (`pa-sign-loop`) and is killed with SIGKILL at random points, 200 times. The server sees
// every header the child printed, in order; after each kill the parent signs once more from the
// same store, and that signature must be accepted. The write-ahead rule guarantees it: a counter
// is on disk before its header exists, so a kill can only make the client one step ahead (inside
// the window), never reuse a counter. The activation must end with no failed attempt.

import CryptoPrimitives
import Foundation
import MFAServerCore
import PowerAuth
@_spi(Internals) import PowerAuthSDK
import ProtocolSupport
import SecureStore
import Testing
import URLSessionTransport

extension EndToEnd {
    @Suite struct CrashSafetyTests {
        /// The helper next to the test bundle in the build folder.
        static var helper: String {
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("pa-sign-loop").path
        }

        /// A `pa-sign-loop` child signing from `directory` as `instance`.
        static func startSigner(directory: String, instance: String, configurationString: String, possessionBytes: [UInt8]) throws -> (Process, Pipe) {
            let child = Process()
            child.executableURL = URL(fileURLWithPath: helper)
            child.arguments = [directory, instance, configurationString, Hex.encode(possessionBytes)]
            let pipe = Pipe()
            child.standardOutput = pipe
            child.standardError = FileHandle.nullDevice
            try child.run()
            return (child, pipe)
        }

        /// Kills the child with SIGKILL and returns the complete `n header` lines it printed.
        static func kill(_ child: Process, reading pipe: Pipe) -> [(body: String, header: String)] {
            Foundation.kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            return output.split(separator: "\n").filter { $0.contains("pa_signature=\"") && $0.hasSuffix("\"") }.compactMap { line in
                let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
                return parts.count == 2 ? (parts[0], parts[1]) : nil
            }
        }

        /// The stand-in's back-end verification of a `/loop` signature (in process, no HTTP).
        static func verify(_ header: String, body: [UInt8], activationID: String, on powerAuth: PowerAuthStandIn) async throws -> (valid: Bool, failed: Int) {
            let request = try JSONSerialization.data(withJSONObject: [
                "activationId": activationID, "method": "POST", "uriId": "/loop", "body": Data(body).base64EncodedString(), "header": header,
            ])
            let answer = try #require(await powerAuth.handle(method: "POST", path: "integration/powerauth/signature/verify", body: Array(request)))
            let object = try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
            return (object["valid"] as? Bool == true, object["failedAttempts"] as? Int ?? -1)
        }

        @Test func killedSignersNeverCostAFailedAttempt() async throws {
            try #require(FileManager.default.isExecutableFile(atPath: Self.helper), "pa-sign-loop is built beside the tests")
            try await withMFAServer { url, powerAuth in
                let activated = try await ActivatedClient(url: url, instanceID: "kill")
                defer { activated.discard() }
                let (store, core, configurationString, possessionBytes) = (activated.store, activated.core, activated.configurationString, activated.possessionBytes)
                let (directory, authentication, activationID) = (store.directory, activated.authentication, activated.activationID)
                let activations = try ActivationStore(store: store, instanceID: "kill")

                func verify(_ header: String, body: [UInt8]) async throws -> (valid: Bool, failed: Int) {
                    try await Self.verify(header, body: body, activationID: activationID, on: powerAuth)
                }

                var kills = 0, printed = 0, refusedAfterRestart = 0
                for round in 0..<200 {
                    let (child, pipe) = try Self.startSigner(directory: directory, instance: "kill", configurationString: configurationString,
                                                             possessionBytes: possessionBytes)
                    usleep(UInt32.random(in: 0...60_000))            // a random point in the loop
                    let lines = Self.kill(child, reading: pipe)
                    kills += child.terminationReason == .uncaughtSignal ? 1 : 0
                    // Every complete line the child printed reaches the server, in order.
                    for line in lines {
                        let verdict = try await verify(line.header, body: Array(line.body.utf8))
                        #expect(verdict.valid, "round \(round): a printed signature was refused")
                        printed += 1
                    }
                    // The parent signs next from the same store; it must be accepted.
                    let body = Array("after \(round)".utf8)
                    let header = try activations.sign(method: "POST", uriID: "/loop", body: body, factors: .possession,
                                                      authentication: authentication, configuration: core)
                    let verdict = try await verify(header.value, body: body)
                    if !verdict.valid { refusedAfterRestart += 1 }
                    #expect(verdict.failed == 0, "round \(round): \(verdict.failed) failed attempts")
                }
                print("kill -9: 200 rounds, \(kills) killed by SIGKILL, \(printed) signatures from the children accepted, \(refusedAfterRestart) refused after a restart")
                #expect(refusedAfterRestart == 0)
                let status = try await activated.client.fetchActivationStatus(possessionUnlockKey: activated.possession)
                #expect(status.state == .active && status.failedAttempts == 0)
            }
        }

        /// Two processes sign from one store at once until both are killed. Every counter is used at
        /// most once (each printed signature matches a distinct counter), and the server accepts all
        /// of them in counter order with no failed attempt.
        @Test func twoProcessesSharingAStoreNeverReuseACounter() async throws {
            try #require(FileManager.default.isExecutableFile(atPath: Self.helper), "pa-sign-loop is built beside the tests")
            try await withMFAServer { url, powerAuth in
                let activated = try await ActivatedClient(url: url, instanceID: "two")
                defer { activated.discard() }
                let (store, core, configurationString, possessionBytes) = (activated.store, activated.core, activated.configurationString, activated.possessionBytes)
                let (directory, possession, client) = (store.directory, activated.possession, activated.client)
                let initial = try #require(try ActivationStore(store: store, instanceID: "two").activation())

                let children = try (0..<2).map { _ in
                    try Self.startSigner(directory: directory, instance: "two", configurationString: configurationString, possessionBytes: possessionBytes)
                }
                // Until the two have signed a few times between them (the stored counter is four
                // to a thousand steps on), for at most 60 s: a debug-built signer starts slowly.
                var later = [initial.counter]
                for _ in 0..<1000 { later.append(later[later.count - 1].next) }
                let signed = Array(later[4...])
                let records = try ActivationStore(store: activated.store, instanceID: "two")
                let deadline = Date().addingTimeInterval(60)
                while Date() < deadline {
                    if let counter = try records.activation()?.counter, signed.contains(counter) { break }
                    usleep(20_000)
                }
                usleep(200_000)
                let lines = children.flatMap { Self.kill($0.0, reading: $0.1) }
                #expect(lines.count >= 2)
                // Which counter did each printed signature use?
                let keys = try initial.signatureKeys(for: .possession, possessionUnlockKey: possession)
                var counters = [initial.counter]
                for _ in 0..<(lines.count + 2) { counters.append(counters[counters.count - 1].next) }
                var byCounter: [Int: (body: String, header: String)] = [:]
                for line in lines {
                    let nonce = try #require(line.header.components(separatedBy: "pa_nonce=\"").last?.split(separator: "\"").first.map(String.init))
                    let signature = try #require(line.header.components(separatedBy: "pa_signature=\"").last?.dropLast())
                    let data = PowerAuth.NormalizedData.make(method: "POST", uriID: "/loop", nonce: nonce, body: Array(line.body.utf8),
                                                             secret: core.applicationSecret)
                    let position = try counters.firstIndex {
                        try PowerAuth.Signature.compute(data: data, counter: $0, factors: .possession, keys: keys, format: .base64) == String(signature)
                    }
                    let counter = try #require(position, "a printed signature used no expected counter")
                    #expect(byCounter[counter] == nil, "counter \(counter) used twice")
                    byCounter[counter] = line
                }
                for counter in byCounter.keys.sorted() {
                    let line = try #require(byCounter[counter])
                    let verdict = try await Self.verify(line.header, body: Array(line.body.utf8), activationID: activated.activationID, on: powerAuth)
                    #expect(verdict.valid && verdict.failed == 0, "counter \(counter)")
                }
                print("two processes: \(lines.count) signatures printed, \(Set(byCounter.keys).count) distinct counters, all accepted in order")
                let status = try await client.fetchActivationStatus(possessionUnlockKey: possession)
                #expect(status.state == .active && status.failedAttempts == 0)
            }
        }
    }
}
