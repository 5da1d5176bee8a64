// SPDX-License-Identifier: MIT
import CliptabContract

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
    public static let secretMask = CliptabContract.secretMask

    /// The mark put after the first line of a multi-line text.
    public static let moreLinesMark = "⏎"

    /// The most characters of a line kept for showing: more than a popup of the widest
    /// setting (200 digit widths) can show, so that a row of megabytes is cut before it is
    /// measured or drawn.
    public static let shownLimit = 1024

    /// How far past the first line's end a non-blank character is looked for (to decide on
    /// the ` ⏎` mark): a cell of megabytes of blanks after its first line gets the mark.
    static let moreLookahead = 4096

    /// A cell's text as one line: the first line, with ` ⏎` when more lines follow, and
    /// control characters (tabs) shown as spaces, cut to `shownLimit` characters (then "…").
    ///
    /// Reads at most `shownLimit` + `moreLookahead` characters of the text, whatever its length.
    public static func oneLine(_ text: String) -> String {
        let scalars = text.unicodeScalars
        var shown = String.UnicodeScalarView()
        var index = scalars.startIndex
        var cut = false
        // Counted here: the view's own count walks the whole view.
        var kept = 0
        while index != scalars.endIndex {
            let scalar = scalars[index]
            if scalar == "\n" || scalar == "\r" { break }
            if kept == shownLimit {
                cut = true
                break
            }
            kept += 1
            shown.append(scalar.value < 32 ? " " : scalar)
            scalars.formIndex(after: &index)
        }
        var more = false
        if !cut && index != scalars.endIndex {
            scalars.formIndex(after: &index)
            var looked = 0
            while index != scalars.endIndex {
                if !scalars[index].properties.isWhitespace || looked == moreLookahead {
                    more = true
                    break
                }
                looked += 1
                scalars.formIndex(after: &index)
            }
        }
        var line = String(shown)
        if cut { line += "…" }
        if more { line += " " + moreLinesMark }
        return line
    }
}
