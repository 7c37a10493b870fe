// What the client checks locally before it uses a value. The PIN rules, before anything leaves
// the device or changes in the store (docs/protocols/mpin.md §3, §6 `pinLength`): a PIN that cannot be the
// user's is refused locally, so it never spends a one-time value (an access code, a registration
// code, a pending client secret) and never counts toward the platform's block of the identity as
// a wrong PIN would. Numbers from the clock and the platform, before any integer arithmetic.

import FoundationEssentials
public import MPin

extension MPinClient {
    /// The PIN lengths a user may choose: 1–9 digits, what `PIN.init(decimal:)` reads
    /// (docs/protocols/mpin.md §3). Beyond six digits the PIN is reduced mod MAXPIN = 10⁶.
    public static let pinLengths: ClosedRange<Int> = 1...9

    /// Refuses `pin` with `MPinError.Code.invalidInput` unless it can be a PIN of `length`
    /// digits: `length` in ``pinLengths``; a PIN read from text has exactly `length` digits; any
    /// PIN is below 10^`length` (docs/protocols/mpin.md §3: the integer `pin mod MAXPIN`). Call it before the
    /// first request of a flow that ends in the PIN (registration spends its codes first).
    ///
    /// - Parameters:
    ///   - pin: The PIN to check.
    ///   - length: The PIN length, in digits, the PIN must fit.
    /// - Throws: `MPinError` with code `invalidInput` when `length` is outside `pinLengths` or `pin` cannot
    ///   be a PIN of `length` digits.
    public nonisolated static func checkPIN(_ pin: MPin.PIN, length: Int) throws(MPinError) {
        guard pinLengths.contains(length) else {
            throw MPinError(.invalidInput, "a PIN length is \(pinLengths.lowerBound)–\(pinLengths.upperBound) digits, not \(length)")
        }
        guard pin.digitCount == 0 || pin.digitCount == length else {
            throw MPinError(.invalidInput, "the PIN has \(pin.digitCount) digits; this user's PIN has \(length)")
        }
        // docs/protocols/mpin.md §3: a value at or above 10^length has more digits than the PIN length allows.
        var bound: UInt32 = 1
        for _ in 0..<min(length, 6) { bound &*= 10 }
        guard length >= 6 || pin.value < bound else {
            throw MPinError(.invalidInput, "the PIN has more than \(length) digits")
        }
    }

    /// ``checkPIN(_:length:)`` against the PIN length stored with `record` (docs/protocols/mpin.md §6); a
    /// record from before PIN lengths were kept (0), or one whose length is out of range, is
    /// checked against the widest rule only (the platform still judges the PIN).
    func checkPIN(_ pin: MPin.PIN, of record: UserRecord) throws(MPinError) {
        guard Self.pinLengths.contains(record.pinLength) else {
            guard pin.digitCount <= Self.pinLengths.upperBound else { throw MPinError(.invalidInput, "a PIN has at most 9 digits") }
            return
        }
        try Self.checkPIN(pin, length: record.pinLength)
    }

    /// The clock in whole Unix seconds, clamped to ±2⁶² s (NaN is 0): a broken clock never
    /// traps in an integer conversion.
    func unixSeconds() -> Int64 {
        let seconds = now().timeIntervalSince1970.rounded(.down)
        guard !seconds.isNaN else { return 0 }
        let limit = Double(Int64(1) << 62)
        return Int64(max(-limit, min(limit, seconds)))
    }

    /// A one-time code's lifetime from the platform (docs/protocols/mpin.md §7.2 `ttlSeconds`): a negative one
    /// is not a lifetime.
    func checkedTimeToLive(_ seconds: Int?) throws(MPinError) -> Int? {
        guard let seconds else { return nil }
        guard seconds >= 0 else { throw MPinError(.invalidResponse, "the platform sent a negative ttlSeconds") }
        return seconds
    }
}
