// SPDX-License-Identifier: MIT
import CXft
import Glibc

/// The last X protocol error, recorded by the handler instead of ending the process.
nonisolated(unsafe) private var lastErrorCode: UInt8 = 0

/// A connection to the X server for the popup: screen facts, monitors, pointer and grabs.
///
/// The corresponding C type is `Display`; the connection closes in `deinit`, which also
/// releases any grab it holds (the server drops a closed client's grabs).
public final class PopupConnection {
    /// The Xlib display (used by the other types of this module only).
    let display: OpaquePointer
    /// The default screen's number.
    let screen: Int32
    /// The root window.
    let root: UInt

    private init(display: OpaquePointer) {
        self.display = display
        screen = XDefaultScreen(display)
        root = XRootWindow(display, screen)
    }

    /// Opens `name` (nil: `$DISPLAY`); throws when there is no X server to talk to.
    ///
    /// The corresponding C function is `XOpenDisplay`.
    public static func open(_ name: String? = nil) throws -> PopupConnection {
        // Xutf8LookupString and the input method follow the locale's character type.
        setlocale(LC_CTYPE, "")
        guard let display = XOpenDisplay(name) else {
            guard let shown = name ?? getenv("DISPLAY").map({ String(cString: $0) }), !shown.isEmpty else {
                throw PopupError("cannot open the X display: DISPLAY is not set")
            }
            throw PopupError("cannot open the X display \"\(shown)\"")
        }
        // The default handler ends the process on any protocol error (an odd glyph, a window
        // gone); the popup would rather draw on.
        XSetErrorHandler { _, event in
            lastErrorCode = event?.pointee.error_code ?? 0
            return 0
        }
        return PopupConnection(display: display)
    }

    deinit { XCloseDisplay(display) }

    /// The descriptor of the connection, to poll beside other sources.
    public var fileDescriptor: Int32 { XConnectionNumber(display) }

    /// The pointer's position on the root window.
    public func pointer() -> (x: Int, y: Int) {
        var rootReturn: UInt = 0
        var child: UInt = 0
        var rootX: Int32 = 0
        var rootY: Int32 = 0
        var winX: Int32 = 0
        var winY: Int32 = 0
        var mask: UInt32 = 0
        XQueryPointer(display, root, &rootReturn, &child, &rootX, &rootY, &winX, &winY, &mask)
        return (Int(rootX), Int(rootY))
    }

    /// The whole screen.
    public var screenRect: PopupRect {
        PopupRect(
            x: 0, y: 0, width: Int(XDisplayWidth(display, screen)),
            height: Int(XDisplayHeight(display, screen)))
    }

    /// The monitor the popup belongs on: the smallest Xinerama head holding the point
    /// (client-defined monitors come beside the full-screen one), else the screen.
    public func monitor(containingX x: Int, y: Int) -> PopupRect {
        var count: Int32 = 0
        guard XineramaIsActive(display) != 0, let heads = XineramaQueryScreens(display, &count) else {
            return screenRect
        }
        defer { XFree(heads) }
        let rects = (0..<Int(count)).map { index in
            PopupRect(
                x: Int(heads[index].x_org), y: Int(heads[index].y_org), width: Int(heads[index].width),
                height: Int(heads[index].height))
        }
        return PopupRect.smallest(containingX: x, y: y, in: rects) ?? screenRect
    }

    /// The `Xft.dpi` resource read when the connection opened, if set; 96 otherwise.
    public var dotsPerInch: Double {
        guard let resources = XResourceManagerString(display) else { return 96 }
        XrmInitialize()
        guard let database = XrmGetStringDatabase(resources) else { return 96 }
        defer { XrmDestroyDatabase(database) }
        var type: UnsafeMutablePointer<CChar>?
        var value = XrmValue()
        guard XrmGetResource(database, "Xft.dpi", "Xft.Dpi", &type, &value) != 0, let address = value.addr,
            let dpi = Double(String(cString: address)), dpi > 0
        else { return 96 }
        return dpi
    }

    /// Grabs the keyboard and the pointer on the root window, retrying for up to a second:
    /// a shortcut daemon holds the keyboard until the key that started us is released.
    ///
    /// The corresponding C functions are `XGrabKeyboard` and `XGrabPointer`.
    public func grabInput() throws {
        let pointerMask = UInt32(ButtonPressMask | ButtonReleaseMask | PointerMotionMask)
        var keyboard = false
        var pointer = false
        for _ in 0..<1000 {
            if !keyboard {
                keyboard =
                    XGrabKeyboard(display, root, True, GrabModeAsync, GrabModeAsync, UInt(CurrentTime))
                    == GrabSuccess
            }
            if !pointer {
                pointer =
                    XGrabPointer(
                        display, root, True, pointerMask, GrabModeAsync, GrabModeAsync, 0, 0,
                        UInt(CurrentTime))
                    == GrabSuccess
            }
            if keyboard && pointer { return }
            usleep(1000)
        }
        ungrabInput()
        throw PopupError(keyboard ? "cannot grab the pointer" : "cannot grab the keyboard")
    }

    /// Releases both grabs and waits until the server has done so (before a paste, whose
    /// keystroke must not come back to us).
    public func ungrabInput() {
        XUngrabPointer(display, UInt(CurrentTime))
        XUngrabKeyboard(display, UInt(CurrentTime))
        XSync(display, False)
    }

    /// Sends what is buffered.
    public func flush() { XFlush(display) }

    /// Whether events are queued or readable without blocking.
    public var hasPendingEvents: Bool { XPending(display) > 0 }
}
