// What every SDK command of `mfa` shares (docs/design.md §3): `--name value` options and flags, the
// exit statuses, running an async verb to completion, text or `--json` output, the default
// secure store, and the one error line on standard error.

import FoundationEssentials
import MFACommandLine
import PKCS11
package import SecureStore
import Synchronization

extension CommandOptions {
    /// `--store DIR`, else `$XDG_DATA_HOME/swiftmfa` or `~/.local/share/swiftmfa` (never the
    /// current directory: with neither variable set, an error asks for `--store`).
    package func store() throws -> SecureStore { try openStore().store }

    /// Whether the store directory exists: every `status` reports an absent store as "not
    /// configured" and never creates one (a mistyped `--store` leaves no empty store behind).
    func storeExists() throws -> Bool { FileManager.default.fileExists(atPath: try storeDirectory()) }

    /// The store directory: `--store DIR`, else the default.
    func storeDirectory() throws -> String { try values["--store"] ?? SecureStore.defaultDirectory() }

    /// The store opened with the key provider it records (KeysCommand), after applying a
    /// `--key-provider` given to `configure` (the same as `mfa keys use`).
    /// A store that does not exist is opened only by a verb that creates state (each family's
    /// `configure`, Salt Edge's `connect`); any other verb reports it, so a mistyped `--store`
    /// is an error and leaves no empty store behind.
    func openStore() throws -> OpenedStore {
        let directory = try storeDirectory()
        guard CommandSupport.mayCreateStore || FileManager.default.fileExists(atPath: directory) else {
            throw StateError(description: "no store at \(directory): nothing was configured there (is --store mistyped? configure creates the store)")
        }
        if let requested = values["--key-provider"] { try KeysCommand.use(requested, directory: directory) }
        return try KeysCommand.open(directory: directory)
    }
}

/// One server-supplied field of a text list line: no control, newline, tab or bidirectional
/// character survives (a title could otherwise fake list lines or reorder them).
func line(_ field: some StringProtocol) -> String { TerminalText.singleLine(String(field)) }

/// What ``CommandSupport/output(_:_:text:)`` printed, kept instead of written to standard output
/// while a test runs a verb in process (``CommandSupport/capture``).
package final class OutputCapture: Sendable {
    private let lines = Mutex<[String]>([])

    package init() {}

    /// Every printed line (a JSON document per result under `--json`), in order.
    package var printed: [String] { lines.withLock { $0 } }

    func append(_ line: String) { lines.withLock { $0.append(line) } }
}

package enum CommandSupport {
    /// Set by a test for the task that runs a verb: the output is kept there instead.
    @TaskLocal package static var capture: OutputCapture?

    /// Whether the running verb may create the store (``CommandOptions/openStore()``).
    @TaskLocal static var mayCreateStore = false

    /// Runs one verb of `tool` to completion; any error it throws becomes the one report and
    /// exit status of CommandErrors. `creatingStore`: the verb may create a store that does not
    /// exist yet.
    package static func run(_ tool: String, creatingStore: Bool = false, _ body: () async throws -> Void) async -> Int32 {
        do {
            try await $mayCreateStore.withValue(creatingStore) { try await body() }
            return ExitStatus.ok.rawValue
        } catch {
            return CommandErrors.report(tool, error)
        }
    }

    /// The one error line (or JSON object) for `message`, with `status`.
    static func fail(_ tool: String, _ message: String, _ status: ExitStatus) -> Int32 {
        CommandErrors.report(tool, message: message, code: status == .usage ? "usage" : "failure", status: status)
    }

    /// Writes one result made of `parts` to standard output in chunks, without a copy of the
    /// whole; a part marked `sanitizing` has the control characters ``TerminalText/sanitized(_:)``
    /// replaces replaced (its bytes are UTF-8 already checked: C0 but tab and newline, DEL, and
    /// C1 as C2 80–C2 9F).
    static func outputRaw(_ parts: [(bytes: ArraySlice<UInt8>, sanitizing: Bool)]) {
        if let capture {
            let text = parts.map { part in
                let text = String(decoding: part.bytes, as: UTF8.self)
                return part.sanitizing ? TerminalText.sanitized(text) : text
            }.joined()
            return capture.append(text.hasSuffix("\n") ? String(text.dropLast()) : text)
        }
        var chunk: [UInt8] = []
        chunk.reserveCapacity(64 << 10)
        for part in parts { outputRaw(part.bytes, sanitizing: part.sanitizing, through: &chunk) }
        StandardStreams.writeOutput(bytes: chunk)
    }

    private static func outputRaw(_ bytes: ArraySlice<UInt8>, sanitizing: Bool, through chunk: inout [UInt8]) {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if sanitizing, (byte < 0x20 && byte != 0x0A && byte != 0x09) || byte == 0x7F {
                chunk.append(UInt8(ascii: "?"))
            } else if sanitizing, byte == 0xC2, index + 1 < bytes.endIndex, (0x80...0x9F).contains(bytes[index + 1]) {
                chunk.append(UInt8(ascii: "?"))
                index += 1
            } else {
                chunk.append(byte)
            }
            index += 1
            if chunk.count >= 64 << 10 {
                StandardStreams.writeOutput(bytes: chunk)
                chunk.removeAll(keepingCapacity: true)
            }
        }
    }

    /// Prints `object` as one line of JSON with `--json`, else `text`; flushed at once, so a
    /// `--watch` consumer sees each update as it happens. Text output carries server-supplied
    /// names and titles, so control characters and escape sequences are stripped from it.
    static func output(_ options: CommandOptions, _ object: Any, text: String) {
        let line = options.json ? JSONOutput.render(object) : TerminalText.sanitized(text)
        if let capture { return capture.append(line) }
        StandardStreams.writeOutput(line + "\n")
    }
}
