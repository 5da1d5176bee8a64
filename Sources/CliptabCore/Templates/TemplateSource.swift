// SPDX-License-Identifier: MIT

/// A row that `{snippet:…}` names, as the caller found it.
public struct TemplateSource: Equatable, Sendable {
    /// The row's stored text.
    public var text: String
    /// Whether its table has templates on: then its text is expanded too, else copied as it is.
    public var isTemplate: Bool

    /// Makes a source.
    public init(text: String, isTemplate: Bool) {
        self.text = text
        self.isTemplate = isTemplate
    }
}
