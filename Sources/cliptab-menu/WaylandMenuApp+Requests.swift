// SPDX-License-Identifier: MIT
import DBus
import Glibc
import MenuModel

/// The requests of the levels, carried out as MenuApp carries them on X11.
extension WaylandMenuApp {
    /// Runs a key through the session and carries out its request.
    func key(_ key: MenuKey) -> (Int32?, Bool) {
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

    /// Shows `screen` on top.
    private func push(_ screen: MenuSession.Screen, prompt: String) {
        if case .list(_, let list) = screen { list.visibleRows = visibleRows }
        session.push(screen)
        prompts.append(prompt)
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
            push(.input(.edit(row), LineEditor(try link.text(try link.locate(row)))), prompt: "edit")
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
            } catch let failure as DaemonFailure where !failure.isGone {
                // No way to paste on this desktop (no focus the daemon can reach): copy.
            }
        }
        _ = try link.call("Copy", DaemonLink.path(row))
        return MenuExit.done
    }

    /// Removes the overlay, so the focused window has the keyboard again before the daemon
    /// pastes into it.
    private func close() {
        try? popup.hide()
    }

    /// Shows `text` in place of the prompt for a moment (or until a key), then closes.
    func show(_ text: String, status: Int32) -> Int32 {
        message = text
        do {
            if !popup.isShown { try popup.show(namespace: "cliptab-menu") }
            try paint()
            let deadline = BusConnection.monotonicMilliseconds() + 2500
            while BusConnection.monotonicMilliseconds() < deadline {
                while let event = popup.nextEvent() {
                    if case .key = event { return status }
                    if case .closed = event { return status }
                }
                var entry = pollfd(fd: try popup.prepareToPoll(), events: Int16(POLLIN), revents: 0)
                _ = poll(&entry, 1, 100)
                try popup.finishPoll(readable: entry.revents & Int16(POLLIN) != 0)
            }
        } catch {
            printError("cliptab menu: \(text)\n")
        }
        return status
    }

    /// Says on standard error why the menu could not open, and the status for it.
    func report(_ error: any Error) -> Int32 {
        guard let failure = error as? DaemonFailure else {
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

    /// For the tests (work counted, not timed): when CLIPTAB_MENU_STATISTICS names a file,
    /// writes the frames drawn and the bytes shaped into it.
    func writeStatistics() {
        guard let path = getenv("CLIPTAB_MENU_STATISTICS").map({ String(cString: $0) }), !path.isEmpty,
            let file = fopen(path, "w")
        else { return }
        fputs("frames \(frames)\nshaped_bytes \(shapedBytes)\n", file)
        fclose(file)
    }
}
