// SPDX-License-Identifier: MIT

/// A move of the clock in a `{date +1d}` placeholder: an amount and its unit.
///
/// Seconds, minutes and hours are elapsed time; days, weeks, months and years move the
/// wall-clock date and keep the time of day (so `+1d` across a change to summer time is
/// still the same hour the next day, 23 hours later).
public struct TemplateOffset: Equatable, Sendable {
    /// The units, by their letter.
    public enum Unit: Character, CaseIterable, Sendable {
        /// `s`: seconds.
        case second = "s"
        /// `m`: minutes.
        case minute = "m"
        /// `h`: hours.
        case hour = "h"
        /// `d`: days of the calendar.
        case day = "d"
        /// `w`: weeks of the calendar (7 days).
        case week = "w"
        /// `M`: months; a day past the new month's end becomes its last day.
        case month = "M"
        /// `y`: years; 29 February becomes 28 February in a common year.
        case year = "y"
    }

    /// The signed amount.
    public var amount: Int64
    /// Its unit.
    public var unit: Unit

    /// Makes an offset.
    public init(amount: Int64, unit: Unit) {
        self.amount = amount
        self.unit = unit
    }
}
