// Lenient ISO 8601 timestamps as the protocol servers write them: `2013-07-21T11:02:02Z`,
// `…+02:00`, `…+0200`, optional fractional seconds (docs/protocols/saltedge-v2.md §6.6, docs/protocols/cm-authenticator.md §1).

import CryptoPrimitives
public import FoundationEssentials

/// Parsing of the ISO 8601 date-times found in protocol responses.
public enum Timestamp {
    /// The instant `text` names, or `nil` when it is not `YYYY-MM-DDThh:mm:ss[.fraction]` followed
    /// by `Z`, `±hh:mm`, `±hhmm` or `±hh`. A space is accepted in place of `T`.
    public static func parseISO8601(_ text: String) -> Date? {
        let c = Array(text.utf8)
        guard c.count >= 20 else { return nil }
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= c.count else { return nil }
            var value = 0
            for i in from..<from + count {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c[i]) else { return nil }
                value = value * 10 + Int(c[i] - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0, 4), c[4] == UInt8(ascii: "-"), let month = number(5, 2), c[7] == UInt8(ascii: "-"),
              let day = number(8, 2), c[10] == UInt8(ascii: "T") || c[10] == UInt8(ascii: " "),
              let hour = number(11, 2), c[13] == UInt8(ascii: ":"), let minute = number(14, 2),
              c[16] == UInt8(ascii: ":"), let second = number(17, 2) else { return nil }
        guard (1...12).contains(month), (1...CivilCalendar.days(inMonth: month, year: year)).contains(day),
              hour < 24, minute < 60, second < 61 else { return nil }
        var i = 19
        var fraction = 0.0
        if i < c.count, c[i] == UInt8(ascii: ".") {
            i += 1
            var scale = 0.1
            let start = i
            while i < c.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c[i]) {
                fraction += Double(c[i] - UInt8(ascii: "0")) * scale
                scale /= 10
                i += 1
            }
            guard i > start else { return nil }
        }
        guard i < c.count else { return nil }
        var offset = 0
        switch c[i] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard i + 1 == c.count else { return nil }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = c[i] == UInt8(ascii: "+") ? 1 : -1
            let rest = c.count - i - 1
            guard let hours = number(i + 1, 2), hours < 24 else { return nil }
            var minutes = 0
            switch rest {
            case 2: break
            case 4: guard let m = number(i + 3, 2) else { return nil }; minutes = m
            case 5: guard c[i + 3] == UInt8(ascii: ":"), let m = number(i + 4, 2) else { return nil }; minutes = m
            default: return nil
            }
            guard minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        default:
            return nil
        }
        let days = CivilCalendar.daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }
}
