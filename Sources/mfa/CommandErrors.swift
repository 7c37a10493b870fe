// How every failure of every `mfa` command becomes one exit status and one report (docs/design.md
// §3): 0 ok, 1 refused by the server, 2 usage, 3 transport or store, and 4 for a well-formed
// command the local state cannot serve (nothing configured, no activation, no such connection,
// user or request: a script tells it from a typo). The mapping is here once;
// with `--json` the report is one JSON object on standard output (code, message, HTTP status and
// server code where there were ones), else one line on standard error.

import AuthNetworking
import CMAuthenticatorSDK
import FoundationEssentials
import MFACommandLine
import MPinSDK
import PowerAuthNetworking
import PowerAuthSDK
import ProtocolSupport
import SaltEdgeSDK
import SecureStore

/// The exit statuses of docs/design.md §3.
package enum ExitStatus: Int32 { case ok = 0, refused = 1, usage = 2, transportOrStore = 3, wrongState = 4 }

package enum CommandErrors {
    /// Whether the command line asked for `--json` (errors are then JSON too): bound by
    /// `MFA.run` for the command's task and every task it starts.
    @TaskLocal package static var json = false

    /// The exit status of `error`, from whichever layer it came.
    static func exitStatus(of error: any Error) -> ExitStatus {
        switch error {
        case is UsageError, is SecretInput.Failure: return .usage
        case is StateError: return .wrongState
        case let error as SecureStoreError where error.kind == .invalidName: return .usage   // a name given on the command line
        case let error as PowerAuthSDKError:
            switch error.code {
            case .server, .authenticationFailed, .invalidResponse, .counterDeadlock: return .refused
            case .missingActivation, .invalidActivationState: return .wrongState
            case .transport, .store, .cancelled: return .transportOrStore
            default: return .usage
            }
        case let error as NetworkingError:
            if let inner = error.powerAuthError { return exitStatus(of: inner) }
            if error.code == .missingActivation { return .wrongState }
            if error.code == .urlRefused { return .usage }
            return error.httpStatus != nil ? .refused : .transportOrStore
        case let error as SaltEdgeClientError:
            switch error.code {
            case .server, .invalidResponse: return .refused
            case .transport, .cancelled, .store, .deviceKey: return .transportOrStore
            case .unknownConnection: return .wrongState
            default: return .usage
            }
        case let error as CMClientError:
            switch error.code {
            case .server, .invalidResponse, .environmentInvalid, .requestExpired: return .refused
            case .transport, .cancelled, .store, .pinning, .deviceKey: return .transportOrStore
            case .notRegistered, .unknownEnvironment: return .wrongState
            default: return .usage
            }
        case let error as MPinError:
            switch error.code {
            case .incorrectPIN, .identityNotVerified, .registrationExpired, .revoked, .invalidAccessCode, .requestExpired, .notAuthorized,
                 .server, .invalidResponse: return .refused
            case .transport, .cancelled, .store, .crypto: return .transportOrStore
            case .flowError: return .wrongState
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
        case is StateError: "state"
        case let error as any ClientError: "\(error.code)"
        case is SecureStoreError: "store"
        default: "other"
        }
    }

    /// The HTTP status, the server's own error code and its message ("activation is
    /// PENDING_COMMIT"), when a server answered.
    static func server(of error: any Error) -> (status: Int?, code: String?, message: String?) {
        switch error {
        case let error as NetworkingError:
            // The envelope the service read, else the SDK error it wraps.
            if let rest = error.restAPIError { (error.httpStatus, error.serverCode, rest.message) }
            else if let inner = error.powerAuthError { server(of: inner) }
            else { (error.httpStatus, error.serverCode, nil) }
        case let error as any ClientError:
            (error.httpStatus, error.serverCode, error.httpStatus == nil ? nil : error.protocolError?.message)
        default: (nil, nil, nil)
        }
    }

    /// Reports `error` of `tool` and returns its exit status.
    static func report(_ tool: String, _ error: any Error) -> Int32 {
        let status = exitStatus(of: error)
        var message = (error as? UsageError)?.description ?? (error as? StateError)?.description
            ?? (error as? SecretInput.Failure)?.description ?? "\(error)"
        // The opt-out helps only plain http to this machine, which the refusal itself says.
        if urlRefusal(in: error)?.loopbackOptOutWouldAccept == true {
            message += "; plain http to this machine needs --allow-http-loopback when configuring"
        }
        return report(tool, message: message, code: code(of: error), server: server(of: error), status: status)
    }

    /// The URL policy's refusal behind `error`, through its causes: a client error's cause, a
    /// networking error's PowerAuth error, a transport or protocol error's refusal.
    static func urlRefusal(in error: any Error) -> URLPolicy.Refusal? {
        switch error {
        case let refusal as URLPolicy.Refusal: refusal
        case let error as TransportError: error.urlRefusal
        case let error as ProtocolError: error.urlRefusal
        case let error as any ClientError: error.cause.flatMap(urlRefusal(in:))
        default: nil
        }
    }

    /// Reports `message` with `status`: one JSON object on standard output under `--json`, else
    /// one line on standard error made safe for a terminal.
    static func report(_ tool: String, message: String, code: String,
                       server: (status: Int?, code: String?, message: String?) = (nil, nil, nil), status: ExitStatus) -> Int32 {
        if json {
            var object: [String: Any] = ["code": code, "message": message, "exitStatus": Int(status.rawValue), "command": tool]
            object["httpStatus"] = server.status.map { $0 as Any } ?? JSONOutput.null
            object["serverCode"] = server.code.map { $0 as Any } ?? JSONOutput.null
            object["serverMessage"] = server.message.map { $0 as Any } ?? JSONOutput.null
            let line = JSONOutput.render(["error": object])
            if let capture = CommandSupport.capture { capture.append(line) } else { print(line) }
        } else {
            let line = TerminalText.sanitized("\(tool): \(message)")
            if let capture = CommandSupport.capture { capture.append(line) } else { StandardStreams.writeError(line + "\n") }
        }
        return status.rawValue
    }
}
