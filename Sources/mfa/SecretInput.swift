// Secrets for `mfa` commands (docs/design.md §3): never from an argument (which `ps` shows) — from a
// file named by a `--…-file` option (refused when group or others may read it), from the
// terminal without echo, or, when standard input is not a terminal (a script), from its next
// line. Read into `SecretBytes`, never a `String`.

import CryptoPrimitives
import Glibc
import MFACommandLine

enum SecretInput {
    /// The longest secret read from standard input or the terminal (the buffer is never grown).
    static let maximumLine = 64 * 1024

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The secret from `file` when given, else from standard input (prompting with `prompt`
    /// and echo off when it is a terminal). The line's end is not part of it.
    static func read(file: String?, prompt: String) throws -> SecretBytes {
        if let file {
            var bytes = try SecretFile.read(file)
            defer { SecretFile.wipe(&bytes) }
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
        // One buffer, allocated once and wiped: growing an array would free earlier copies of
        // the secret without wiping them.
        var line: [UInt8] = []
        line.reserveCapacity(Self.maximumLine)
        defer { SecretBytes.wipe(&line) }
        var byte: UInt8 = 0
        while Glibc.read(STDIN_FILENO, &byte, 1) == 1 {
            if byte == 0x0A { break }
            guard line.count < Self.maximumLine else { throw Failure(description: "a secret of more than \(Self.maximumLine) bytes on standard input") }
            if byte != 0x0D { line.append(byte) }
        }
        byte = 0
        guard !line.isEmpty else { throw Failure(description: "no secret on standard input (\(String(prompt.reversed().drop { $0 == " " }.reversed())))") }
        return SecretBytes(line)
    }

    /// The secret option `name` of `options`: from `NAME-file PATH` or standard input (`name -`,
    /// or always when `required`); nil when it is optional and neither was given.
    static func read(_ options: CommandOptions, _ name: String, prompt: String, required: Bool) throws -> SecretBytes? {
        switch options.secretSource(name) {
        case .file(let path): return try read(file: path, prompt: prompt)
        case .standardInput: return try read(file: nil, prompt: prompt)
        case nil: return required ? try read(file: nil, prompt: prompt) : nil
        }
    }

    /// The secret option `name` of `options`, always read: from `NAME-file PATH`, else standard
    /// input or the terminal (`name -` or nothing given).
    static func required(_ options: CommandOptions, _ name: String, prompt: String) throws -> SecretBytes {
        switch options.secretSource(name) {
        case .file(let path): try read(file: path, prompt: prompt)
        case .standardInput, nil: try read(file: nil, prompt: prompt)
        }
    }

    /// A secret that the SDK takes as text (a code or token the server compares): UTF-8, or a
    /// usage error.
    static func text(_ secret: SecretBytes, _ what: String) throws -> String {
        guard let text = String(validating: secret.unsafeExposedBytes, as: UTF8.self) else { throw UsageError(description: "\(what) is not UTF-8 text") }
        return text
    }

    /// The secret option `name` as text, always read (from `NAME-file PATH`, else standard input).
    static func requiredText(_ options: CommandOptions, _ name: String, prompt: String, what: String) throws -> String {
        guard let secret = try read(options, name, prompt: prompt, required: true) else { throw UsageError(description: "\(what) is required") }
        return try text(secret, what)
    }
}
