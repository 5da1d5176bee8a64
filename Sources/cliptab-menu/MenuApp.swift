// SPDX-License-Identifier: MIT
import DBus
import Glibc
import MenuModel
import PopupWindow
import Posix

/// How the menu ended, as its exit status.
enum MenuExit {
    /// A choice was carried out.
    static let done: Int32 = 0
    /// Escape, a click outside, or the daemon refused.
    static let cancelled: Int32 = 1
    /// Wrong arguments.
    static let usage: Int32 = 2
    /// cliptabd or the bus is not there.
    static let unavailable: Int32 = 69
    /// Ended by a signal (SIGTERM, SIGINT, SIGHUP).
    static let signaled: Int32 = 143
}

/// The popup's life: fetch the first level, show it at the pointer with the input grabbed,
/// turn keys into requests to cliptabd, and release the grab on every way out.
final class MenuApp {
    private let link: DaemonLink
    private let settings: MenuSettings
    private let session = MenuSession()
    private var prompts: [String] = []
    private var connection: PopupConnection!
    private var surface: PopupSurface!
    private var painter: MenuPainter!
    private var visibleRows = 1
    private var message: String?

    /// A menu over `link` with `settings`.
    init(link: DaemonLink, settings: MenuSettings) {
        self.link = link
        self.settings = settings
    }

    /// Shows the menu for `table` (nil: the list of tables) with `filter` already typed, and
    /// returns the exit status.
    func run(table: String?, filter: String = "") -> Int32 {
        let setup = DisplaySetup.start(settings)
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
                list = MenuList(content: ChoiceContent(try link.tables()), visibleRows: settings.rows)
                first = .list(.tables, list)
                prompt = "tables"
            }
            if !filter.isEmpty { list.setFilter(filter) }
        } catch let failure as DaemonFailure {
            return report(failure)
        } catch {
            return report(error)
        }
        let signals: SignalChannel
        do {
            signals = try SignalChannel.make(signals: [SIGTERM, SIGINT, SIGHUP])
            try open(setup, firstCount: firstCount(first))
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
        // Both cost time before the first frame and are not needed for it.
        surface.startInputMethod()
        link.watchDaemon()
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

    /// A table's lines, fetched lazily; a secret table's rows show a mask and their names.
    private func tableContent(_ table: String, endItems: Bool = false) throws -> TableContent {
        TableContent(
            source: DaemonRows(link: link, table: table), outlines: try link.sections(table),
            names: link.rowNames(table), endItems: endItems, secret: try link.isSecret(table),
            pageSize: max(50, settings.rows * 3), previewCharacters: Self.previewCharacters)
    }

    /// How much of each row is fetched to show it: more than a line keeps
    /// (`MenuLine.shownLimit`), with room to see whether more lines follow; the most the
    /// daemon sends.
    static let previewCharacters = 4096

    /// Takes the display, the font and the colours from `setup`, and makes the window at the
    /// pointer.
    private func open(_ setup: DisplaySetup, firstCount: Int) throws {
        let opened = try setup.wait()
        let connection = opened.connection
        self.connection = connection
        let font = opened.font
        let colors = opened.colors
        let scale = connection.dotsPerInch / 96
        let padding = max(2, Int((3 * scale).rounded()))
        let lineHeight = font.height + 2 * padding
        let pointer = connection.pointer()
        let monitor = connection.monitor(containingX: pointer.x, y: pointer.y)
        visibleRows = max(1, min(settings.rows, max(firstCount, 3), monitor.height / lineHeight - 1))
        let width = font.width(of: String(repeating: "0", count: settings.width)) + 2 * padding
        let frame = monitor.place(
            width: width, height: (visibleRows + 1) * lineHeight, atX: pointer.x, y: pointer.y)
        surface = try PopupSurface.create(
            on: connection, frame: frame, background: colors.background, className: "cliptab-menu")
        painter = MenuPainter(
            surface: surface, font: font, colors: colors, lineHeight: lineHeight, padding: padding)
    }

    /// Shows `screen` on top, sized to the window.
    private func push(_ screen: MenuSession.Screen, prompt: String) {
        if case .list(_, let list) = screen { list.visibleRows = visibleRows }
        session.push(screen)
        prompts.append(prompt)
    }

    private func paint() {
        guard let screen = session.current else { return }
        painter.paint(
            screen, prompt: prompts[min(prompts.count, session.screens.count) - 1], message: message)
    }

    /// Reads events, signals and the bus until the menu closes; returns the exit status.
    private func loop(_ signals: SignalChannel) -> Int32 {
        var lastInput = BusConnection.monotonicMilliseconds()
        while true {
            var status: Int32?
            var changed = false
            // Drain what is queued, then draw once: a held key on a long table must not queue frames.
            while status == nil && connection.hasPendingEvents {
                (status, changed) = handle(surface.nextEvent(), changed)
                lastInput = BusConnection.monotonicMilliseconds()
            }
            if let status { return status }
            link.handle([])
            if link.isGone {
                return show(
                    "cliptabd is gone: it stopped while the menu was open", status: MenuExit.unavailable)
            }
            if changed { paint() }
            let base = [
                pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: signals.fileDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            var polled = base + link.pollDescriptors()
            // A menu nobody uses gives the keyboard back after a while.
            let idle =
                Int64(MenuApp.idleMilliseconds) - Int64(BusConnection.monotonicMilliseconds() - lastInput)
            guard idle > 0 else { return MenuExit.cancelled }
            _ = poll(&polled, nfds_t(polled.count), Int32(clamping: idle))
            if polled[1].revents != 0, (try? signals.next()) != nil { return MenuExit.signaled }
            if polled[0].revents & Int16(POLLHUP | POLLERR) != 0 { return MenuExit.cancelled }
            link.handle(Array(polled.dropFirst(2)))
        }
    }

    /// How long the menu stays open without input.
    static let idleMilliseconds = 300_000

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
            list.point(atWindowRow: y / painter.lineHeight - 1)
            return (nil, changed || before != list.cursor)
        case .button(let button, let x, let y):
            guard surface.frame.contains(x: x + surface.frame.x, y: y + surface.frame.y) else {
                return (MenuExit.cancelled, changed)
            }
            guard case .list(_, let list) = session.current else { return (nil, changed) }
            switch button {
            case 1, 3:
                guard list.point(atWindowRow: y / painter.lineHeight - 1) else { return (nil, changed) }
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

    /// Runs a key through the session and carries out its request.
    private func key(_ key: MenuKey) -> (Int32?, Bool) {
        let request = session.handle(key)
        while prompts.count > session.screens.count { prompts.removeLast() }
        do {
            return (try carry(request), true)
        } catch let failure as DaemonFailure {
            return (
                show(failure.description, status: failure.isGone ? MenuExit.unavailable : MenuExit.cancelled),
                true
            )
        } catch {
            return (show("\(error)", status: MenuExit.cancelled), true)
        }
    }

    /// Carries out `request`; returns the exit status when it ends the menu.
    private func carry(_ request: MenuRequest) throws -> Int32? {
        switch request {
        case .none:
            if case .list(_, let list) = session.current, let content = list.content as? TableContent,
                let failure = content.failure
            {
                throw failure
            }
            if case .input(.insert, _) = session.current, prompts.count < session.screens.count {
                prompts.append("insert")
            }
            if case .input(.fill(_, _, let inputs, let values), _) = session.current,
                prompts.count < session.screens.count, values.count < inputs.count
            {
                prompts.append(inputs[values.count].label)
            }
            return nil
        case .close:
            return MenuExit.cancelled
        case .openTable(let table):
            push(
                .list(
                    .rows(table: table), MenuList(content: try tableContent(table), visibleRows: visibleRows)),
                prompt: table)
            return nil
        case .chooseRow(let row):
            let current = try link.locate(row)
            // A template row's inputs are asked in the input line first, the menu still open.
            if let screen = MenuSession.fillScreen(
                current, action: settings.enter, inputs: try link.templateInputs(current))
            {
                push(screen, prompt: screenPrompt(screen))
                return nil
            }
            return try defaultAction(current)
        case .showActions(let row):
            let actions = try link.actions(try link.locate(row))
            guard !actions.isEmpty else {
                return show("this cell has no menu", status: MenuExit.cancelled)
            }
            push(
                .list(.actions(row), MenuList(content: ChoiceContent(actions), visibleRows: visibleRows)),
                prompt: "actions")
            return nil
        case .perform(let action, let row):
            let current = try link.locate(row)
            if action == "copy",
                let screen = MenuSession.fillScreen(
                    current, action: action, inputs: try link.templateInputs(current))
            {
                push(screen, prompt: screenPrompt(screen))
                return nil
            }
            if action == "copy" || action == "paste" {
                // Nothing of ours may hold the keyboard when the daemon talks to other clients.
                close()
            }
            _ = try link.call(
                "PerformAction",
                [.string(current.table), .string(action)] + Array(DaemonLink.path(current).dropFirst()))
            return MenuExit.done
        case .chooseDestination(let row):
            push(
                .list(
                    .destination(row),
                    MenuList(content: try tableContent(row.table, endItems: true), visibleRows: visibleRows)),
                prompt: "move to")
            return nil
        case .startEdit(let row):
            // A secret is replaced, never shown: its editor starts empty.
            let current = try link.locate(row)
            let text = try link.isSecret(current.table) ? "" : try link.text(current)
            push(.input(.edit(row), LineEditor(text)), prompt: "edit")
            return nil
        case .move(let row, let section, let index):
            let current = try link.locate(row)
            _ = try link.call(
                "MoveRow", DaemonLink.path(current) + [.int32(Int32(section)), .int32(Int32(index))])
            return MenuExit.done
        case .setText(let row, let text):
            _ = try link.call("SetCell", DaemonLink.path(try link.locate(row)) + [.string(text)])
            return MenuExit.done
        case .insert(let row, let text):
            let current = try link.locate(row)
            _ = try link.call("InsertRow", DaemonLink.path(current) + [.string(text)])
            return MenuExit.done
        case .fillIn(let row, let action, let labels, let values):
            let current = try link.locate(row)
            close()
            do {
                try link.use(current, action: action, labels: labels, values: values)
            } catch let failure as DaemonFailure where action == "paste" && !failure.isGone {
                // No way to paste here: a copy with the same values, as Enter does without inputs.
                try link.use(current, action: "copy", labels: labels, values: values)
            }
            return MenuExit.done
        }
    }

    /// The prompt of a template input line: its label.
    private func screenPrompt(_ screen: MenuSession.Screen) -> String {
        if case .input(.fill(_, _, let inputs, _), _) = screen, let first = inputs.first {
            return first.label
        }
        return "input"
    }

    /// Enter on a row: paste it into the window focused before the menu (falling back to
    /// copy where the daemon cannot paste), or copy it where the settings say so.
    private func defaultAction(_ row: MenuRow) throws -> Int32 {
        close()
        if settings.enter == "paste" {
            do {
                _ = try link.call("PasteToFocus", DaemonLink.path(row) + [.uint32(0)])
                return MenuExit.done
            } catch let failure as DaemonFailure where failure.error.name == BusErrorName.unknownMethod {
                // A daemon from before PasteToFocus: copying is the next best thing.
            }
        }
        _ = try link.call("Copy", DaemonLink.path(row))
        return MenuExit.done
    }

    /// Releases the grab and hides the window, so the focused window gets keys again.
    private func close() {
        connection.ungrabInput()
        surface.unmap()
        connection.ungrabInput()
    }

    /// Shows `text` in place of the prompt for a moment (or until a key), then closes.
    private func show(_ text: String, status: Int32) -> Int32 {
        message = text
        surface.map()
        paint()
        var entry = pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN), revents: 0)
        let deadline = BusConnection.monotonicMilliseconds() + 2500
        while BusConnection.monotonicMilliseconds() < deadline {
            while connection.hasPendingEvents {
                if case .key = surface.nextEvent() { return status }
            }
            _ = poll(&entry, 1, 100)
        }
        return status
    }

    /// Says on standard error why the menu could not open, and the status for it.
    private func report(_ error: any Error) -> Int32 {
        guard let failure = error as? DaemonFailure else {
            printError("cliptab menu: \(error)\n")
            return MenuExit.cancelled
        }
        // The words cliptab uses for the same failures.
        if failure.isGone {
            printError(
                "cliptab: cannot reach cliptabd: \(failure.error.message) (\(failure.error.name))\n"
                    + startHint)
            return MenuExit.unavailable
        }
        printError("cliptab: \(failure.error.message) (\(failure.error.name))\n")
        return MenuExit.cancelled
    }
}
