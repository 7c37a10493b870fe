// Text that `mfa` prints for a person (docs/design.md §3): server-supplied names, titles and messages
// reach a terminal, where an escape sequence could move the cursor, rewrite earlier lines, set
// the window title or worse. `--json` escapes control characters itself; text output goes
// through `TerminalText.sanitized` first.

/// Makes text safe to print on a terminal.
public enum TerminalText {
    /// `text` with every C0 control except newline and tab, DEL, and every C1 control
    /// (U+0080–U+009F, including the 8-bit CSI) replaced by `?`; ESC is a C0 control, so no
    /// escape sequence survives.
    public static func sanitized(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let control = (value < 0x20 && value != 0x0A && value != 0x09) || (value >= 0x7F && value <= 0x9F)
            out.append(control ? "?" : scalar)
        }
        return String(out)
    }

    /// One field of a line (a server's title, name or message): like ``sanitized(_:)``, and also
    /// newlines and tabs (which would fake extra lines or columns of a list) and the bidirectional
    /// and zero-width formatting characters (which reorder or hide text) become `?`.
    public static func singleLine(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in sanitized(text).unicodeScalars {
            let value = scalar.value
            let hidden = value == 0x0A || value == 0x09 || (0x200B...0x200F).contains(value) || (0x202A...0x202E).contains(value)
                || (0x2066...0x2069).contains(value) || value == 0xFEFF
            out.append(hidden ? "?" : scalar)
        }
        return String(out)
    }
}
