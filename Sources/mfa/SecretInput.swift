// Secrets for `mfa` commands (DESIGN.md §3): never from an argument (which `ps` shows) — from a
// file named by a `--…-file` option, from the terminal without echo, or, when standard input is
// not a terminal (a script), from its next line. Read into `SecretBytes`, never a `String`.

import CryptoPrimitives
import FoundationEssentials
import Glibc

enum SecretInput {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The secret from `file` when given, else from standard input (prompting with `prompt`
    /// and echo off when it is a terminal). The line's end is not part of it.
    static func read(file: String?, prompt: String) throws -> SecretBytes {
        if let file {
            guard var bytes = FileManager.default.contents(atPath: file).map(Array.init) else {
                throw Failure(description: "cannot read \(file)")
            }
            defer { SecretBytes.wipe(&bytes) }
            while let last = bytes.last, last == 0x0A || last == 0x0D { bytes.removeLast() }
            guard !bytes.isEmpty else { throw Failure(description: "\(file) is empty") }
            return SecretBytes(bytes)
        }
        let terminal = isatty(STDIN_FILENO) == 1
        var saved = termios()
        if terminal {
            StandardStreams.writeError(prompt)
            tcgetattr(STDIN_FILENO, &saved)
            var silent = saved
            silent.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        }
        defer {
            if terminal {
                tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
                StandardStreams.writeError("\n")
            }
        }
        var line: [UInt8] = []
        defer { SecretBytes.wipe(&line) }
        var byte: UInt8 = 0
        while Glibc.read(STDIN_FILENO, &byte, 1) == 1 {
            if byte == 0x0A { break }
            if byte != 0x0D { line.append(byte) }
        }
        guard !line.isEmpty else { throw Failure(description: "no secret on standard input (\(String(prompt.reversed().drop { $0 == " " }.reversed())))") }
        return SecretBytes(line)
    }
}
