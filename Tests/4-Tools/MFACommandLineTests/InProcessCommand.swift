// Running `mfa`'s verbs in process, the way MFA.run does (the one command model first), with the
// output kept for the test (CommandSupport.capture) and a private directory for the store and the
// secret files (mode 0600, as SecretInput demands).

import Foundation
import MFACommandLine
import mfa
import TestSupport

struct InProcessCommand {
    let directory: String
    var store: String { directory + "/store" }

    init() throws {
        directory = try TemporaryDirectory("mfa-verbs").appending("store")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    }

    /// A file of mode 0600 holding `text`; its path.
    func secretFile(_ name: String, _ text: String) throws -> String {
        let path = directory + "/" + name
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw POSIXError(.EIO)
        }
        return path
    }

    /// Runs `mfa <arguments> --store <store>`: the exit status and every printed result.
    func run(_ arguments: [String]) async -> (status: Int32, printed: [String]) {
        let invocation: Invocation
        do { invocation = try MFACommands.model.parse(arguments + ["--store", store]) } catch { return (ExitStatus.usage.rawValue, []) }
        guard case .run(let family, let verbs, var options) = invocation else { return (ExitStatus.ok.rawValue, []) }
        options.positional = Array(verbs.dropFirst()) + options.positional
        let verb = verbs.first ?? "", checked = options
        let capture = OutputCapture()
        let status = await CommandErrors.$json.withValue(arguments.contains("--json")) {
            await CommandSupport.$capture.withValue(capture) { () async -> Int32 in
                switch family {
                case "powerauth": await PowerAuthCommand.run(verb, checked)
                case "saltedge": await SaltEdgeCommand.run(verb, checked)
                case "cm": await CMCommand.run(verb, checked)
                case "mpin": await MPinCommand.run(verb, checked)
                case "keys": await KeysCommand.run(verb, checked)
                default: ExitStatus.usage.rawValue
                }
            }
        }
        return (status, capture.printed)
    }

    /// The last printed result as a JSON object.
    static func object(_ printed: [String]) -> [String: Any]? {
        printed.last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    func cleanUp() { try? FileManager.default.removeItem(atPath: directory) }
}
