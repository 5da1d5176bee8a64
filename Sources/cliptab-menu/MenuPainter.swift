// SPDX-License-Identifier: MIT
import MenuModel
import PopupWindow

/// Draws the shown level into the popup as `MenuLayout` lays it out: the layout decides what
/// goes where, this only draws it with Xft.
final class MenuPainter {
    private let surface: PopupSurface
    private let font: PopupFont
    private let colors: MenuColors
    /// Where everything goes.
    let layout: MenuLayout

    /// A painter for `surface` with the settings' colours.
    init(surface: PopupSurface, font: PopupFont, colors: MenuColors, layout: MenuLayout) {
        self.surface = surface
        self.font = font
        self.colors = colors
        self.layout = layout
    }

    /// Draws `screen` with `prompt` on the first line (or `message` instead, when set).
    func paint(_ screen: MenuSession.Screen, prompt: String, message: String?) {
        let drawings = layout.drawings(
            screen, prompt: prompt, message: message, height: surface.frame.height, metrics: font)
        for drawing in drawings {
            switch drawing {
            case .fill(let x, let y, let width, let height, let ink):
                surface.fill(x: x, y: y, width: width, height: height, color: colors[ink])
            case .text(let text, let x, let y, let ink):
                surface.text(text, x: x, baseline: y + font.ascent, font: font, color: colors[ink])
            }
        }
        surface.present()
    }
}

/// The settings' colours allocated on the display, one for each ink.
struct MenuColors {
    private let colors: [PopupColor]

    /// Allocates the settings' colours on `connection`.
    init(_ settings: MenuSettings, on connection: PopupConnection) throws {
        colors = try MenuInk.allCases.map { try PopupColor.allocate(settings.color(of: $0), on: connection) }
    }

    /// The colour of `ink`.
    subscript(ink: MenuInk) -> PopupColor {
        colors[MenuInk.allCases.firstIndex(of: ink) ?? 0]
    }
}
