// How every failure of every `mfa` command becomes one exit status and one report (DESIGN.md
// §3): 0 ok, 1 refused by the server, 2 usage, 3 transport or store. The mapping is here once;
// with `--json` the report is one JSON object on standard output (code, message, HTTP status and
// server code where there were ones), else one line on standard error.

import AuthNetworking
import CMAuthenticatorSDK
import FoundationEssentials
import MFACommandLine
import MPinSDK
import PowerAuthNetworking
import PowerAuthSDK
import SaltEdgeSDK
import SecureStore

/// The exit statuses of DESIGN.md §3.
enum ExitStatus: Int32 { case ok = 0, refused = 1, usage = 2, transportOrStore = 3 }

enum CommandErrors {
    /// Whether the command line asked for `--json` (errors are then JSON too).
    nonisolated(unsafe) static var json = false

    /// The exit status of `error`, from whichever layer it came.
    static func exitStatus(of error: any Error) -> ExitStatus {
        switch error {
        case is UsageError, is SecretInput.Failure: return .usage
        case let error as PowerAuthSDKError:
            switch error.reason {
            case .server, .authenticationFailed, .invalidResponse, .counterDeadlock: return .refused
            case .transport, .store, .cancelled: return .transportOrStore
            default: return .usage
            }
        case let error as NetworkingError:
            if let inner = error.powerAuthError { return exitStatus(of: inner) }
            return error.httpStatus != nil ? .refused : .transportOrStore
        case let error as SaltEdgeClientError:
            switch error.reason {
            case .server, .invalidResponse: return .refused
            case .transport, .store, .deviceKey: return .transportOrStore
            default: return .usage
            }
        case let error as CMClientError:
            switch error.reason {
            case .server, .invalidResponse, .environmentInvalid, .requestExpired: return .refused
            case .transport, .store, .pinning, .deviceKey: return .transportOrStore
            default: return .usage
            }
        case let error as MPinError:
            switch error.reason {
            case .incorrectPIN, .identityNotVerified, .registrationExpired, .revoked, .invalidAccessCode, .requestExpired, .notAuthorized,
                 .server, .invalidResponse: return .refused
            case .transport, .store, .crypto: return .transportOrStore
            default: return .usage
            }
        default:
            return .transportOrStore
        }
    }

    /// A short code naming the error's kind, for `--json`: every SDK error's own code.
    static func code(of error: any Error) -> String {
        switch error {
        case is UsageError: "usage"
        case is SecretInput.Failure: "secretInput"
        case let error as any ClientError: "\(error.code)"
        case is SecureStoreError: "store"
        default: "other"
        }
    }

    /// The HTTP status and the server's own error code, when a server answered.
    static func server(of error: any Error) -> (status: Int?, code: String?) {
        switch error {
        case let error as any ClientError: (error.httpStatus, error.serverCode)
        default: (nil, nil)
        }
    }

    /// Reports `error` of `tool` and returns its exit status.
    static func report(_ tool: String, _ error: any Error) -> Int32 {
        let status = exitStatus(of: error)
        let message = (error as? UsageError)?.description ?? (error as? SecretInput.Failure)?.description ?? "\(error)"
        return report(tool, message: message, code: code(of: error), server: server(of: error), status: status)
    }

    /// Reports `message` with `status`: one JSON object on standard output under `--json`, else
    /// one line on standard error made safe for a terminal.
    static func report(_ tool: String, message: String, code: String, server: (status: Int?, code: String?) = (nil, nil),
                       status: ExitStatus) -> Int32 {
        if json {
            var object: [String: Any] = ["code": code, "message": message, "exitStatus": Int(status.rawValue), "command": tool]
            object["httpStatus"] = server.status.map { $0 as Any } ?? JSONOutput.null
            object["serverCode"] = server.code.map { $0 as Any } ?? JSONOutput.null
            print(JSONOutput.render(["error": object]))
        } else {
            StandardStreams.writeError(TerminalText.sanitized("\(tool): \(message)") + "\n")
        }
        return status.rawValue
    }
}
