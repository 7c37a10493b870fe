// Writing to standard output and error with write(2), not Foundation's FileHandle (which
// FoundationEssentials does not have): each call writes its whole text at once and unbuffered,
// so a `--watch` consumer sees a line as soon as it is printed.

import Glibc

enum StandardStreams {
    /// Writes `text` to standard output.
    static func writeOutput(_ text: String) { write(text, to: STDOUT_FILENO) }

    /// Writes `bytes` to standard output.
    static func writeOutput(bytes: [UInt8]) { write(bytes[...], to: STDOUT_FILENO) }

    /// Writes `text` to standard error.
    static func writeError(_ text: String) { write(text, to: STDERR_FILENO) }

    private static func write(_ text: String, to descriptor: Int32) {
        write(Array(text.utf8)[...], to: descriptor)
    }

    private static func write(_ bytes: ArraySlice<UInt8>, to descriptor: Int32) {
        fflush(nil)  // keep order with print(), which buffers standard output
        var bytes = bytes
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written > 0 {
                bytes = bytes.dropFirst(written)
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return  // a closed pipe: nothing more can be said on it
            }
        }
    }
}

/// Fixed-point decimal text, as printf's `%W.Pf` (FoundationEssentials has no String(format:)).
enum NumberText {
    /// `value` rounded to `decimals` places, right-aligned in `width` characters.
    static func fixed(_ value: Double, decimals: Int, width: Int) -> String {
        var text: String
        if !value.isFinite {
            text = value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf")
        } else {
            var scale = 1.0
            for _ in 0..<decimals { scale *= 10 }
            let scaled = (abs(value) * scale).rounded()
            if scaled >= 9e18 {
                text = "\(value)"
            } else {
                let units = UInt64(scaled)
                let whole = units / UInt64(scale), fraction = units % UInt64(scale)
                let fractionText = String(fraction)
                text = (value < 0 && units > 0 ? "-" : "") + String(whole)
                if decimals > 0 { text += "." + String(repeating: "0", count: decimals - fractionText.count) + fractionText }
            }
        }
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
