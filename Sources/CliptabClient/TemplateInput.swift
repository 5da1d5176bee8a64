// SPDX-License-Identifier: MIT

/// An `{input:…}` label of a template row, as `GetTemplateInputs` lists it.
public struct TemplateInput: Equatable, Sendable {
    /// The label.
    public var label: String
    /// Whether the label has a default (`{input:Label=default}`).
    public var hasDefault: Bool
    /// The default, "" for none.
    public var defaultValue: String
}

/// The values given for a template's labels, in order (a later one for a label wins).
public typealias InputValues = [(label: String, value: String)]
