// One readable line for a file error of FoundationEssentials. A CocoaError that wraps a POSIX
// error prints as a dump of its user info (`CocoaError(code: …, userInfo: [NSUnderlyingError: …])`);
// a person wants the file and the system's words for its errno, as every Unix tool prints them.

import FoundationEssentials
import Glibc

package enum FileErrorText {
    /// `PATH: No such file or directory` for an error that names its file and carries an errno;
    /// the reason alone when it names no file; the error's own description for any other error.
    package static func describe(_ error: any Error) -> String {
        guard let cocoa = error as? CocoaError, let path = cocoa.userInfo["NSFilePath"] as? String else { return reason(error) }
        return path + ": " + reason(error)
    }

    /// The system's words for the errno a file error carries (`No such file or directory`), else
    /// the error's own description.
    package static func reason(_ error: any Error) -> String {
        if let posix = error as? POSIXError { return text(ofErrno: posix.code.rawValue) }
        if let cocoa = error as? CocoaError {
            if let posix = cocoa.userInfo["NSUnderlyingError"] as? POSIXError { return text(ofErrno: posix.code.rawValue) }
            return "file error \(cocoa.code.rawValue)"
        }
        return "\(error)"
    }

    private static func text(ofErrno code: Int32) -> String {
        guard let message = strerror(code) else { return "errno \(code)" }
        return String(cString: message)
    }
}
