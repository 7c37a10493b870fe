// JSON output for `mfa … --json` without Foundation's JSONSerialization, which is not in
// FoundationEssentials: `mfa` links no ICU, so the static build stays small
// (docs/static-and-embedded.md). Writes strings, booleans, integers, doubles, arrays and objects (keys sorted, slashes
// not escaped), and `JSONOutput.null`; it cannot fail, so no output silently falls back.

import ProtocolSupport

enum JSONOutput {
    /// The JSON `null`.
    struct Null {}
    static let null = Null()

    /// `value` as compact JSON text.
    static func render(_ value: Any) -> String {
        var out = ""
        write(value, to: &out)
        return out
    }

    private static func write(_ value: Any, to out: inout String) {
        switch value {
        case is Null: out += "null"
        case let raw as JSONText: out += raw.text  // a server's object, nested as JSON (never as a string)
        case let flag as Bool: out += flag ? "true" : "false"
        case let number as Int: out += String(number)
        case let number as Int64: out += String(number)
        case let number as UInt64: out += String(number)
        case let number as Int32: out += String(number)
        case let number as UInt32: out += String(number)
        case let number as Double: out += number.isFinite ? "\(number)" : "null"  // JSON has no NaN or infinity
        case let text as String: writeString(text, to: &out)
        case let text as Substring: writeString(String(text), to: &out)
        case let array as [Any]:
            out += "["
            for (index, element) in array.enumerated() {
                if index > 0 { out += "," }
                write(element, to: &out)
            }
            out += "]"
        case let object as [String: Any]:
            out += "{"
            for (index, key) in object.keys.sorted().enumerated() {
                if index > 0 { out += "," }
                writeString(key, to: &out)
                out += ":"
                write(object[key] ?? Null(), to: &out)
            }
            out += "}"
        default:
            // An Optional inside `Any`: nil is null, a value is written as itself. A type this
            // writer does not know is written as its description, visibly.
            let mirror = Mirror(reflecting: value)
            if mirror.displayStyle == .optional {
                if let wrapped = mirror.children.first { write(wrapped.value, to: &out) } else { out += "null" }
            } else {
                writeString(String(describing: value), to: &out)
            }
        }
    }

    /// RFC 8259 §7: quote, backslash and control characters (C0, DEL and C1) escaped.
    private static func writeString(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):   // C1 too: a terminal may act on 8-bit CSI
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
