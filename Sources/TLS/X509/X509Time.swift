// UTCTime and GeneralizedTime as DER writes them in certificates (RFC 5280 §4.1.2.5.1,
// §4.1.2.5.2: Zulu, seconds present, no fractions), to seconds since 1970, with no Foundation.

import CryptoPrimitives

enum X509Time {
    /// Seconds since 1970-01-01T00:00:00Z of a UTCTime (tag 0x17, YYMMDDHHMMSSZ, years 1950–2049)
    /// or GeneralizedTime (tag 0x18, YYYYMMDDHHMMSSZ); nil for any other form.
    static func seconds(tag: UInt8, _ text: ArraySlice<UInt8>) -> Int64? {
        let digits = Array(text)
        let yearDigits: Int
        switch (tag, digits.count) {
        case (0x17, 13): yearDigits = 2
        case (0x18, 15): yearDigits = 4
        default: return nil
        }
        guard digits.last == UInt8(ascii: "Z"), digits.dropLast().allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        func number(_ start: Int, _ count: Int) -> Int { digits[start..<(start + count)].reduce(0) { $0 * 10 + Int($1 - 0x30) } }
        var year = number(0, yearDigits)
        if yearDigits == 2 { year += year >= 50 ? 1900 : 2000 }
        let month = number(yearDigits, 2), day = number(yearDigits + 2, 2)
        let hour = number(yearDigits + 4, 2), minute = number(yearDigits + 6, 2), second = number(yearDigits + 8, 2)
        guard (1...12).contains(month), (1...CivilCalendar.days(inMonth: month, year: year)).contains(day), hour < 24, minute < 60, second < 60 else { return nil }
        return Int64(CivilCalendar.daysSinceEpoch(year: year, month: month, day: day)) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }
}
