// SPDX-License-Identifier: MIT
import CXft
import Glibc
import MenuModel

/// The popup's override-redirect window, the pixmap it is drawn into, and its input method.
///
/// Owns the window, the pixmap, the graphics context, the Xft draw and the input method and
/// context (`Window`, `Pixmap`, `GC`, `XftDraw`, `XIM`, `XIC`); all are released in `deinit`.
public final class PopupSurface {
    private let connection: PopupConnection
    private let window: UInt
    private let pixmap: UInt
    private let context: GC
    private let draw: OpaquePointer
    private var inputMethod: XIM?
    private var inputContext: XIC?
    /// True once `startInputMethod()` ran (whether or not an input method opened).
    public private(set) var isInputMethodStarted = false
    /// Where the window is on the root window.
    public let frame: PopupRect

    private init(
        connection: PopupConnection, window: UInt, pixmap: UInt, context: GC, draw: OpaquePointer,
        frame: PopupRect
    ) {
        self.connection = connection
        self.window = window
        self.pixmap = pixmap
        self.context = context
        self.draw = draw
        self.frame = frame
    }

    /// Creates the window at `frame` (not mapped yet).
    ///
    /// It has `background`, is named `className` for WM_CLASS, and is a popup menu that no
    /// window manager frames or moves.
    ///
    /// The corresponding C function is `XCreateWindow`.
    public static func create(
        on connection: PopupConnection, frame: PopupRect, background: PopupColor, className: String
    ) throws -> PopupSurface {
        let display = connection.display
        let screen = connection.screen
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = True
        attributes.background_pixel = background.pixel
        attributes.event_mask =
            ExposureMask | KeyPressMask | VisibilityChangeMask | ButtonPressMask | PointerMotionMask
        let mask = UInt(CWOverrideRedirect | CWBackPixel | CWEventMask)
        let width = UInt32(max(1, frame.width))
        let height = UInt32(max(1, frame.height))
        let depth = XDefaultDepth(display, screen)
        let window = XCreateWindow(
            display, connection.root, Int32(frame.x), Int32(frame.y), width, height, 0, depth,
            UInt32(InputOutput), XDefaultVisual(display, screen), mask, &attributes)
        guard window != 0 else { throw PopupError("cannot create the window") }
        let pixmap = XCreatePixmap(display, window, width, height, UInt32(depth))
        guard let context = XCreateGC(display, window, 0, nil) else {
            XFreePixmap(display, pixmap)
            XDestroyWindow(display, window)
            throw PopupError("cannot create a graphics context")
        }
        guard
            let draw = XftDrawCreate(
                display, pixmap, XDefaultVisual(display, screen), XDefaultColormap(display, screen))
        else {
            XFreeGC(display, context)
            XFreePixmap(display, pixmap)
            XDestroyWindow(display, window)
            throw PopupError("cannot create an Xft draw")
        }
        var hint = XClassHint()
        className.withCString { name in
            hint.res_name = UnsafeMutablePointer(mutating: name)
            hint.res_class = UnsafeMutablePointer(mutating: name)
            XSetClassHint(display, window, &hint)
        }
        XStoreName(display, window, className)
        // Compositors give popup menus their look; override-redirect windows are meant to be it.
        let type = XInternAtom(display, "_NET_WM_WINDOW_TYPE", False)
        var popup = XInternAtom(display, "_NET_WM_WINDOW_TYPE_POPUP_MENU", False)
        withUnsafePointer(to: &popup) { atom in
            atom.withMemoryRebound(to: UInt8.self, capacity: MemoryLayout<UInt>.size) { bytes in
                _ = XChangeProperty(display, window, type, XA_ATOM, 32, PropModeReplace, bytes, 1)
            }
        }
        return PopupSurface(
            connection: connection, window: window, pixmap: pixmap, context: context, draw: draw,
            frame: frame)
    }

    deinit {
        let display = connection.display
        if let inputContext { XDestroyIC(inputContext) }
        if let inputMethod { XCloseIM(inputMethod) }
        XftDrawDestroy(draw)
        XFreeGC(display, context)
        XFreePixmap(display, pixmap)
        XDestroyWindow(display, window)
        XFlush(display)
    }

    /// Shows the window above the others.
    public func map() {
        XMapRaised(connection.display, window)
    }

    /// Hides the window (before a paste, so the focused window is seen again).
    public func unmap() {
        XUnmapWindow(connection.display, window)
    }

    /// Raises the window again (when another one covers it).
    public func raise() { XRaiseWindow(connection.display, window) }

    /// Fills a rectangle of the pixmap.
    public func fill(x: Int, y: Int, width: Int, height: Int, color: PopupColor) {
        XSetForeground(connection.display, context, color.pixel)
        XFillRectangle(
            connection.display, pixmap, context, Int32(x), Int32(y), UInt32(max(0, width)),
            UInt32(max(0, height)))
    }

    /// Draws `text` with its baseline at `baseline`, starting at `x`.
    public func text(_ text: String, x: Int, baseline: Int, font: PopupFont, color: PopupColor) {
        var x = x
        // Characters the font lacks are drawn with fallback fonts, run by run.
        for run in font.runs(text) {
            var bytes = Array(run.text.utf8)
            XftDrawStringUtf8(
                draw, &color.color, run.font, Int32(x), Int32(baseline), &bytes, Int32(bytes.count))
            x += font.width(of: run.text)
        }
    }

    /// Copies the pixmap to the window and sends it.
    public func present() {
        XCopyArea(
            connection.display, pixmap, window, context, 0, 0, UInt32(frame.width), UInt32(frame.height), 0, 0
        )
        XFlush(connection.display)
    }

    /// Opens the input method (for dead keys and compose), once: called after the first frame
    /// is shown, and by `nextEvent()` at the first key if it was not yet, because under a
    /// UTF-8 locale opening it (libX11 reads the locale's whole Compose file) costs as much
    /// CPU as everything else at start.
    ///
    /// Without an input method, keys are still read (as Latin-1).
    public func startInputMethod() {
        guard !isInputMethodStarted else { return }
        isInputMethodStarted = true
        let display = connection.display
        for modifiers in ["", "@im=local", "@im="] {
            XSetLocaleModifiers(modifiers)
            if let method = XOpenIM(display, nil, nil, nil) {
                inputMethod = method
                break
            }
        }
        guard let inputMethod else { return }
        inputContext = CXft_createInputContext(inputMethod, window)
    }

    /// Waits for and reads the next event.
    public func nextEvent() -> PopupEvent {
        var event = XEvent()
        XNextEvent(connection.display, &event)
        // The input context filters a key that came before it was made as any other.
        if event.type == KeyPress { startInputMethod() }
        // Compose sequences and dead keys are consumed by the input method.
        if XFilterEvent(&event, 0) != 0 { return .other }
        switch event.type {
        case Expose:
            return event.xexpose.count == 0 ? .expose : .other
        case VisibilityNotify:
            return event.xvisibility.state != VisibilityUnobscured ? .obscured : .other
        case KeyPress:
            return key(&event.xkey).map { .key($0) } ?? .other
        case MotionNotify:
            return .motion(x: Int(event.xmotion.x_root) - frame.x, y: Int(event.xmotion.y_root) - frame.y)
        case ButtonPress:
            return .button(
                Int(event.xbutton.button), x: Int(event.xbutton.x_root) - frame.x,
                y: Int(event.xbutton.y_root) - frame.y)
        default:
            return .other
        }
    }

    /// The key of a key press, with the text it types.
    private func key(_ event: inout XKeyEvent) -> MenuKey? {
        var buffer = [CChar](repeating: 0, count: 64)
        var keysym: KeySym = 0
        var length: Int32
        if let inputContext {
            var status: Int32 = 0
            length = Xutf8LookupString(
                inputContext, &event, &buffer, Int32(buffer.count - 1), &keysym, &status)
            if status == XBufferOverflow {
                buffer = [CChar](repeating: 0, count: Int(length) + 1)
                length = Xutf8LookupString(inputContext, &event, &buffer, length, &keysym, &status)
            }
            if status == XLookupNone { return nil }
        } else {
            length = XLookupString(&event, &buffer, Int32(buffer.count - 1), &keysym, nil)
            // Latin-1 bytes without an input method: re-encode them as UTF-8.
            let latin = buffer[..<Int(max(0, length))].map {
                Character(Unicode.Scalar(UInt8(bitPattern: $0)))
            }
            let text = String(latin)
            buffer = Array(text.utf8CString)
            length = Int32(text.utf8.count)
        }
        switch Int32(keysym) {
        case XK_Up, XK_KP_Up: return .up
        case XK_Down, XK_KP_Down: return .down
        case XK_Prior, XK_KP_Prior: return .pageUp
        case XK_Next, XK_KP_Next: return .pageDown
        case XK_Home, XK_KP_Home: return .home
        case XK_End, XK_KP_End: return .end
        case XK_Return, XK_KP_Enter: return .enter
        case XK_Escape: return .escape
        case XK_Tab, XK_ISO_Left_Tab: return .tab
        case XK_Right, XK_KP_Right: return .right
        case XK_Left, XK_KP_Left: return .left
        case XK_BackSpace: return .backspace
        case XK_Delete, XK_KP_Delete: return .delete
        default: break
        }
        // Ctrl chords type nothing here.
        if event.state & UInt32(ControlMask) != 0 { return nil }
        guard length > 0 else { return nil }
        let bytes = buffer[..<Int(length)].map { UInt8(bitPattern: $0) }
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.unicodeScalars.allSatisfy({ $0.value >= 32 && $0.value != 127 }) else { return nil }
        return .text(text)
    }
}
