// SPDX-License-Identifier: MIT
import CXft

/// A colour allocated for drawing text and rectangles.
///
/// The corresponding C type is `XftColor`; it is freed in `deinit`.
public final class PopupColor {
    let connection: PopupConnection
    var color = XftColor()

    private init(connection: PopupConnection) { self.connection = connection }

    /// Allocates `name` (`#rrggbb` or an X colour name); throws for a name X does not know.
    ///
    /// The corresponding C function is `XftColorAllocName`.
    public static func allocate(_ name: String, on connection: PopupConnection) throws -> PopupColor {
        let made = PopupColor(connection: connection)
        let display = connection.display
        let screen = connection.screen
        guard
            XftColorAllocName(
                display, XDefaultVisual(display, screen), XDefaultColormap(display, screen), name, &made.color
            ) != 0
        else {
            throw PopupError("cannot allocate the colour \"\(name)\"")
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
