// SPDX-License-Identifier: MIT

/// Which of the settings' colours something is drawn in.
public enum MenuInk: Equatable, Sendable, CaseIterable {
    /// The box's background.
    case background
    /// Row text and the text typed.
    case foreground
    /// Headers, footers, names and the prompt.
    case title
    /// The chosen row's (and a message's) background.
    case selectedBackground
    /// The chosen row's (and a message's) text.
    case selectedForeground
}

/// One thing to draw in the menu's box, in the box's pixels (its corner at 0, 0).
public enum MenuDrawing: Equatable, Sendable {
    /// A filled rectangle.
    case fill(x: Int, y: Int, width: Int, height: Int, ink: MenuInk)
    /// A line of text, already cut to fit, with its top (not its baseline) at `y`.
    case text(String, x: Int, y: Int, ink: MenuInk)
}

/// The menu's box laid out once for both popups: its size from the settings and the font,
/// and the shown level turned into `MenuDrawing`s that each surface only draws.
///
/// Line 0 is the prompt (or a message); the list's window fills the lines below it.
public struct MenuLayout: Equatable, Sendable {
    /// The box's width.
    public let width: Int
    /// The space around text, in a line and at the box's sides.
    public let padding: Int
    /// A line's height: the text's and padding above and below.
    public let lineHeight: Int

    /// The mark put where text is cut.
    public static let ellipsis = "…"

    /// The layout of a box `settings.width` digits wide (at most `maximumWidth`) in a font of
    /// lines `textHeight` high and digits `digitWidth` wide, with `padding` around text.
    public init(
        settings: MenuSettings, textHeight: Int, digitWidth: Int, padding: Int, maximumWidth: Int = .max
    ) {
        self.padding = padding
        width = min(maximumWidth, digitWidth * settings.width + 2 * padding)
        lineHeight = textHeight + 2 * padding
    }

    /// The lines of rows shown: the settings' `rows`, fewer for a short first level (at least
    /// 3), and no more than a box `availableHeight` high holds under its prompt.
    public func visibleRows(settings: MenuSettings, firstCount: Int, availableHeight: Int) -> Int {
        max(1, min(settings.rows, max(firstCount, 3), availableHeight / lineHeight - 1))
    }

    /// The box's height for `visibleRows` lines of rows under the prompt.
    public func height(visibleRows: Int) -> Int { (visibleRows + 1) * lineHeight }

    /// The row of the list's window at `y` in the box (-1: the prompt line).
    public func windowRow(atY y: Int) -> Int { y / lineHeight - 1 }

    /// What to draw for `screen` in a box `height` high, with `prompt` on the first line (or
    /// `message` instead, when set).
    public func drawings(
        _ screen: MenuSession.Screen, prompt: String, message: String?, height: Int, metrics: some MenuMetrics
    ) -> [MenuDrawing] {
        var drawn: [MenuDrawing] = [.fill(x: 0, y: 0, width: width, height: height, ink: .background)]
        let textWidth = width - 2 * padding
        if let message {
            drawn.append(.fill(x: 0, y: 0, width: width, height: lineHeight, ink: .selectedBackground))
            drawn.append(
                .text(metrics.cut(message, to: textWidth), x: padding, y: padding, ink: .selectedForeground))
        }
        switch screen {
        case .input(_, let editor):
            if message == nil {
                promptLine(prompt, mark: ": ", field: editor.text, caret: editor.beforeCaret, metrics, &drawn)
            }
        case .list(_, let list):
            if message == nil {
                promptLine(prompt, mark: " › ", field: list.filter, caret: list.filter, metrics, &drawn)
            }
            if list.count == 0 {
                drawn.append(
                    .text(
                        metrics.cut("(nothing matches)", to: textWidth), x: padding, y: lineHeight + padding,
                        ink: .title))
            }
            for index in list.window {
                line(
                    list.line(at: index), row: index - list.top + 1, selected: index == list.cursor, metrics,
                    &drawn)
            }
        }
        return drawn
    }

    /// The prompt line: `prompt` (cut to half the line) and `mark`, the `field` typed after
    /// them and a caret after `caret`, a prefix of the field.
    private func promptLine(
        _ prompt: String, mark: String, field: String, caret: String, _ metrics: some MenuMetrics,
        _ drawn: inout [MenuDrawing]
    ) {
        let shownHead = metrics.cut(prompt, to: (width - 2 * padding) / 2) + mark
        drawn.append(.text(shownHead, x: padding, y: padding, ink: .title))
        let start = padding + metrics.width(of: shownHead)
        let room = max(0, width - start - padding)
        drawn.append(.text(metrics.cut(field, to: room), x: start, y: padding, ink: .foreground))
        // Measured only as far as the field shows: a caret past the cut stands at its end.
        let before = metrics.prefix(of: caret, fitting: room)
        let caretX = before.endIndex == caret.endIndex ? start + metrics.width(of: caret) : start + room
        drawn.append(
            .fill(
                x: min(caretX, width - 2), y: padding, width: 2, height: metrics.textHeight, ink: .foreground)
        )
    }

    /// One line of the list at window row `row` (1: under the prompt).
    private func line(
        _ line: MenuLine, row: Int, selected: Bool, _ metrics: some MenuMetrics, _ drawn: inout [MenuDrawing]
    ) {
        let y = row * lineHeight
        let top = y + padding
        let indent = padding + metrics.width(of: "  ")
        switch line.kind {
        case .header:
            drawn.append(
                .text(metrics.cut(line.text, to: width - 2 * padding), x: padding, y: top, ink: .title))
            drawn.append(
                .fill(x: padding, y: y + lineHeight - 1, width: width - 2 * padding, height: 1, ink: .title))
        case .footer:
            drawn.append(
                .text(metrics.cut(line.text, to: width - indent - padding), x: indent, y: top, ink: .title))
        case .choice:
            if selected {
                drawn.append(.fill(x: 0, y: y, width: width, height: lineHeight, ink: .selectedBackground))
            }
            var room = width - indent - padding
            if let name = line.name {
                // A name takes at most a third of the line, at its right end.
                let shown = metrics.cut(name, to: room / 3)
                let nameWidth = metrics.width(of: shown)
                drawn.append(
                    .text(
                        shown, x: width - padding - nameWidth, y: top,
                        ink: selected ? .selectedForeground : .title))
                room -= nameWidth + metrics.width(of: "  ")
            }
            drawn.append(
                .text(
                    metrics.cut(line.text, to: room), x: indent, y: top,
                    ink: selected ? .selectedForeground : .foreground))
        }
    }
}
