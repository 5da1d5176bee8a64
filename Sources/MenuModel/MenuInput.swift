// SPDX-License-Identifier: MIT

/// One `{input:…}` of a template row that the menu asks for before it uses the row.
public struct MenuInput: Equatable, Sendable {
    /// The label, shown as the prompt.
    public var label: String
    /// The text the input line starts with (the template's default, or empty).
    public var defaultValue: String

    /// Makes an input.
    public init(label: String, defaultValue: String) {
        self.label = label
        self.defaultValue = defaultValue
    }
}
