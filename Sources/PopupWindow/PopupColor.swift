// SPDX-License-Identifier: MIT
import CXft
import MenuModel

/// A colour allocated for drawing text and rectangles.
///
/// The corresponding C type is `XftColor`; it is freed in `deinit`.
public final class PopupColor {
    let connection: PopupConnection
    var color = XftColor()

    private init(connection: PopupConnection) { self.connection = connection }

    /// Allocates `color` (read from the settings by `MenuColor`, as the Wayland popup reads it).
    ///
    /// The corresponding C function is `XftColorAllocValue`.
    public static func allocate(_ color: MenuColor, on connection: PopupConnection) throws -> PopupColor {
        let made = PopupColor(connection: connection)
        let display = connection.display
        let screen = connection.screen
        // 8 bits a component to X's 16 (0xff to 0xffff), opaque.
        var value = XRenderColor(
            red: UInt16(color.red) * 257, green: UInt16(color.green) * 257, blue: UInt16(color.blue) * 257,
            alpha: 0xffff)
        guard
            XftColorAllocValue(
                display, XDefaultVisual(display, screen), XDefaultColormap(display, screen), &value,
                &made.color
            ) != 0
        else {
            throw PopupError("cannot allocate the colour \(color.hexadecimal)")
        }
        return made
    }

    deinit {
        let display = connection.display
        let screen = connection.screen
        XftColorFree(display, XDefaultVisual(display, screen), XDefaultColormap(display, screen), &color)
    }

    /// The pixel value for core drawing.
    var pixel: UInt { color.pixel }
}
