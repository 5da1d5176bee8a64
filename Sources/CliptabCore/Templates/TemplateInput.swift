// SPDX-License-Identifier: MIT

/// An `{input:…}` of a template: its label and its default, if it has one.
public struct TemplateInput: Equatable, Sendable {
    /// The label, which is also the key of its value.
    public var label: String
    /// The value used when none is given, or nil when one must be.
    public var defaultValue: String?

    /// Makes an input.
    public init(label: String, defaultValue: String?) {
        self.label = label
        self.defaultValue = defaultValue
    }
}
