// SPDX-License-Identifier: MIT
import MenuModel
import PopupWindow

/// Draws the session's shown level into the popup: a prompt line, then the lines in the window.
final class MenuPainter {
    private let surface: PopupSurface
    private let font: PopupFont
    private let background: PopupColor
    private let foreground: PopupColor
    private let title: PopupColor
    private let selectedBackground: PopupColor
    private let selectedForeground: PopupColor
    /// The height of one line, padding included.
    let lineHeight: Int
    private let padding: Int

    /// A painter for `surface` with the settings' colours; `scale` is dpi / 96.
    init(
        surface: PopupSurface, font: PopupFont, colors: MenuColors, lineHeight: Int, padding: Int
    ) {
        self.surface = surface
        self.font = font
        background = colors.background
        foreground = colors.foreground
        title = colors.title
        selectedBackground = colors.selectedBackground
        selectedForeground = colors.selectedForeground
        self.lineHeight = lineHeight
        self.padding = padding
    }

    /// Draws `screen` with `prompt` on the first line (or `message` instead, when set).
    func paint(_ screen: MenuSession.Screen, prompt: String, message: String?) {
        let width = surface.frame.width
        surface.fill(x: 0, y: 0, width: width, height: surface.frame.height, color: background)
        let baseline = { (line: Int) in line * self.lineHeight + self.padding + self.font.ascent }
        let textWidth = width - 2 * padding
        if let message {
            surface.fill(x: 0, y: 0, width: width, height: lineHeight, color: selectedBackground)
            surface.text(
                font.fit(message, width: textWidth), x: padding, baseline: baseline(0), font: font,
                color: selectedForeground)
        }
        switch screen {
        case .input(_, let editor):
            if message == nil {
                let head = prompt + ": "
                surface.text(
                    font.fit(head, width: textWidth), x: padding, baseline: baseline(0), font: font,
                    color: title)
                let start = padding + font.width(of: head)
                surface.text(
                    font.fit(editor.text, width: width - start - padding), x: start, baseline: baseline(0),
                    font: font, color: foreground)
                let caret = start + font.width(of: editor.beforeCaret)
                surface.fill(
                    x: min(caret, width - 2), y: padding, width: 2, height: font.height, color: foreground)
            }
        case .list(_, let list):
            if message == nil {
                let head = font.fit(prompt, width: textWidth / 2) + " › "
                surface.text(head, x: padding, baseline: baseline(0), font: font, color: title)
                let start = padding + font.width(of: head)
                surface.text(
                    font.fit(list.filter, width: width - start - padding), x: start, baseline: baseline(0),
                    font: font, color: foreground)
                let caret = start + font.width(of: list.filter)
                surface.fill(
                    x: min(caret, width - 2), y: padding, width: 2, height: font.height, color: foreground)
            }
            if list.count == 0 {
                surface.text("(nothing matches)", x: padding, baseline: baseline(1), font: font, color: title)
            }
            for index in list.window {
                paint(list.line(at: index), row: index - list.top + 1, selected: index == list.cursor)
            }
        }
        surface.present()
    }

    /// Draws one line of the list at window row `row`.
    private func paint(_ line: MenuLine, row: Int, selected: Bool) {
        let y = row * lineHeight
        let baseline = y + padding + font.ascent
        let width = surface.frame.width
        switch line.kind {
        case .header:
            surface.text(
                font.fit(line.text, width: width - 2 * padding), x: padding, baseline: baseline, font: font,
                color: title)
            surface.fill(
                x: padding, y: y + lineHeight - 1, width: width - 2 * padding, height: 1, color: title)
        case .footer:
            let indent = padding + font.width(of: "  ")
            surface.text(
                font.fit(line.text, width: width - indent - padding), x: indent, baseline: baseline,
                font: font, color: title)
        case .choice:
            if selected {
                surface.fill(x: 0, y: y, width: width, height: lineHeight, color: selectedBackground)
            }
            let indent = padding + font.width(of: "  ")
            var room = width - indent - padding
            if let name = line.name {
                let shown = font.fit(name, width: room / 3)
                let nameWidth = font.width(of: shown)
                surface.text(
                    shown, x: width - padding - nameWidth, baseline: baseline, font: font,
                    color: selected ? selectedForeground : title)
                room -= nameWidth + font.width(of: "  ")
            }
            surface.text(
                font.fit(line.text, width: room), x: indent, baseline: baseline, font: font,
                color: selected ? selectedForeground : foreground)
        }
    }
}

/// The colours the painter draws with.
struct MenuColors {
    /// The window's background.
    let background: PopupColor
    /// Row text.
    let foreground: PopupColor
    /// Titles, names, the prompt.
    let title: PopupColor
    /// The chosen row's background.
    let selectedBackground: PopupColor
    /// The chosen row's text.
    let selectedForeground: PopupColor

    /// Allocates the settings' colours on `connection`.
    init(_ settings: MenuSettings, on connection: PopupConnection) throws {
        background = try PopupColor.allocate(settings.background, on: connection)
        foreground = try PopupColor.allocate(settings.foreground, on: connection)
        title = try PopupColor.allocate(settings.title, on: connection)
        selectedBackground = try PopupColor.allocate(settings.selectedBackground, on: connection)
        selectedForeground = try PopupColor.allocate(settings.selectedForeground, on: connection)
    }
}
