// Numeric options are range-checked before any conversion that could trap (`--interval nan`,
// `inf`, `1e300`), and text output loses every control character and escape sequence a server
// could put in a name or title (docs/design.md §3).

import MFACommandLine
import Testing

@Suite struct NumericOptionTests {
    /// Options holding `value` for `name`, as the command model leaves them.
    static func options(_ name: String, _ value: String) -> CommandOptions {
        var options = CommandOptions()
        options.values[name] = value
        return options
    }

    @Test(arguments: ["nan", "NaN", "inf", "-inf", "infinity", "1e300", "-1", "0", "0x10", "", " 3", "3s", "1e-300", "86401"])
    func badIntervalIsAUsageError(text: String) throws {
        let options = Self.options("--interval", text)
        #expect(throws: UsageError.self) { try options.seconds("--interval", default: 3, in: 0.1...86_400) }
    }

    @Test func goodIntervalsAndTheDefault() throws {
        #expect(try Self.options("--interval", "0.2").seconds("--interval", default: 3, in: 0.1...86_400) == 0.2)
        #expect(try Self.options("--interval", "2e1").seconds("--interval", default: 3, in: 0.1...86_400) == 20)
        #expect(try CommandOptions().seconds("--interval", default: 3, in: 0.1...86_400) == 3)
        #expect(CommandOptions.milliseconds(0.2) == 200)
        #expect(CommandOptions.milliseconds(86_400) == 86_400_000)
    }

    @Test(arguments: ["9223372036854775808", "-1", "0", "10", "4.5", "nan", "", "1e3"])
    func badPINLengthIsAUsageError(text: String) throws {
        let options = Self.options("--pin-length", text)
        #expect(throws: UsageError.self) { try options.integer("--pin-length", default: 4, in: 1...9) }
    }

    @Test func millisecondsNeverTraps() {
        for seconds in [Double.nan, .infinity, -.infinity, 1e300, -1e300, Double(Int64.max)] {
            _ = CommandOptions.milliseconds(seconds)
        }
    }
}

@Suite struct TerminalTextTests {
    @Test func escapeSequencesAndControlsAreStripped() {
        let hostile = "Shop\u{1B}]0;pwned\u{07}\u{1B}[2J\u{1B}[1A ok\u{9B}31m\u{7F}\r\u{0}\u{85}"
        let clean = TerminalText.sanitized(hostile)
        #expect(!clean.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        #expect(clean.hasPrefix("Shop?]0;pwned??[2J?[1A ok?31m"))
    }

    @Test func newlineTabAndOrdinaryTextStay() {
        let text = "id\tBank Zürich 🏦\nsecond line"
        #expect(TerminalText.sanitized(text) == text)
    }

    @Test func aListFieldCannotFakeLinesColumnsOrReorderText() {
        // A title with a newline would print a fake second request; U+202E reverses what follows.
        let title = "Pay 10 EUR\n123\tFake bank\tapprove\u{202E}RUE 0001\u{200B}"
        let field = TerminalText.singleLine(title)
        #expect(field == "Pay 10 EUR?123?Fake bank?approve?RUE 0001?")
        #expect(TerminalText.singleLine("Bank Zürich 🏦") == "Bank Zürich 🏦")
    }
}
