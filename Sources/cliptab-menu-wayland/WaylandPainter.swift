// SPDX-License-Identifier: MIT
import MenuModel
import PopupText

/// Draws the session's shown level into a frame of the Wayland overlay: transparent
/// everywhere but the menu's box, which holds a prompt line, then the lines in the window.
struct WaylandPainter {
    /// The box on the overlay, in logical pixels.
    var box: (x: Int, y: Int, width: Int, height: Int)
    /// The height of one line, padding included.
    let lineHeight: Int
    /// The space around text.
    let padding: Int
    /// The settings' colours.
    let colors: WaylandColors

    /// Draws `screen` with `prompt` on the first line (or `message` instead) onto `canvas`,
    /// which holds the box alone (its corner at 0, 0; the overlay places it).
    func paint(_ screen: MenuSession.Screen, prompt: String, message: String?, on canvas: TextCanvas) {
        let (left, top, width) = (0, 0, box.width)
        canvas.fill(x: left, y: top, width: width, height: box.height, color: colors.background)
        let textTop = { (line: Int) in top + line * self.lineHeight + self.padding }
        let textWidth = width - 2 * padding
        if let message {
            canvas.fill(x: left, y: top, width: width, height: lineHeight, color: colors.selectedBackground)
            canvas.text(
                message, x: left + padding, y: textTop(0), width: textWidth, color: colors.selectedForeground)
        }
        switch screen {
        case .input(_, let editor):
            if message == nil {
                let head = canvas.text(
                    prompt + ": ", x: left + padding, y: textTop(0), width: textWidth, color: colors.title)
                let start = left + padding + head
                canvas.text(
                    editor.text, x: start, y: textTop(0), width: max(1, left + width - padding - start),
                    color: colors.foreground)
                let caret = start + canvas.width(of: editor.beforeCaret)
                canvas.fill(
                    x: min(caret, left + width - 2), y: top + padding, width: 2, height: canvas.lineHeight,
                    color: colors.foreground)
            }
        case .list(_, let list):
            if message == nil {
                let head = canvas.text(
                    prompt + " › ", x: left + padding, y: textTop(0), width: textWidth, color: colors.title)
                let start = left + padding + head
                let shown = canvas.text(
                    list.filter, x: start, y: textTop(0), width: max(1, left + width - padding - start),
                    color: colors.foreground)
                canvas.fill(
                    x: min(start + shown, left + width - 2), y: top + padding, width: 2,
                    height: canvas.lineHeight, color: colors.foreground)
            }
            if list.count == 0 {
                canvas.text(
                    "(nothing matches)", x: left + padding, y: textTop(1), width: textWidth,
                    color: colors.title)
            }
            for index in list.window {
                paint(
                    list.line(at: index), row: index - list.top + 1, selected: index == list.cursor,
                    on: canvas)
            }
        }
    }

    /// Draws one line of the list at window row `row`.
    private func paint(_ line: MenuLine, row: Int, selected: Bool, on canvas: TextCanvas) {
        let (left, top, width) = (0, 0, box.width)
        let y = top + row * lineHeight
        let textTop = y + padding
        let indent = padding + 2 * canvas.characterWidth
        switch line.kind {
        case .header:
            canvas.text(
                line.text, x: left + padding, y: textTop, width: width - 2 * padding, color: colors.title)
            canvas.fill(
                x: left + padding, y: y + lineHeight - 1, width: width - 2 * padding, height: 1,
                color: colors.title)
        case .footer:
            canvas.text(
                line.text, x: left + indent, y: textTop, width: width - indent - padding, color: colors.title)
        case .choice:
            if selected {
                canvas.fill(x: left, y: y, width: width, height: lineHeight, color: colors.selectedBackground)
            }
            var room = width - indent - padding
            if let name = line.name {
                // Measured cut to a third of the room, then drawn at the right edge.
                let nameWidth = min(
                    canvas.width(of: String(TextCut.prefix(name, characters: 200).text)), room / 3)
                canvas.text(
                    name, x: left + width - padding - nameWidth, y: textTop, width: nameWidth,
                    color: selected ? colors.selectedForeground : colors.title)
                room -= nameWidth + 2 * canvas.characterWidth
            }
            canvas.text(
                line.text, x: left + indent, y: textTop, width: max(1, room),
                color: selected ? colors.selectedForeground : colors.foreground)
        }
    }
}

/// The colours the Wayland painter draws with, from the settings.
struct WaylandColors {
    /// The box's background.
    let background: TextColor
    /// Row text.
    let foreground: TextColor
    /// Titles, names, the prompt.
    let title: TextColor
    /// The chosen row's background.
    let selectedBackground: TextColor
    /// The chosen row's text.
    let selectedForeground: TextColor

    /// The settings' colours; an error names the first that is not `#rrggbb`.
    init(_ settings: MenuSettings) throws(TextError) {
        func color(_ text: String, _ key: String) throws(TextError) -> TextColor {
            guard let color = TextColor(text) else {
                throw TextError("[menu] \(key) is not #rrggbb: \"\(text)\"")
            }
            return color
        }
        background = try color(settings.background, "background")
        foreground = try color(settings.foreground, "foreground")
        title = try color(settings.title, "title")
        selectedBackground = try color(settings.selectedBackground, "selected_background")
        selectedForeground = try color(settings.selectedForeground, "selected_foreground")
    }
}
