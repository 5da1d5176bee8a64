// SPDX-License-Identifier: MIT

/// A `{date}`, `{time}` or `{datetime}` placeholder: offsets and a format.
public struct TemplateClock: Equatable, Sendable {
    /// Which placeholder it is: what its format is when it names none.
    public enum Kind: String, CaseIterable, Sendable {
        /// `{date}`: `%Y-%m-%d`.
        case date
        /// `{time}`: `%H:%M`.
        case time
        /// `{datetime}`: `%Y-%m-%d %H:%M`.
        case datetime

        /// The format used when the placeholder gives none.
        public var defaultFormat: String {
            switch self {
            case .date: return "%Y-%m-%d"
            case .time: return "%H:%M"
            case .datetime: return "%Y-%m-%d %H:%M"
            }
        }
    }

    /// Which placeholder.
    public var kind: Kind
    /// The moves of the clock, applied in order.
    public var offsets: [TemplateOffset]
    /// The format, checked.
    public var format: TimeFormat

    /// Makes a clock placeholder.
    public init(kind: Kind, offsets: [TemplateOffset], format: TimeFormat) {
        self.kind = kind
        self.offsets = offsets
        self.format = format
    }
}
