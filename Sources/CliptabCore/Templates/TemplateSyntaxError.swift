// SPDX-License-Identifier: MIT

/// Why a template is malformed, and where: the UTF-8 byte offset in the text.
public struct TemplateSyntaxError: Error, Equatable, Sendable {
    /// The UTF-8 byte offset of the first byte of what is wrong.
    public var offset: Int
    /// What is wrong.
    public var message: String

    /// Makes an error at `offset`.
    public init(offset: Int, _ message: String) {
        self.offset = offset
        self.message = message
    }

    /// The contract's error: `InvalidTemplate`, naming the offset.
    public var contractError: CliptabError {
        CliptabError(.invalidTemplate, "the template is malformed at byte \(offset): \(message)")
    }
}
