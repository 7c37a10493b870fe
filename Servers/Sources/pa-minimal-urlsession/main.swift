// pa-minimal with URLSessionTransport instead of its own socket transport: the size the
// docs/static-and-embedded.md quotes for "with URLSessionTransport" (FoundationNetworking, libcurl, Foundation, ICU).
//
//   pa-minimal-urlsession <base URL> <SDK configuration string> <activation code> <store directory>

import CryptoPrimitives
import Glibc
import PowerAuth
import PowerAuthSDK
import ProtocolSupport
import SecureStore
import URLSessionTransport

let arguments = CommandLine.arguments
guard arguments.count == 5 else {
    print("usage: pa-minimal-urlsession <base URL> <configuration string> <activation code> <store directory>")
    exit(2)
}
do {
    let client = try PowerAuthClient(configuration: .init(instanceID: "minimal", configurationString: arguments[2], baseURL: arguments[1],
                                                            urlPolicy: .insecureAllowingPlainHTTPToLoopback),
                                     store: try SecureStore(directory: arguments[4]),
                                     transport: .single(URLSessionTransport(configuration: .init(baseURL: arguments[1]))))
    let result = try await client.createActivation(.code(try PowerAuth.ActivationCode(parsing: arguments[3])))
    var random = SystemRandomSource()
    let possession = SymmetricKey(data: try random.bytes(count: 16))
    try await client.persistActivation(authentication: Authentication(possessionUnlockKey: possession, password: SecretBytes("1234".utf8)))
    print("activated \(result.activationID)")
    let request = HTTPRequest(method: .post, path: "pa/v3/signature/validate", headers: [HTTPHeader("Content-Type", "application/json")],
                              body: Array("{}".utf8))
    let response = try await client.sendSignedRequest(request, uriID: "/pa/signature/validate", factors: .possession,
                                                      authentication: Authentication(possessionUnlockKey: possession))
    print("signed request: HTTP \(response.status)")
    exit(response.status == 200 ? 0 : 1)
} catch {
    print("pa-minimal-urlsession: \(error)")
    exit(1)
}
