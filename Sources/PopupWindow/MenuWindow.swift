// SPDX-License-Identifier: MIT
import MenuModel
import Posix

/// The menu's surface on X11: a window at the pointer, drawn with Xft, that grabs the
/// keyboard and pointer on the root window once its first frame is drawn.
public final class MenuWindow: MenuSurface {
    /// The display, the font and the colours being opened.
    private let setup: DisplaySetup
    /// The [menu] settings.
    private let settings: MenuSettings
    private var connection: PopupConnection?
    private var surface: PopupSurface?
    /// What `open` made: the font, the colours and where everything goes.
    private var drawing: (font: PopupFont, colors: MenuColors, layout: MenuLayout)?
    /// The lines of rows the window shows.
    public private(set) var visibleRows = 1
    /// When the input method opens (`MonotonicClock`): once the shown window has had a moment
    /// to be drawn (its milliseconds of CPU would otherwise take them from the X server on a
    /// small machine), or at the first key, whichever comes first.
    private var inputMethodDue: UInt64 = .max

    /// A window with `settings`, on what `setup` opens.
    public init(settings: MenuSettings, display setup: DisplaySetup) {
        self.settings = settings
        self.setup = setup
    }

    /// Milliseconds until the input method is due to open, nil once it is.
    public var wakeTimeout: Int32? {
        guard let surface, !surface.isInputMethodStarted else { return nil }
        return Int32(clamping: max(1, Int64(inputMethodDue) - Int64(MonotonicClock.milliseconds())))
    }

    /// Takes the display, the font and the colours from the setup, and makes the window at
    /// the pointer.
    public func open(firstCount: Int) throws {
        let opened = try setup.wait()
        let connection = opened.connection
        self.connection = connection
        let font = opened.font
        let scale = connection.dotsPerInch / 96
        let pointer = connection.pointer()
        let monitor = connection.monitor(containingX: pointer.x, y: pointer.y)
        let layout = MenuLayout(
            settings: settings, textHeight: font.height, digitWidth: font.width(of: "0"),
            padding: max(2, Int((3 * scale).rounded())), maximumWidth: monitor.width)
        visibleRows = layout.visibleRows(
            settings: settings, firstCount: firstCount, availableHeight: monitor.height)
        let frame = monitor.place(
            width: layout.width, height: layout.height(visibleRows: visibleRows), atX: pointer.x, y: pointer.y
        )
        let surface = try PopupSurface.create(
            on: connection, frame: frame, background: opened.colors[.background], className: "cliptab-menu")
        self.surface = surface
        drawing = (font, opened.colors, layout)
    }

    /// Grabs the input on the root window before the window shows (once it is seen, every
    /// key comes to the menu), then shows it.
    public func present() throws {
        try connection?.grabInput()
        surface?.map()
        surface?.present()
        inputMethodDue = MonotonicClock.milliseconds() + Self.inputMethodDelayMilliseconds
    }

    /// How long after the window is shown the input method opens, unless a key comes first.
    static let inputMethodDelayMilliseconds: UInt64 = 40

    /// Draws `screen` as the layout lays it out, with Xft.
    public func draw(_ screen: MenuSession.Screen, prompt: String, message: String?) throws {
        guard let surface, let drawing else { return }
        let (font, colors, layout) = drawing
        let height = surface.frame.height
        for drawn in layout.drawings(screen, prompt: prompt, message: message, height: height, metrics: font)
        {
            switch drawn {
            case .fill(let x, let y, let width, let height, let ink):
                surface.fill(x: x, y: y, width: width, height: height, color: colors[ink])
            case .text(let text, let x, let y, let ink):
                surface.text(text, x: x, baseline: y + font.ascent, font: font, color: colors[ink])
            }
        }
        surface.present()
    }

    /// The next queued X event the menu acts on, its position as a row of the layout.
    public func nextEvent() -> MenuEvent? {
        guard let connection, let surface, let layout = drawing?.layout else { return nil }
        // Before the drain: opening it makes round trips, and the events Xlib reads meanwhile
        // wait in its queue, where a poll of the socket would not see them.
        if !surface.isInputMethodStarted && MonotonicClock.milliseconds() >= inputMethodDue {
            surface.startInputMethod()
        }
        while connection.hasPendingEvents {
            switch surface.nextEvent() {
            case .expose: return .redraw
            case .obscured: surface.raise()
            case .other: continue
            case .key(let key): return .key(key)
            case .motion(_, let y):
                guard y >= 0 else { continue }
                return .pointer(row: layout.windowRow(atY: y))
            case .button(let button, let x, let y):
                let inside = surface.frame.contains(x: x + surface.frame.x, y: y + surface.frame.y)
                return .button(button, row: inside ? layout.windowRow(atY: y) : nil)
            }
        }
        return nil
    }

    /// The X connection's descriptor.
    public func prepareToPoll() throws -> Int32 { connection?.fileDescriptor ?? -1 }

    /// Nothing: Xlib reads when events are asked for.
    public func finishPoll(readable: Bool) throws {}

    /// Releases the grab and hides the window, so the focused window gets keys again.
    public func hide() {
        connection?.ungrabInput()
        surface?.unmap()
        connection?.ungrabInput()
    }

    /// Maps the window again.
    public func reveal() throws { surface?.map() }

    /// Releases the grab before the process ends.
    public func close() {
        connection?.ungrabInput()
        drawing = nil
        surface = nil
        connection = nil
    }
}
