// A signed request end to end over loopback: starts
// mfa-server in this process on 127.0.0.1, activates a PowerAuthClient through
// URLSessionTransport, then times signed POSTs to /pa/v3/signature/validate through the SDK's
// serial queue — sign, write-ahead the counter with fsync, HTTP round trip, server verification.
// A benchmark, not a test: run it on a quiet machine and quote it with its store row.
//
//   pa-loopback-bench [--seconds 5] [--store DIR]

import CryptoPrimitives
import Foundation
import MFAServerCore
import PowerAuth
import PowerAuthSDK
import ProtocolSupport
import SecureStore
import ServiceLifecycle
import URLSessionTransport

var seconds = 5.0
var storeDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("pa-loopback-bench-\(getpid())").path
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--seconds" where !arguments.isEmpty: seconds = Double(arguments.removeFirst()) ?? seconds
    case "--store" where !arguments.isEmpty: storeDirectory = arguments.removeFirst()
    default:
        FileHandle.standardError.write(Data("usage: pa-loopback-bench [--seconds 5] [--store DIR]\n".utf8))
        exit(2)
    }
}

struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func post(_ transport: URLSessionTransport, _ path: String) async throws -> [String: Any] {
    let response = try await transport.send(HTTPRequest(method: .post, path: path, headers: [HTTPHeader("Content-Type", "application/json")],
                                                        body: Array("{}".utf8)))
    return try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any] ?? [:]
}

func run(url: String, seconds: Double, storeDirectory: String) async throws {
    var transportConfiguration = URLSessionTransport.Configuration(baseURL: url)
    transportConfiguration.logger = .disabled
    let transport = URLSessionTransport(configuration: transportConfiguration)
    guard let configurationString = try await post(transport, "integration/powerauth/application")["configurationString"] as? String,
          let code = try await post(transport, "integration/powerauth/activation/init")["activationCode"] as? String else {
        throw BenchFailure("the integration API did not answer")
    }
    let store = try SecureStore(directory: storeDirectory)
    defer { try? FileManager.default.removeItem(atPath: storeDirectory) }
    let client = try PowerAuthClient(configuration: .init(instanceID: "bench", configurationString: configurationString, baseURL: url,
                                                            urlPolicy: .insecureAllowingPlainHTTPToLoopback),
                                     store: store, transport: .single(transport))
    _ = try await client.createActivation(.code(try PowerAuth.ActivationCode(parsing: code)))
    var random = SystemRandomSource()
    let possession = SymmetricKey(data: try random.bytes(count: 16))
    try await client.persistActivation(authentication: Authentication(possessionUnlockKey: possession, password: SecretBytes("1234".utf8)))
    let authentication = Authentication(possessionUnlockKey: possession)
    let request = HTTPRequest(method: .post, path: "pa/v3/signature/validate", headers: [HTTPHeader("Content-Type", "application/json")],
                              body: Array(#"{"requestObject":{"reason":"BENCH"}}"#.utf8))
    func signedCall() async throws {
        let status = try await client.sendSignedRequest(request, uriID: "/pa/signature/validate", factors: .possession,
                                                        authentication: authentication).status
        guard status == 200 else { throw BenchFailure("a signed request was refused: HTTP \(status)") }
    }
    for _ in 0..<20 { try await signedCall() }  // warm-up: connections, caches
    let clock = ContinuousClock()
    let start = clock.now
    var count = 0
    while (clock.now - start) < .seconds(seconds) {
        try await signedCall()
        count += 1
    }
    let elapsed = clock.now - start
    let total = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    print(String(format: "powerauth/loopback/signed-request  %8.0f /s  %9.1f µs  (%d requests in %.2f s)",
                 Double(count) / total, total / Double(count) * 1e6, count, total))
}

let powerAuth = try PowerAuthStandIn()
let (urls, continuation) = AsyncStream.makeStream(of: String.self)
let app = try MFAServer.application(powerAuth: powerAuth) { url in continuation.yield(url) }
let group = ServiceGroup(services: [app], logger: .init(label: "pa-loopback-bench"))
let server = Task { try await group.run() }
var failure: (any Error)?
for await url in urls {
    do { try await run(url: url, seconds: seconds, storeDirectory: storeDirectory) } catch { failure = error }
    break
}
await group.triggerGracefulShutdown()
try await server.value
if let failure {
    FileHandle.standardError.write(Data("pa-loopback-bench: \(failure)\n".utf8))
    exit(1)
}
