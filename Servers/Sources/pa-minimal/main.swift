// The smallest program that activates and signs through PowerAuthSDK with a transport of its
// own (SocketTransport.swift): the figure quoted for "a minimal binary" in docs/static-and-embedded.md.
//
//   pa-minimal <port on 127.0.0.1> <SDK configuration string> <activation code> <store directory>
//
// Prints the activation id, then the HTTP status of a possession-signed
// /pa/v3/signature/validate call. Exit 0 when the server accepted it.

import CryptoPrimitives
import Glibc
import PowerAuth
import PowerAuthSDK
import ProtocolSupport
import SecureStore

let arguments = CommandLine.arguments
guard arguments.count == 5, let port = UInt16(arguments[1]) else {
    print("usage: pa-minimal <port> <configuration string> <activation code> <store directory>")
    exit(2)
}
do {
    let client = try PowerAuthClient(configuration: .init(instanceID: "minimal", configurationString: arguments[2], baseURL: "http://127.0.0.1:\(port)",
                                                            urlPolicy: .insecureAllowingPlainHTTPToLoopback),
                                     store: try SecureStore(directory: arguments[4]), transport: .single(SocketTransport(host: "127.0.0.1", port: port)))
    let result = try await client.createActivation(.code(try PowerAuth.ActivationCode(parsing: arguments[3])))
    var random = SystemRandomSource()
    let possession = SymmetricKey(data: try random.bytes(count: 16))  // a demo: a real device derives it from a machine secret
    try await client.persistActivation(authentication: Authentication(possessionUnlockKey: possession, password: SecretBytes("1234".utf8)))
    print("activated \(result.activationID)")
    let request = HTTPRequest(method: .post, path: "pa/v3/signature/validate", headers: [HTTPHeader("Content-Type", "application/json")],
                              body: Array("{}".utf8))
    let response = try await client.sendSignedRequest(request, uriID: "/pa/signature/validate", factors: .possession,
                                                      authentication: Authentication(possessionUnlockKey: possession))
    print("signed request: HTTP \(response.status)")
    exit(response.status == 200 ? 0 : 1)
} catch {
    print("pa-minimal: \(error)")
    exit(1)
}
