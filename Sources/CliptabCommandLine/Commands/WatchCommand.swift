// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabContract
import DBus
import Glibc
import Posix

/// `cliptab watch [TABLE]`: the change signals, one line each, until interrupted.
struct WatchCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "watch", abstract: "print change signals as they happen, one line each, until interrupted",
        discussion: """
            One line per signal, written as it arrives:
              TableAdded NAME, TableRemoved NAME, TableRenamed OLD NEW,
              SectionsInserted|SectionsDeleted TABLE rREVISION S..., SectionChanged TABLE rREVISION S,
              SectionMoved TABLE rREVISION FROM -> TO,
              RowsInserted|RowsDeleted|RowsChanged TABLE rREVISION S:R...,
              RowMoved TABLE rREVISION S:R -> S:R, ClipboardChanged owned [#ID] | released.
            A name with spaces or quotes is shown in single quotes, as a shell would take it.
            With --json, one object a line: {"signal", "table", "revision", ...}.

            With TABLE, only the signals that name it (followed through renames). When the
            watch is in place it says so on stderr. Ctrl-C (SIGINT), SIGTERM, SIGHUP, or the
            reader of stdout going away end it with status 0; losing the bus ends it with 69.
            """,
        arguments: [ArgumentSpec("TABLE", .optional, help: "only this table's signals", completion: .table)])

    private let table: String?

    /// Takes the checked arguments.
    init(_ arguments: ParsedArguments) {
        table = arguments.optionalArgument("TABLE")
    }

    /// Waits for signals and prints each, until interrupted or the reader leaves.
    func run(_ context: CommandContext) throws {
        // Blocked before anything else so that an interrupt is read from the descriptor in
        // the loop, which then ends cleanly, instead of killing the process mid-line.
        let interrupts = try SignalChannel.make(signals: [SIGINT, SIGTERM, SIGHUP])
        let (_, connection) = try context.signalingDaemon()
        do {
            try connection.addMatch(
                "type='signal',sender='\(CliptabBus.name)',path='\(CliptabBus.path)',interface='\(CliptabBus.interface)'"
            )
        } catch let error as BusError {
            throw CLIFailure.unreachable(
                "cliptab: cannot watch the session bus: \(error.message) (\(error.name))\n")
        }
        // One call, so that a daemon that is not there is reported (and an activatable one
        // is started) before waiting.
        try context.daemon { try $0.ping() }
        writeToStandardError(
            "cliptab: watching \(table.map { "table \(SignalLine.quoted($0))" } ?? "every table"); "
                + "Ctrl-C stops\n")

        var formatter = SignalLine(table: table, json: context.options.json)
        var stop: CLIFailure?
        connection.addSignalHandler { message in
            guard stop == nil, message.interface == CliptabBus.interface, message.path == CliptabBus.path,
                let line = formatter.line(for: message)
            else { return }
            do {
                try context.output.line(line)
                try context.output.flush()
            } catch let failure as CLIFailure {
                stop = failure
            } catch {
                stop = .local("\(error)")
            }
        }
        while stop == nil {
            guard connection.isConnected else {
                throw CLIFailure.unreachable("cliptab: lost the connection to the session bus\n" + startHint)
            }
            // Asking for no event on standard output still reports POLLERR when the reader
            // of a pipe has gone.
            var others = [
                pollfd(fd: interrupts.fileDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: 1, events: 0, revents: 0),
            ]
            let ready = BusPollTurn.run([connection], others: &others, timeoutMilliseconds: -1)
            if ready < 0 {
                if errno == EINTR { continue }
                throw CLIFailure.local("poll failed: \(describe(errno: errno))")
            }
            if stop != nil { break }
            if others[0].revents != 0 { return }
            if others[1].revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 { return }
        }
        if let stop { throw stop }
    }
}

/// Turns a signal of the interface into one line of `watch` output, and keeps track of the
/// watched table's name across renames.
struct SignalLine {
    /// The watched table's current name, nil for all.
    var table: String?
    /// JSON output.
    let json: Bool

    /// The line for `message`, or nil when it is filtered out.
    mutating func line(for message: BusMessage) -> String? {
        guard let member = message.member, let values = try? message.readValues() else { return nil }
        if let watched = table {
            guard case .string(let first)? = values.first else { return nil }
            if member == "TableRenamed", values.count == 2, case .string(let new) = values[1] {
                guard first == watched || new == watched else { return nil }
                table = new
            } else if first != watched {
                return nil
            }
        }
        return json ? jsonLine(member, values) : textLine(member, values)
    }

    private func textLine(_ member: String, _ values: [BusValue]) -> String {
        var words = [member]
        func changed(_ name: String, _ revision: UInt64) -> [String] { [Self.quoted(name), "r\(revision)"] }
        func cell(_ path: CellPath) -> String { "\(path.section):\(path.row)" }
        switch ChangeSignal(member: member, values: values) {
        case .tableAdded(let name), .tableRemoved(let name):
            words.append(Self.quoted(name))
        case .tableRenamed(let old, let new):
            words += [Self.quoted(old), Self.quoted(new)]
        case .sectionsInserted(let name, let revision, let sections),
            .sectionsDeleted(let name, let revision, let sections):
            words += changed(name, revision) + sections.map { "\($0)" }
        case .sectionChanged(let name, let revision, let section):
            words += changed(name, revision) + ["\(section)"]
        case .sectionMoved(let name, let revision, let from, let to):
            words += changed(name, revision) + ["\(from)", "->", "\(to)"]
        case .rowsInserted(let name, let revision, let paths),
            .rowsDeleted(let name, let revision, let paths),
            .rowsChanged(let name, let revision, let paths):
            words += changed(name, revision) + paths.map(cell)
        case .rowMoved(let name, let revision, let from, let to):
            words += changed(name, revision) + [cell(from), "->", cell(to)]
        case .clipboardChanged(let owned, let id):
            words.append(owned ? "owned" : "released")
            if id != 0 { words.append("#\(id)") }
        case nil:
            // A signal added by a later version of the API: its values, as they come.
            words += values.map(Self.plain)
        }
        return words.joined(separator: " ")
    }

    private func jsonLine(_ member: String, _ values: [BusValue]) -> String {
        var members: [(String, JSON)] = [("signal", .string(member))]
        func path(_ path: CellPath) -> JSON {
            .object([("section", .integer(Int64(path.section))), ("row", .integer(Int64(path.row)))])
        }
        func changed(_ name: String, _ revision: UInt64) -> [(String, JSON)] {
            [("table", .string(name)), ("revision", .unsigned(revision))]
        }
        switch ChangeSignal(member: member, values: values) {
        case .tableAdded(let name), .tableRemoved(let name):
            members.append(("table", .string(name)))
        case .tableRenamed(let old, let new):
            members += [("old_name", .string(old)), ("new_name", .string(new))]
        case .sectionsInserted(let name, let revision, let sections),
            .sectionsDeleted(let name, let revision, let sections):
            members += changed(name, revision) + [("sections", .array(sections.map { .integer(Int64($0)) }))]
        case .sectionChanged(let name, let revision, let section):
            members += changed(name, revision) + [("section", .integer(Int64(section)))]
        case .sectionMoved(let name, let revision, let from, let to):
            members +=
                changed(name, revision) + [("from", .integer(Int64(from))), ("to", .integer(Int64(to)))]
        case .rowsInserted(let name, let revision, let paths),
            .rowsDeleted(let name, let revision, let paths),
            .rowsChanged(let name, let revision, let paths):
            members += changed(name, revision) + [("paths", .array(paths.map(path)))]
        case .rowMoved(let name, let revision, let from, let to):
            members += changed(name, revision) + [("from", path(from)), ("to", path(to))]
        case .clipboardChanged(let owned, let id):
            members += [("owned", .bool(owned)), ("row_id", .unsigned(id))]
        case nil:
            members.append(("values", .array(values.map(Self.json))))
        }
        return JSON.object(members).rendered
    }

    /// A name as a shell would read it back: as is when plain, otherwise in single quotes.
    static func quoted(_ name: String) -> String {
        let plain =
            !name.isEmpty
            && name.unicodeScalars.allSatisfy {
                !($0.properties.isWhitespace || $0 == "'" || $0 == "\"" || $0 == "\\" || $0.value < 0x20)
            }
        if plain { return name }
        return "'" + name.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''")
            + "'"
    }

    /// A value in a text line.
    static func plain(_ value: BusValue) -> String {
        switch value {
        case .string(let text), .objectPath(let text), .signature(let text): return quoted(text)
        case .int32(let number): return "\(number)"
        case .uint32(let number): return "\(number)"
        case .int64(let number): return "\(number)"
        case .uint64(let number): return "\(number)"
        case .int16(let number): return "\(number)"
        case .uint16(let number): return "\(number)"
        case .byte(let number): return "\(number)"
        case .boolean(let flag): return flag ? "true" : "false"
        case .double(let number): return "\(number)"
        case .array(_, let items): return items.map(plain).joined(separator: ",")
        case .structure(let fields): return "(" + fields.map(plain).joined(separator: ",") + ")"
        case .dictionary(_, _, let entries):
            return "{" + entries.map { plain($0.0) + ":" + plain($0.1) }.joined(separator: ",") + "}"
        case .variant(let inner): return plain(inner)
        }
    }

    /// A value as JSON.
    static func json(_ value: BusValue) -> JSON {
        switch value {
        case .string(let text), .objectPath(let text), .signature(let text): return .string(text)
        case .int32(let number): return .integer(Int64(number))
        case .uint32(let number): return .unsigned(UInt64(number))
        case .int64(let number): return .integer(number)
        case .uint64(let number): return .unsigned(number)
        case .int16(let number): return .integer(Int64(number))
        case .uint16(let number): return .unsigned(UInt64(number))
        case .byte(let number): return .unsigned(UInt64(number))
        case .boolean(let flag): return .bool(flag)
        case .double(let number): return number.isFinite ? .string("\(number)") : .null
        case .array(_, let items): return .array(items.map(json))
        case .structure(let fields): return .array(fields.map(json))
        case .dictionary(_, _, let entries):
            return .array(entries.map { .array([json($0.0), json($0.1)]) })
        case .variant(let inner): return json(inner)
        }
    }
}
