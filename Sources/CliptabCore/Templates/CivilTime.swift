// SPDX-License-Identifier: MIT

/// A moment as a wall clock in some zone shows it: proleptic Gregorian date and time of day.
///
/// The arithmetic is Howard Hinnant's `days_from_civil` and `civil_from_days`, exact for
/// every `Int64` day count a template can reach.
public struct CivilTime: Equatable, Sendable {
    /// The year (astronomical: 0 is 1 BC).
    public var year: Int64
    /// 1…12.
    public var month: Int64
    /// 1…31.
    public var day: Int64
    /// 0…23.
    public var hour: Int64
    /// 0…59.
    public var minute: Int64
    /// 0…59.
    public var second: Int64
    /// The zone's offset from UTC, in seconds east.
    public var utcOffset: Int64
    /// The zone's abbreviation (`CET`, `CEST`, `UTC`).
    public var zoneAbbreviation: String

    /// The wall clock of UTC second `epochSeconds` in a zone `utcOffset` seconds east.
    public init(epochSeconds: Int64, utcOffset: Int64, abbreviation: String) {
        let local = epochSeconds + utcOffset
        let days = Self.floorDivide(local, 86_400)
        let seconds = local - days * 86_400
        (year, month, day) = Self.civil(fromDays: days)
        hour = seconds / 3600
        minute = seconds / 60 % 60
        second = seconds % 60
        self.utcOffset = utcOffset
        zoneAbbreviation = abbreviation
    }

    /// Days since 1970-01-01 of the wall date.
    public var daysSinceEpoch: Int64 { Self.days(year: year, month: month, day: day) }
    /// The wall clock as if it were UTC: seconds since the epoch.
    public var wallSeconds: Int64 { daysSinceEpoch * 86_400 + hour * 3600 + minute * 60 + second }
    /// The UTC second this wall clock is.
    public var epochSeconds: Int64 { wallSeconds - utcOffset }
    /// 0 (Sunday) … 6 (Saturday).
    public var weekday: Int64 {
        let w = (daysSinceEpoch + 4) % 7
        return w < 0 ? w + 7 : w
    }
    /// 1…366.
    public var dayOfYear: Int64 { daysSinceEpoch - Self.days(year: year, month: 1, day: 1) + 1 }

    /// The number of days of `month` in `year`.
    public static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Whether `year` is a leap year of the Gregorian calendar.
    public static func isLeap(_ year: Int64) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    /// Days since 1970-01-01 of a date.
    public static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let monthFromMarch = (month + 9) % 12
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day count since 1970-01-01.
    public static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}
