// SPDX-License-Identifier: MIT
import CliptabClient
import DBus
import Glibc
import MenuModel
import Posix

/// The menu's front end, one for both popups: it shows the levels on a `MenuSurface`, turns
/// its events into keys of the `MenuSession`, carries out the requests they make, and
/// decides when to draw and when the menu ends, with which `MenuExit`.
///
/// One poll() loop over the surface, the signals and the bus; its turns run on `clock`, so
/// that the tests drive them with a virtual one.
public final class MenuFrontEnd {
    /// The calls to cliptabd.
    public let client: CliptabClient
    /// The [menu] settings.
    public let settings: MenuSettings
    /// The popup.
    public let surface: any MenuSurface
    /// The levels.
    public let session = MenuSession()
    /// Each level's prompt.
    public private(set) var prompts: [String] = []
    /// The message shown in place of the prompt before the menu closes.
    public private(set) var message: String?
    /// True where a refused `PasteToFocus` (no focus the daemon can reach on this desktop)
    /// falls back to copying, as it does where the daemon has no `PasteToFocus` at all.
    private let copiesWhenPasteRefused: Bool
    /// The time in milliseconds (`MonotonicClock` but in the tests).
    private let clock: () -> UInt64
    /// When the last input came.
    private var lastInput: UInt64 = 0

    /// How long the menu stays open without input.
    public static let idleMilliseconds: UInt64 = 300_000
    /// How long a message stays up without a key.
    public static let messageMilliseconds: UInt64 = 2500

    /// A menu over `client` with `settings`, shown on `surface`.
    public init(
        client: CliptabClient, settings: MenuSettings, surface: any MenuSurface, copiesWhenPasteRefused: Bool,
        clock: @escaping () -> UInt64 = MonotonicClock.milliseconds
    ) {
        self.client = client
        self.settings = settings
        self.surface = surface
        self.copiesWhenPasteRefused = copiesWhenPasteRefused
        self.clock = clock
    }

    /// Shows the menu for `table` (nil: the list of tables) with `filter` already typed, and
    /// returns the exit status.
    public func run(table: String?, filter: String = "") -> Int32 {
        // Read from here on, so that a signal during the first fetch ends the menu in order.
        let signals: SignalChannel
        do {
            signals = try SignalChannel.make(signals: [SIGTERM, SIGINT, SIGHUP])
        } catch {
            return report(error)
        }
        // Fetch before the popup holds the keyboard: it must never wait on the daemon.
        let first: MenuSession.Screen
        let prompt: String
        let firstCount: Int
        do {
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
            // the first frame then waits on nothing but the popup.
            for index in list.window { _ = list.line(at: index) }
        } catch {
            return report(error)
        }
        do {
            try start(first, prompt: prompt, firstCount: firstCount)
        } catch {
            surface.close()
            return report(error)
        }
        // Not needed for the first frame, and too costly before it.
        client.watchDaemon()
        let status = loop(signals)
        // Every way out passes here: the popup, and with it the keyboard, goes first.
        surface.close()
        return status
    }

    /// Opens the popup on `first`, draws it and shows it: the first frame is made before the
    /// popup holds the keyboard, so the desktop's input is never held while it is made.
    public func start(_ first: MenuSession.Screen, prompt: String, firstCount: Int) throws {
        try surface.open(firstCount: firstCount)
        push(first, prompt: prompt)
        try draw()
        try surface.present()
        lastInput = clock()
    }

    /// Reads the popup, signals and the bus until the menu closes; returns the status.
    private func loop(_ signals: SignalChannel) -> Int32 {
        while true {
            if let status = turn() { return status }
            do {
                var polled = [
                    pollfd(fd: try surface.prepareToPoll(), events: Int16(POLLIN), revents: 0),
                    pollfd(fd: signals.fileDescriptor, events: Int16(POLLIN), revents: 0),
                ]
                BusPollTurn.run(
                    client.connection.map { [$0] } ?? [], others: &polled, timeoutMilliseconds: timeout())
                try surface.finishPoll(readable: polled[0].revents & Int16(POLLIN) != 0)
                if polled[1].revents != 0, (try? signals.next()) != nil { return MenuExit.signaled }
                if polled[0].revents & Int16(POLLHUP | POLLERR) != 0 { return MenuExit.cancelled }
            } catch {
                printError("cliptab menu: \(error)\n")
                return MenuExit.cancelled
            }
        }
    }

    /// One turn of the loop: takes the events queued and draws once (a held key on a long
    /// table must not queue frames); the exit status when the menu ends.
    public func turn() -> Int32? {
        var status: Int32?
        var changed = false
        while status == nil, let event = surface.nextEvent() {
            (status, changed) = handle(event, changed)
            lastInput = clock()
        }
        if let status { return status }
        // Signals a blocking call read are seen before waiting.
        if let status = daemonGoneStatus() { return status }
        if changed {
            do {
                try draw()
            } catch {
                printError("cliptab menu: \(error)\n")
                return MenuExit.cancelled
            }
        }
        // A menu nobody uses gives the keyboard back after a while.
        return clock() - lastInput >= Self.idleMilliseconds ? MenuExit.cancelled : nil
    }

    /// How long the loop may wait for input: until the menu idles out or the popup has
    /// something due.
    public func timeout() -> Int32 {
        let idle = Int32(clamping: Int64(Self.idleMilliseconds) - Int64(clock() - lastInput))
        return max(1, min(idle, surface.wakeTimeout ?? Int32.max))
    }

    /// Draws the shown level; the popup may show another number of lines after it.
    private func draw() throws {
        guard let screen = session.current else { return }
        try surface.draw(
            screen, prompt: prompts[min(prompts.count, session.screens.count) - 1], message: message)
        for screen in session.screens {
            if case .list(_, let list) = screen, list.visibleRows != surface.visibleRows {
                list.visibleRows = surface.visibleRows
            }
        }
    }

    /// Acts on one event; returns the exit status when the menu must close, and whether the
    /// popup must be drawn again.
    private func handle(_ event: MenuEvent, _ changed: Bool) -> (Int32?, Bool) {
        switch event {
        case .redraw:
            return (nil, true)
        case .closed:
            return (MenuExit.cancelled, changed)
        case .pointer(let row):
            guard case .list(_, let list) = session.current, let row else { return (nil, changed) }
            let before = list.cursor
            list.point(atWindowRow: row)
            return (nil, changed || before != list.cursor)
        case .button(let button, let row):
            // A click outside the box closes the menu, as a click elsewhere closes a menu.
            guard let row else { return (MenuExit.cancelled, changed) }
            guard case .list(_, let list) = session.current else { return (nil, changed) }
            switch button {
            case 1, 3:
                guard list.point(atWindowRow: row) else { return (nil, changed) }
                return key(button == 1 ? .enter : .tab)
            case 4: return key(.up)
            case 5: return key(.down)
            default: return (nil, changed)
            }
        case .scroll(let step):
            return key(step < 0 ? .up : .down)
        case .key(let pressed):
            // A message is up: the next key closes it (and the menu).
            if message != nil { return (MenuExit.cancelled, changed) }
            return key(pressed)
        }
    }

    /// Gives the keyboard back before the daemon talks to other clients or pastes.
    private func close() { surface.hide() }

    /// Shows `text` in place of the prompt for a moment (or until a key), then returns
    /// `status`.
    private func show(_ text: String, status: Int32) -> Int32 {
        message = text
        do {
            try surface.reveal()
            try draw()
            let deadline = clock() + Self.messageMilliseconds
            while clock() < deadline {
                while let event = surface.nextEvent() {
                    switch event {
                    case .key, .closed: return status
                    default: continue
                    }
                }
                var entry = pollfd(fd: try surface.prepareToPoll(), events: Int16(POLLIN), revents: 0)
                _ = poll(&entry, 1, 100)
                try surface.finishPoll(readable: entry.revents & Int16(POLLIN) != 0)
            }
        } catch {
            printError("cliptab menu: \(text)\n")
        }
        return status
    }

    /// Runs a key through the session and carries out its request: the exit status when it
    /// ends the menu, and whether the popup must be drawn again.
    private func key(_ key: MenuKey) -> (Int32?, Bool) {
        let request = session.handle(key)
        while prompts.count > session.screens.count { prompts.removeLast() }
        do {
            return (try carry(request), true)
        } catch let failure as ClientFailure {
            return (
                show(failure.description, status: failure.isGone ? MenuExit.unavailable : MenuExit.cancelled),
                true
            )
        } catch {
            return (show("\(error)", status: MenuExit.cancelled), true)
        }
    }

    /// Reads the signals a blocking call left queued (NameOwnerChanged among them): the exit
    /// status, once the daemon's going away is shown, when it is gone.
    private func daemonGoneStatus() -> Int32? {
        client.connection?.dispatchAll()
        guard client.isGone else { return nil }
        return show("cliptabd is gone: it stopped while the menu was open", status: MenuExit.unavailable)
    }

    /// Shows `screen` on top, sized to the popup.
    private func push(_ screen: MenuSession.Screen, prompt: String) {
        if case .list(_, let list) = screen { list.visibleRows = surface.visibleRows }
        session.push(screen)
        prompts.append(prompt)
    }

    /// A table's lines, fetched lazily; a secret table's rows show a mask and their names.
    public func tableContent(_ table: String, endItems: Bool = false) throws -> TableContent {
        TableContent(
            source: DaemonRows(client: client, table: table), outlines: try client.outlines(table),
            names: try client.rowNamesByID(table), endItems: endItems, secret: try client.isSecret(table),
            pageSize: max(50, settings.rows * 3), previewCharacters: DaemonRows.previewCharacters)
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
                    .rows(table: table),
                    MenuList(content: try tableContent(table), visibleRows: surface.visibleRows)),
                prompt: table)
            return nil
        case .chooseRow(let row):
            let current = try client.locate(row)
            // A template row's inputs are asked in the input line first, the menu still open.
            if let screen = MenuSession.fillScreen(
                current, action: settings.enter, inputs: try client.templateInputs(current))
            {
                push(screen, prompt: screenPrompt(screen))
                return nil
            }
            return try defaultAction(current)
        case .showActions(let row):
            let actions = RowActions.lines(allowed: try client.actions(try client.locate(row)))
            guard !actions.isEmpty else {
                return show("this cell has no menu", status: MenuExit.cancelled)
            }
            push(
                .list(
                    .actions(row), MenuList(content: ChoiceContent(actions), visibleRows: surface.visibleRows)
                ),
                prompt: "actions")
            return nil
        case .perform(let action, let row):
            let current = try client.locate(row)
            if action == RowActions.sequence {
                close()
                _ = try client.startSequence(
                    current.table, section: Int32(current.section), row: Int32(current.row), count: 0)
                return MenuExit.done
            }
            if action == "copy",
                let screen = MenuSession.fillScreen(
                    current, action: action, inputs: try client.templateInputs(current))
            {
                push(screen, prompt: screenPrompt(screen))
                return nil
            }
            if action == RowActions.fill { return try fill(from: current) }
            if action == "copy" || action == "paste" {
                // Nothing of ours may hold the keyboard when the daemon talks to other clients.
                close()
            }
            try client.perform(action, CliptabClient.tableCell(current))
            return MenuExit.done
        case .chooseDestination(let row):
            push(
                .list(
                    .destination(row),
                    MenuList(
                        content: try tableContent(row.table, endItems: true), visibleRows: surface.visibleRows
                    )),
                prompt: "move to")
            return nil
        case .startEdit(let row):
            // A secret is replaced, never shown: its editor starts empty.
            let current = try client.locate(row)
            let text = try client.isSecret(current.table) ? "" : try client.text(current)
            push(.input(.edit(row), LineEditor(text)), prompt: "edit")
            return nil
        case .move(let row, let section, let index):
            let current = try client.locate(row)
            try client.moveRow(CliptabClient.tableCell(current), toSection: Int32(section), row: Int32(index))
            return MenuExit.done
        case .setText(let row, let text):
            try client.setCell(CliptabClient.tableCell(try client.locate(row)), text)
            return MenuExit.done
        case .insert(let row, let text):
            let current = try client.locate(row)
            try client.insertRow(CliptabClient.tableCell(current), text)
            return MenuExit.done
        case .fillIn(let row, let action, let labels, let values):
            let current = try client.locate(row)
            close()
            var failure: ClientFailure?
            do throws(ClientFailure) {
                try client.use(current, action: action, labels: labels, values: values)
            } catch {
                failure = error
            }
            if let failure {
                guard action == "paste", !failure.isGone else { throw failure }
                // No way to paste here: a copy with the same values, as Enter does without inputs.
                try client.use(current, action: "copy", labels: labels, values: values)
            }
            return MenuExit.done
        }
    }

    /// The `fill` action: the row and those after it to the end of its section pasted into
    /// the window focused before the menu, Tab between them (`FillToFocus`); a fill that
    /// stopped says why on standard error.
    private func fill(from row: MenuRow) throws -> Int32 {
        // Nothing of ours may hold the keyboard while the daemon types.
        close()
        let outcome = try client.fill(
            row.table, section: Int32(row.section), row: Int32(row.row), count: nil, then: nil)
        guard outcome.reason.isEmpty else {
            printError("cliptab menu: \(outcome.reason)\n")
            return MenuExit.cancelled
        }
        return MenuExit.done
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
            let pasted = Result { () throws(ClientFailure) in
                try client.pasteToFocus(CliptabClient.tableCell(row))
            }
            switch pasted {
            case .success:
                return MenuExit.done
            case .failure(let failure) where failure.isUnknownMethod:
                break  // A daemon from before PasteToFocus: copying is the next best thing.
            case .failure(let failure) where copiesWhenPasteRefused && !failure.isGone:
                break  // No way to paste on this desktop (no focus the daemon can reach): copy.
            case .failure(let failure):
                throw failure
            }
        }
        try client.copy(CliptabClient.tableCell(row))
        return MenuExit.done
    }

    /// Says on standard error why the menu could not open (in the words cliptab uses for the
    /// same failures), and the status for it.
    public func report(_ error: any Error) -> Int32 {
        guard let failure = error as? ClientFailure else {
            printError("cliptab menu: \(error)\n")
            return MenuExit.cancelled
        }
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
