// Numeric options of `mfa` (docs/design.md §3): every number a user types is parsed and range-checked
// here, so a `nan`, an `inf`, `1e300` or a value past the type's range is a usage error (exit 2)
// and never reaches a conversion that traps (`Int(Double)` on a non-finite or huge value).

extension CommandOptions {
    /// The value of `name` as seconds within `range` (finite, as `Double`), else `default`
    /// when the option is absent; a value that is not a number in the range is a usage error.
    public func seconds(_ name: String, default fallback: Double, in range: ClosedRange<Double>) throws(UsageError) -> Double {
        guard let text = values[name] else { return fallback }
        return try Self.parseNumber(text, name: name, in: range)
    }

    /// The value of `name` as an integer within `range`, else `default` when absent.
    public func integer(_ name: String, default fallback: Int, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let text = values[name] else { return fallback }
        return try Self.parseInteger(text, name: name, in: range)
    }

    /// `text` as a finite decimal number in `range`; `nan`, `inf`, hex floats and out-of-range
    /// values are usage errors naming `name`.
    public static func parseNumber(_ text: String, name: String, in range: ClosedRange<Double>) throws(UsageError) -> Double {
        let plain = !text.isEmpty && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-")
                                                            || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
        guard plain, let value = Double(text), value.isFinite, range.contains(value) else {
            throw UsageError(description: "\(name) is a number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// `text` as a decimal integer in `range`; anything else is a usage error naming `name`.
    public static func parseInteger(_ text: String, name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(description: "\(name) is an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// Whole milliseconds of `seconds` (finite and within ±1e12 by the callers' ranges), for
    /// `Duration.milliseconds`; never traps.
    public static func milliseconds(_ seconds: Double) -> Int {
        let scaled = (seconds * 1000).rounded()
        guard scaled.isFinite, scaled > -9e15, scaled < 9e15 else { return scaled > 0 ? 9_000_000_000_000_000 : 0 }
        return Int(scaled)
    }
}
