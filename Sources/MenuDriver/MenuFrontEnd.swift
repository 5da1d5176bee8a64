// SPDX-License-Identifier: MIT
import CliptabClient
import DBus
import Glibc
import MenuModel

/// A popup that shows the menu's levels (the X11 window, the Wayland overlay): the requests
/// the levels make are carried out here, once for both.
public protocol MenuFrontEnd: AnyObject {
    /// The calls to cliptabd.
    var client: CliptabClient { get }
    /// The [menu] settings.
    var settings: MenuSettings { get }
    /// The levels.
    var session: MenuSession { get }
    /// Each level's prompt.
    var prompts: [String] { get set }
    /// The lines of rows the popup shows.
    var visibleRows: Int { get }
    /// True where a refused `PasteToFocus` (no focus the daemon can reach on this desktop)
    /// falls back to copying, as it does where the daemon has no `PasteToFocus` at all.
    var copiesWhenPasteRefused: Bool { get }

    /// Gives the keyboard back (the grab, the overlay), so that the focused window has it
    /// again before the daemon talks to other clients or pastes into it.
    func close()

    /// Shows `text` in place of the prompt for a moment (or until a key), then returns
    /// `status`.
    func show(_ text: String, status: Int32) -> Int32
}

extension MenuFrontEnd {
    /// How long the menu stays open without input.
    public static var idleMilliseconds: Int { 300_000 }

    /// Runs a key through the session and carries out its request: the exit status when it
    /// ends the menu, and whether the popup must be drawn again.
    public func key(_ key: MenuKey) -> (Int32?, Bool) {
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
    public func daemonGoneStatus() -> Int32? {
        client.connection?.dispatchAll()
        guard client.isGone else { return nil }
        return show("cliptabd is gone: it stopped while the menu was open", status: MenuExit.unavailable)
    }

    /// Shows `screen` on top, sized to the popup.
    public func push(_ screen: MenuSession.Screen, prompt: String) {
        if case .list(_, let list) = screen { list.visibleRows = visibleRows }
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
                    .rows(table: table), MenuList(content: try tableContent(table), visibleRows: visibleRows)),
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
                .list(.actions(row), MenuList(content: ChoiceContent(actions), visibleRows: visibleRows)),
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
                    MenuList(content: try tableContent(row.table, endItems: true), visibleRows: visibleRows)),
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
