// SPDX-License-Identifier: MIT

/// A row that `{snippet:…}` names, as the caller found it.
public struct TemplateSource: Equatable, Sendable {
    /// The row's stored text.
    public var text: String
    /// Whether its table has templates on: then its text is expanded too, else copied as it is.
    public var isTemplate: Bool
    /// Whether its table is secret: then the expansion that includes it is secret too.
    public var isSecret: Bool

    /// Makes a source.
    public init(text: String, isTemplate: Bool, isSecret: Bool = false) {
        self.text = text
        self.isTemplate = isTemplate
        self.isSecret = isSecret
    }
}
