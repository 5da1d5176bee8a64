// SPDX-License-Identifier: MIT

/// What a template expanded to.
public struct TemplateExpansion: Equatable, Sendable {
    /// The text, placeholders filled in.
    public var text: String
    /// The characters (as Swift counts them: what a person sees as one) after `{cursor}`,
    /// or nil when the template has none.
    public var charactersAfterCursor: Int?
    /// True when a `{clipboard}` was met without the clipboard's text: read it and expand again.
    public var needsClipboard: Bool
    /// Every `{input:…}` met, each label once, in the order first met.
    public var inputs: [TemplateInput]
    /// The labels met with neither a value nor a default, in the order first met.
    public var missingInputs: [String]
    /// True when the text includes a secret, and so is secret itself wherever it goes.
    ///
    /// A secret is the row of a secret table through `{snippet:…}`, or through `{clipboard}`
    /// a clipboard text marked secret.
    public var isSecret: Bool

    /// Makes a result.
    public init(
        text: String, charactersAfterCursor: Int? = nil, needsClipboard: Bool = false,
        inputs: [TemplateInput] = [], missingInputs: [String] = [], isSecret: Bool = false
    ) {
        self.text = text
        self.isSecret = isSecret
        self.charactersAfterCursor = charactersAfterCursor
        self.needsClipboard = needsClipboard
        self.inputs = inputs
        self.missingInputs = missingInputs
    }
}
