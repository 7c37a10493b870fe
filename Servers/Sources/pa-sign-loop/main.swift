// A helper for the crash-safety test: signs in a
// loop with the activation in a store directory and prints each `X-PowerAuth-Authorization`
// value on its own line as soon as it exists, until it is killed.
//
//   pa-sign-loop <store directory> <instance id> <SDK configuration string> <possession key hex>

import Foundation
import PowerAuth
@_spi(Internals) import PowerAuthSDK
import SecureStore
import CryptoPrimitives

let arguments = CommandLine.arguments
guard arguments.count == 5 else {
    FileHandle.standardError.write(Data("usage: pa-sign-loop <store> <instance> <configuration string> <possession key hex>\n".utf8))
    exit(2)
}
do {
    let activations = try ActivationStore(store: SecureStore(directory: arguments[1]), instanceID: arguments[2])
    let configuration = try PowerAuth.Configuration(configurationString: arguments[3], baseURL: "")
    let authentication = Authentication(possessionUnlockKey: SymmetricKey(data: try Hex.decode(arguments[4])))
    var n = 0
    while true {
        let header = try activations.sign(method: "POST", uriID: "/loop", body: Array("\(n)".utf8), factors: .possession,
                                          authentication: authentication, configuration: configuration)
        FileHandle.standardOutput.write(Data("\(n) \(header.value)\n".utf8))
        n += 1
    }
} catch {
    FileHandle.standardError.write(Data("pa-sign-loop: \(error)\n".utf8))
    exit(1)
}
