// SPDX-License-Identifier: MIT

/// One piece of a parsed template: text as it is, or a placeholder.
public enum TemplatePart: Equatable, Sendable {
    /// Text copied as it is (`{{` and `}}` already made single braces).
    case literal(String)
    /// `{clipboard}`: the clipboard's text when the copy happens.
    case clipboard
    /// `{date}`, `{time}`, `{datetime}`: the clock, moved by offsets, in a format.
    case clock(TemplateClock)
    /// `{uuid}`: a new random (version 4) UUID.
    case uuid
    /// `{snippet:NAME}` or `{snippet:TABLE/NAME}`: another row, by name (table nil: the same).
    case snippet(table: String?, name: String)
    /// `{input:Label}` or `{input:Label=default}`: a value given when the row is used.
    case input(label: String, defaultValue: String?)
    /// `{cursor}`: where the caret ends up after a paste.
    case cursor
}
