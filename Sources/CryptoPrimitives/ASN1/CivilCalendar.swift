// Dates of the proleptic Gregorian calendar as days since 1970-01-01, for the two readers of
// written times: X.509's UTCTime and GeneralizedTime (RFC 5280 §4.1.2.5) and the ISO 8601 stamps
// of protocol answers (RFC 3339 §5.6).
// Integer arithmetic only, so that it needs no Foundation and runs under Embedded Swift.

/// The proleptic Gregorian calendar, by day.
package enum CivilCalendar {
    /// The days of `month` (1–12) in `year`: 28 or 29 for February by the Gregorian leap rule.
    package static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a date whose month is 1–12 and day within the month (Howard
    /// Hinnant's days_from_civil); negative before 1970.
    package static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
