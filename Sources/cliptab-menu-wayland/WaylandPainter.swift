// SPDX-License-Identifier: MIT
import MenuModel
import PopupText

/// Draws the shown level into a frame of the Wayland overlay as `MenuLayout` lays it out:
/// transparent everywhere but the menu's box; the layout decides what goes where in the box,
/// this only draws it with pango and cairo.
struct WaylandPainter {
    /// The box on the overlay, in logical pixels.
    var box: (x: Int, y: Int, width: Int, height: Int)
    /// Where everything in the box goes.
    let layout: MenuLayout
    /// The settings' colours.
    let settings: MenuSettings

    /// Draws `screen` with `prompt` on the first line (or `message` instead) onto `canvas`,
    /// which holds the box alone (its corner at 0, 0; the overlay places it).
    func paint(_ screen: MenuSession.Screen, prompt: String, message: String?, on canvas: TextCanvas) {
        let drawings = layout.drawings(
            screen, prompt: prompt, message: message, height: box.height, metrics: canvas)
        for drawing in drawings {
            switch drawing {
            case .fill(let x, let y, let width, let height, let ink):
                canvas.fill(x: x, y: y, width: width, height: height, color: color(ink))
            case .text(let text, let x, let y, let ink):
                // Already cut by the layout: drawn whole.
                canvas.text(text, x: x, y: y, color: color(ink))
            }
        }
    }

    private func color(_ ink: MenuInk) -> TextColor { TextColor(settings.color(of: ink)) }
}
