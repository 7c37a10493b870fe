// M-Pin over loopback: starts mfa-server's M-Pin platform
// in this process on 127.0.0.1, registers a user through MPinClient and URLSessionTransport,
// then times (1) one full authentication round trip — pass 1, pass 2 with the platform's double
// pairing, authenticate; client and platform work included — and (2) the platform's
// verifications per second with `--clients N` authentications in flight. Run it under
// `taskset -c 0` for one core. A benchmark, not a test.
//
//   mpin-loopback-bench [--seconds 5] [--clients 2]

import CryptoPrimitives
import Foundation
import MFAServerCore
import MPinSDK
import MPin
import ProtocolSupport
import SecureStore
import ServiceLifecycle
import URLSessionTransport

var seconds = 5.0
var clients = 2
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--seconds" where !arguments.isEmpty: seconds = Double(arguments.removeFirst()) ?? seconds
    case "--clients" where !arguments.isEmpty: clients = max(1, Int(arguments.removeFirst()) ?? clients)
    default:
        FileHandle.standardError.write(Data("usage: mpin-loopback-bench [--seconds 5] [--clients 2]\n".utf8))
        exit(2)
    }
}

struct BenchFailure: Error, CustomStringConvertible {
    let description: String
}

func transport(_ origin: String) -> URLSessionTransport {
    var configuration = URLSessionTransport.Configuration(baseURL: origin)
    configuration.logger = .disabled
    return URLSessionTransport(configuration: configuration)
}

func admin(_ url: String, _ path: String, _ object: [String: Any] = [:]) async throws -> [String: Any] {
    let response = try await transport(url).send(HTTPRequest(method: .post, path: "integration/mpin/" + path,
                                                             headers: [HTTPHeader("Content-Type", "application/json")],
                                                             body: Array(try JSONSerialization.data(withJSONObject: object))))
    return try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any] ?? [:]
}

/// A client with a registered user `identity`, PIN 1234.
func registered(_ url: String, identity: String) async throws -> (MPinClient, MPinUser, String) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mpin-bench-\(getpid())-\(identity)").path
    let client = MPinClient(configuration: MPinClient.Configuration(urlPolicy: .insecureAllowingPlainHTTPToLoopback),
                            store: try SecureStore(directory: directory), transport: .perBaseURL { transport($0) })
    try await client.setBackend(url + "/mpin")
    guard let accessCode = try await admin(url, "session")["accessCode"] as? String else { throw BenchFailure(description: "no session") }
    var user = try await client.startRegistration(for: try await client.makeUser(identity: identity), accessCode: accessCode)
    _ = try await admin(url, "verify-identity", ["userId": identity])
    user = try await client.finishRegistration(for: try await client.confirmRegistration(for: user), pin: MPin.PIN(1234))
    return (client, user, directory)
}

func elapsedSeconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func run(url: String, platform: MPinStandIn, seconds: Double, clients: Int) async throws {
    var users: [(MPinClient, MPinUser, String)] = []
    for index in 0..<clients { users.append(try await registered(url, identity: "bench\(index)@example.com")) }
    defer { for (_, _, directory) in users { try? FileManager.default.removeItem(atPath: directory) } }
    let (client, user, _) = users[0]
    for _ in 0..<5 { try await client.authenticate(user, pin: MPin.PIN(1234), accessCode: nil) }   // warm-up

    let clock = ContinuousClock()
    var start = clock.now
    var count = 0
    while clock.now - start < .seconds(seconds) {
        try await client.authenticate(user, pin: MPin.PIN(1234), accessCode: nil)
        count += 1
    }
    var total = elapsedSeconds(clock.now - start)
    print(String(format: "mpin/loopback/authentication          %8.1f /s  %9.1f µs  (%d round trips in %.2f s, 1 client)",
                 Double(count) / total, total / Double(count) * 1e6, count, total))

    let before = await platform.verifications
    start = clock.now
    let began = start
    try await withThrowingTaskGroup(of: Void.self) { group in
        for (client, user, _) in users {
            group.addTask {
                while clock.now - began < .seconds(seconds) { try await client.authenticate(user, pin: MPin.PIN(1234), accessCode: nil) }
            }
        }
        try await group.waitForAll()
    }
    total = elapsedSeconds(clock.now - start)
    let verified = await platform.verifications - before
    print(String(format: "mpin/loopback/platform-verifications  %8.1f /s  (%d verifications in %.2f s, %d clients in flight, %d cores available)",
                 Double(verified) / total, verified, total, clients, ProcessInfo.processInfo.activeProcessorCount))
}

let platform = try MPinStandIn()
let (urls, continuation) = AsyncStream.makeStream(of: String.self)
let app = try MFAServer.application(powerAuth: try PowerAuthStandIn(), mpin: platform) { continuation.yield($0) }
let group = ServiceGroup(services: [app], logger: .init(label: "mpin-loopback-bench"))
let server = Task { try await group.run() }
var failure: (any Error)?
for await url in urls {
    do { try await run(url: url, platform: platform, seconds: seconds, clients: clients) } catch { failure = error }
    break
}
await group.triggerGracefulShutdown()
try await server.value
if let failure {
    FileHandle.standardError.write(Data("mpin-loopback-bench: \(failure)\n".utf8))
    exit(1)
}
