// SPDX-License-Identifier: MIT

/// A YAML text that cannot be read, or a document that cannot be written: what is wrong and
/// where (`line 7, column 5: …`).
public struct YAMLError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Where the problem is; nil when writing.
    public var mark: YAMLMark?
    /// What is wrong.
    public var message: String

    /// An error at `mark` saying `message`.
    public init(_ message: String, at mark: YAMLMark?) {
        self.mark = mark
        self.message = message
    }

    /// `line 7, column 5: message`, or the message alone.
    public var description: String {
        guard let mark else { return message }
        return "\(mark.description): \(message)"
    }
}
