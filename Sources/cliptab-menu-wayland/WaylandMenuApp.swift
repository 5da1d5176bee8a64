// SPDX-License-Identifier: MIT
import CliptabClient
import DBus
import Glibc
import MenuDriver
import MenuModel
import PopupText
import PopupWayland
import Posix

/// The popup's life on a Wayland compositor with layer-shell.
///
/// Fetch the first level, show it on an overlay that holds the keyboard, at the pointer when
/// the compositor says where that is (else centred), turn keys into requests to cliptabd, and
/// remove the overlay on every way out. One poll() loop over the compositor, the signals and
/// the bus.
final class WaylandMenuApp: MenuFrontEnd {
    /// The calls to cliptabd.
    let client: CliptabClient
    /// The [menu] settings.
    let settings: MenuSettings
    /// The compositor and the overlay.
    let popup: LayerPopup
    /// The levels.
    let session = MenuSession()
    /// Each level's prompt.
    var prompts: [String] = []
    private var painter: WaylandPainter?
    private var placedAtPointer = false
    /// The lines of rows the box shows.
    var visibleRows = 1
    /// A compositor may give the daemon no way to paste (no focus it can reach): copy then.
    let copiesWhenPasteRefused = true
    private var firstCount = 1
    /// The message shown in place of the prompt before the menu closes.
    var message: String?
    /// UTF-8 bytes the text renderer shaped, over every frame.
    var shapedBytes = 0
    /// Frames drawn.
    var frames = 0

    /// The font being readied, until the first frame takes it.
    private let preparedFont: TextFont.Preparation

    /// A menu over `client` with `settings`, drawn on `popup`'s compositor in `font`.
    init(client: CliptabClient, settings: MenuSettings, popup: LayerPopup, font: TextFont.Preparation) {
        self.client = client
        self.settings = settings
        self.popup = popup
        self.preparedFont = font
    }

    /// Shows the menu for `table` (nil: the list of tables) with `filter` already typed, and
    /// returns the exit status.
    func run(table: String?, filter: String = "") -> Int32 {
        let first: MenuSession.Screen
        let prompt: String
        do {
            // Fetch before the overlay takes the keyboard: it must never wait on the daemon.
            let list: MenuList
            if let table {
                list = MenuList(content: try tableContent(table), visibleRows: settings.rows)
                first = .list(.rows(table: table), list)
                prompt = table
                firstCount = list.count
            } else {
                list = MenuList(content: ChoiceContent(try client.tables()), visibleRows: settings.rows)
                first = .list(.tables, list)
                prompt = "tables"
                firstCount = settings.rows
            }
            if !filter.isEmpty { list.setFilter(filter) }
            // The first screenful's rows too (rows come in pages, fetched when first read):
            // the first frame then waits on nothing but the font.
            for index in list.window { _ = list.line(at: index) }
        } catch {
            return report(error)
        }
        let signals: SignalChannel
        do {
            signals = try SignalChannel.make(signals: [SIGTERM, SIGINT, SIGHUP])
            try popup.show(namespace: "cliptab-menu")
            session.push(first)
            prompts.append(prompt)
            try paint()
        } catch {
            try? popup.hide()
            return report(error)
        }
        // Neither is needed for the first frame: the keymap and compose table, the bus watch.
        popup.loadInput()
        client.watchDaemon()
        let status = loop(signals)
        // Every way out passes here: the overlay, and with it the keyboard, goes first.
        try? popup.hide()
        writeStatistics()
        return status
    }

    /// Places the box: at `pointer` (clamped to the overlay), else centred.
    private func layout(_ font: TextFont.Measures, pointer: (x: Int, y: Int)?) -> WaylandPainter {
        let (width, height, _) = popup.size
        let layout = MenuLayout(
            settings: settings, textHeight: font.lineHeight, digitWidth: font.digitWidth, padding: 3,
            maximumWidth: width)
        visibleRows = layout.visibleRows(settings: settings, firstCount: firstCount, availableHeight: height)
        let boxWidth = layout.width
        let boxHeight = min(height, layout.height(visibleRows: visibleRows))
        var x = (width - boxWidth) / 2
        var y = (height - boxHeight) / 3
        if let pointer {
            // Open right and down from the pointer, or left and up where there is no room.
            x = pointer.x + boxWidth <= width ? pointer.x : max(0, pointer.x - boxWidth)
            y = pointer.y + boxHeight <= height ? pointer.y : max(0, pointer.y - boxHeight)
        }
        for screen in session.screens {
            if case .list(_, let list) = screen { list.visibleRows = visibleRows }
        }
        return WaylandPainter(box: (x, y, boxWidth, boxHeight), layout: layout, settings: settings)
    }

    /// Draws the shown level into a new frame.
    func paint() throws {
        guard let screen = session.current else { return }
        let painter = try self.painter ?? layout(preparedFont.measures(), pointer: pointerOrigin)
        self.painter = painter
        let box = painter.box
        try popup.frame(width: box.width, height: box.height, x: box.x, y: box.y) {
            pixels, width, height, stride, fresh in
            // A new buffer's pages are the kernel's until first written (some hundred faults
            // for a box): written now, while the font's glyphs may still be rasterised on the
            // helper, rather than when the box is filled.
            if fresh { memset(pixels, 0, stride * height) }
            let font = try preparedFont.wait()
            let canvas = try TextCanvas(
                pixels: pixels, width: width, height: height, stride: stride, scale: popup.size.scale,
                font: font)
            if !fresh { canvas.clear() }
            painter.paint(
                screen, prompt: prompts[min(prompts.count, session.screens.count) - 1], message: message,
                on: canvas)
            shapedBytes += canvas.shapedBytes
        }
        frames += 1
    }

    /// Reads the compositor, signals and the bus until the menu closes; returns the status.
    private func loop(_ signals: SignalChannel) -> Int32 {
        var lastInput = MonotonicClock.milliseconds()
        while true {
            var status: Int32?
            var changed = false
            // Take what is queued, then draw once: a held key must not queue frames.
            while status == nil, let event = popup.nextEvent() {
                (status, changed) = handle(event, changed)
                lastInput = MonotonicClock.milliseconds()
            }
            if let status { return status }
            // Signals a blocking call read are seen before waiting.
            if let status = daemonGoneStatus() { return status }
            do {
                if changed { try paint() }
                let fd = try popup.prepareToPoll()
                var polled =
                    [
                        pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                        pollfd(fd: signals.fileDescriptor, events: Int16(POLLIN), revents: 0),
                    ]
                // A menu nobody uses gives the keyboard back after a while.
                let idle =
                    Int64(Self.idleMilliseconds) - Int64(MonotonicClock.milliseconds() - lastInput)
                guard idle > 0 else {
                    try popup.finishPoll(readable: false)
                    return MenuExit.cancelled
                }
                let timeout = min(Int32(clamping: idle), popup.repeatTimeout ?? Int32.max)
                BusPollTurn.run(
                    client.connection.map { [$0] } ?? [], others: &polled, timeoutMilliseconds: timeout)
                try popup.finishPoll(readable: polled[0].revents & Int16(POLLIN) != 0)
                if polled[1].revents != 0, (try? signals.next()) != nil { return MenuExit.signaled }
                if polled[0].revents & Int16(POLLHUP | POLLERR) != 0 { return MenuExit.cancelled }
            } catch {
                printError("cliptab menu: \(error)\n")
                return MenuExit.cancelled
            }
        }
    }

    /// The window row (0: the prompt) at overlay point `y`, or nil outside the box.
    private func row(x: Int, y: Int) -> Int? {
        guard let painter else { return nil }
        let box = painter.box
        guard x >= box.x, x < box.x + box.width, y >= box.y, y < box.y + box.height else { return nil }
        return painter.layout.windowRow(atY: y - box.y) + 1
    }

    /// Acts on one event; returns the exit status when the menu must close.
    private func handle(_ event: LayerPopupEvent, _ changed: Bool) -> (Int32?, Bool) {
        switch event {
        case .redraw:
            painter = nil
            return (nil, true)
        case .closed:
            return (MenuExit.cancelled, changed)
        case .pointer(let x, let y):
            if !placedAtPointer {
                // The compositor said where the pointer is: the box opens there, once.
                placedAtPointer = true
                painter = nil
                pointerOrigin = (x, y)
                return (nil, true)
            }
            guard case .list(_, let list) = session.current, let row = row(x: x, y: y) else {
                return (nil, changed)
            }
            let before = list.cursor
            list.point(atWindowRow: row - 1)
            return (nil, changed || before != list.cursor)
        case .button(let button, let x, let y):
            guard let row = row(x: x, y: y) else { return (MenuExit.cancelled, changed) }
            guard case .list(_, let list) = session.current else { return (nil, changed) }
            guard button == 1 || button == 3, list.point(atWindowRow: row - 1) else { return (nil, changed) }
            return key(button == 1 ? .enter : .tab)
        case .scroll(let step):
            return key(step < 0 ? .up : .down)
        case .key(let keysym, let text, let control):
            if message != nil { return (MenuExit.cancelled, changed) }
            guard let pressed = WaylandKeys.key(keysym: keysym, text: text, control: control) else {
                return (nil, changed)
            }
            return key(pressed)
        }
    }

    /// Where the pointer entered the overlay, once it has.
    private var pointerOrigin: (x: Int, y: Int)? {
        didSet { painter = nil }
    }
}
