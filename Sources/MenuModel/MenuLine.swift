// SPDX-License-Identifier: MIT

/// What a line of the menu is: a title that cannot be chosen, or something to choose.
public enum MenuLineKind: Equatable, Sendable {
    /// A section's header title.
    case header
    /// A section's footer title.
    case footer
    /// A row, a table, an action or a destination: something Enter chooses.
    case choice
}

/// One line of the menu as the model hands it to the drawing.
public struct MenuLine: Equatable, Sendable {
    /// What the line is.
    public var kind: MenuLineKind
    /// The text shown: for rows, the first line of the cell with a mark when there is more.
    public var text: String
    /// The row's name, if it has one (shown beside the text, and matched by the filter).
    public var name: String?
    /// The section the line belongs to (0 on levels without sections).
    public var section: Int
    /// The row's index in its section, or the choice's index on other levels.
    public var row: Int
    /// The row's id (0 for lines that are not rows).
    public var id: UInt64

    /// Makes a line.
    public init(
        kind: MenuLineKind, text: String, name: String? = nil, section: Int = 0, row: Int = 0, id: UInt64 = 0
    ) {
        self.kind = kind
        self.text = text
        self.name = name
        self.section = section
        self.row = row
        self.id = id
    }

    /// What a row of a secret table shows in place of its text (its name shows beside it);
    /// always the same length, so it says nothing of the text.
    public static let secretMask = "••••••••"

    /// The mark put after the first line of a multi-line text.
    public static let moreLinesMark = "⏎"

    /// A cell's text as one line: the first line, with ` ⏎` when more lines follow, and
    /// control characters (tabs) shown as spaces.
    public static func oneLine(_ text: String) -> String {
        var first = Substring(text)
        var more = false
        if let newline = text.firstIndex(where: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            first = text[..<newline]
            more = text[text.index(after: newline)...].contains { !$0.isWhitespace }
        }
        var shown = String(first.map { $0.isASCII && ($0.asciiValue ?? 32) < 32 ? " " : $0 })
        if more { shown += " " + moreLinesMark }
        return shown
    }
}
