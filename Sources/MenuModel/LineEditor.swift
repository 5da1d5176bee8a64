// SPDX-License-Identifier: MIT

/// A one-line text input: the text and the caret, edited by keys.
public struct LineEditor: Equatable, Sendable {
    /// The text as characters (the caret moves by user-perceived characters).
    private var characters: [Character]
    /// Where the caret is: the number of characters before it.
    public private(set) var caret: Int

    /// Starts with `text`, the caret at its end.
    public init(_ text: String = "") {
        characters = Array(text)
        caret = characters.count
    }

    /// The text.
    public var text: String { String(characters) }

    /// The text before the caret (for placing the caret when drawing).
    public var beforeCaret: String { String(characters[..<caret]) }

    /// Inserts `typed` at the caret.
    public mutating func insert(_ typed: String) {
        let added = Array(typed)
        characters.insert(contentsOf: added, at: caret)
        caret += added.count
    }

    /// Deletes the character before the caret.
    public mutating func deleteBackward() {
        guard caret > 0 else { return }
        caret -= 1
        characters.remove(at: caret)
    }

    /// Deletes the character after the caret.
    public mutating func deleteForward() {
        guard caret < characters.count else { return }
        characters.remove(at: caret)
    }

    /// Moves the caret one character left.
    public mutating func left() { caret = max(0, caret - 1) }
    /// Moves the caret one character right.
    public mutating func right() { caret = min(characters.count, caret + 1) }
    /// Moves the caret to the start.
    public mutating func home() { caret = 0 }
    /// Moves the caret to the end.
    public mutating func end() { caret = characters.count }
}
