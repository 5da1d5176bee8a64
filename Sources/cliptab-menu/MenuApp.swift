// SPDX-License-Identifier: MIT
import CliptabClient
import DBus
import Glibc
import MenuDriver
import MenuModel
import PopupWindow
import Posix

/// The popup's life: fetch the first level, show it at the pointer with the input grabbed,
/// turn keys into requests to cliptabd, and release the grab on every way out.
final class MenuApp: MenuFrontEnd {
    /// The calls to cliptabd.
    let client: CliptabClient
    /// The [menu] settings.
    let settings: MenuSettings
    /// The levels.
    let session = MenuSession()
    /// Each level's prompt.
    var prompts: [String] = []
    private var connection: PopupConnection!
    private var surface: PopupSurface!
    private var painter: MenuPainter!
    /// The lines of rows the window shows.
    private(set) var visibleRows = 1
    /// On X the daemon pastes wherever the focus is: a refusal of it is reported.
    let copiesWhenPasteRefused = false
    private var message: String?

    /// The display, the font and the colours being opened.
    private let setup: DisplaySetup

    /// A menu over `client` with `settings`, shown on what `display` opens.
    init(client: CliptabClient, settings: MenuSettings, display: DisplaySetup) {
        self.client = client
        self.settings = settings
        setup = display
    }

    /// Shows the menu for `table` (nil: the list of tables) with `filter` already typed, and
    /// returns the exit status.
    func run(table: String?, filter: String = "") -> Int32 {
        // Fetch before grabbing: the grab must never wait on the daemon.
        let first: MenuSession.Screen
        let prompt: String
        do {
            let list: MenuList
            if let table {
                list = MenuList(content: try tableContent(table), visibleRows: settings.rows)
                first = .list(.rows(table: table), list)
                prompt = table
            } else {
                list = MenuList(content: ChoiceContent(try client.tables()), visibleRows: settings.rows)
                first = .list(.tables, list)
                prompt = "tables"
            }
            if !filter.isEmpty { list.setFilter(filter) }
        } catch {
            return report(error)
        }
        let signals: SignalChannel
        do {
            signals = try SignalChannel.make(signals: [SIGTERM, SIGINT, SIGHUP])
            try open(firstCount: firstCount(first))
            push(first, prompt: prompt)
            // The first frame is drawn before the grab (its rows fetched, measured and drawn
            // into the pixmap): the desktop's input is never held while it is made, and the
            // window never shows empty.
            paint()
            // Grabbed on the root window before the window shows: once it is seen, every key
            // comes to the menu.
            try connection.grabInput()
        } catch {
            return report(error)
        }
        surface.map()
        surface.present()
        // Not needed for the first frame, and too costly before it.
        client.watchDaemon()
        let status = loop(signals)
        // Every way out passes here: the grab is released before the process ends.
        connection.ungrabInput()
        surface = nil
        painter = nil
        connection = nil
        return status
    }

    /// The lines of the first level, to size the window for short tables.
    private func firstCount(_ screen: MenuSession.Screen) -> Int {
        if case .list(.rows, let list) = screen { return list.count }
        return settings.rows
    }

    /// Takes the display, the font and the colours from `setup`, and makes the window at the
    /// pointer.
    private func open(firstCount: Int) throws {
        let opened = try setup.wait()
        let connection = opened.connection
        self.connection = connection
        let font = opened.font
        let colors = opened.colors
        let scale = connection.dotsPerInch / 96
        let pointer = connection.pointer()
        let monitor = connection.monitor(containingX: pointer.x, y: pointer.y)
        let layout = MenuLayout(
            settings: settings, textHeight: font.height, digitWidth: font.width(of: "0"),
            padding: max(2, Int((3 * scale).rounded())),
            maximumWidth: monitor.width)
        visibleRows = layout.visibleRows(
            settings: settings, firstCount: firstCount, availableHeight: monitor.height)
        let frame = monitor.place(
            width: layout.width, height: layout.height(visibleRows: visibleRows), atX: pointer.x, y: pointer.y
        )
        surface = try PopupSurface.create(
            on: connection, frame: frame, background: colors[.background], className: "cliptab-menu")
        painter = MenuPainter(surface: surface, font: font, colors: colors, layout: layout)
    }

    private func paint() {
        guard let screen = session.current else { return }
        painter.paint(
            screen, prompt: prompts[min(prompts.count, session.screens.count) - 1], message: message)
    }

    /// Reads events, signals and the bus until the menu closes; returns the exit status.
    private func loop(_ signals: SignalChannel) -> Int32 {
        var lastInput = MonotonicClock.milliseconds()
        // The input method opens once the shown window has had a moment to be drawn (its
        // milliseconds of CPU would otherwise take them from the X server on a small
        // machine), or at the first key, whichever comes first.
        let inputMethodDue = lastInput + MenuApp.inputMethodDelayMilliseconds
        while true {
            // Before the drain: opening it makes round trips, and the events Xlib reads
            // meanwhile wait in its queue, where a poll of the socket would not see them.
            if !surface.isInputMethodStarted && MonotonicClock.milliseconds() >= inputMethodDue {
                surface.startInputMethod()
            }
            var status: Int32?
            var changed = false
            // Drain what is queued, then draw once: a held key on a long table must not queue frames.
            while status == nil && connection.hasPendingEvents {
                (status, changed) = handle(surface.nextEvent(), changed)
                lastInput = MonotonicClock.milliseconds()
            }
            if let status { return status }
            // Signals a blocking call read are seen before waiting.
            if let status = daemonGoneStatus() { return status }
            if changed { paint() }
            var polled = [
                pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: signals.fileDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            // A menu nobody uses gives the keyboard back after a while.
            let idle =
                Int64(Self.idleMilliseconds) - Int64(MonotonicClock.milliseconds() - lastInput)
            guard idle > 0 else { return MenuExit.cancelled }
            var timeout = idle
            if !surface.isInputMethodStarted {
                timeout = min(timeout, max(1, Int64(inputMethodDue) - Int64(MonotonicClock.milliseconds())))
            }
            BusPollTurn.run(
                client.connection.map { [$0] } ?? [], others: &polled,
                timeoutMilliseconds: Int32(clamping: timeout))
            if polled[1].revents != 0, (try? signals.next()) != nil { return MenuExit.signaled }
            if polled[0].revents & Int16(POLLHUP | POLLERR) != 0 { return MenuExit.cancelled }
        }
    }

    /// How long after the window is shown the input method opens, unless a key comes first.
    static let inputMethodDelayMilliseconds: UInt64 = 40

    /// Acts on one event; returns the exit status when the menu must close.
    private func handle(_ event: PopupEvent, _ changed: Bool) -> (Int32?, Bool) {
        switch event {
        case .expose: return (nil, true)
        case .obscured:
            surface.raise()
            return (nil, changed)
        case .other: return (nil, changed)
        case .motion(_, let y):
            guard case .list(_, let list) = session.current, y >= 0 else { return (nil, changed) }
            let before = list.cursor
            list.point(atWindowRow: painter.layout.windowRow(atY: y))
            return (nil, changed || before != list.cursor)
        case .button(let button, let x, let y):
            guard surface.frame.contains(x: x + surface.frame.x, y: y + surface.frame.y) else {
                return (MenuExit.cancelled, changed)
            }
            guard case .list(_, let list) = session.current else { return (nil, changed) }
            switch button {
            case 1, 3:
                guard list.point(atWindowRow: painter.layout.windowRow(atY: y)) else { return (nil, changed) }
                return key(button == 1 ? .enter : .tab)
            case 4: return key(.up)
            case 5: return key(.down)
            default: return (nil, changed)
            }
        case .key(let pressed):
            if message != nil {
                // A message is up: the next key closes it (and the menu).
                return (MenuExit.cancelled, changed)
            }
            return key(pressed)
        }
    }

    /// Releases the grab and hides the window, so the focused window gets keys again.
    func close() {
        connection.ungrabInput()
        surface.unmap()
        connection.ungrabInput()
    }

    /// Shows `text` in place of the prompt for a moment (or until a key), then closes.
    func show(_ text: String, status: Int32) -> Int32 {
        message = text
        surface.map()
        paint()
        var entry = pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN), revents: 0)
        let deadline = MonotonicClock.milliseconds() + 2500
        while MonotonicClock.milliseconds() < deadline {
            while connection.hasPendingEvents {
                if case .key = surface.nextEvent() { return status }
            }
            _ = poll(&entry, 1, 100)
        }
        return status
    }
}
