// SPDX-License-Identifier: MIT
import CliptabContract
import DBus
import Glibc
import MenuModel

/// Why a call to the daemon failed: it refused, or it is not there.
struct DaemonFailure: Error, CustomStringConvertible {
    /// The D-Bus error.
    let error: BusError
    /// True when the daemon (or the bus) is gone or does not answer.
    let isGone: Bool

    /// The message shown in the menu.
    var description: String {
        isGone ? "cliptabd is gone: \(error.message)" : "\(error.message)"
    }
}

/// The menu's calls to cliptabd over the session bus, each with its own timeout.
final class DaemonLink {
    private let connection: BusConnection
    private let timeoutMilliseconds: Int32
    /// True once the bus said that cliptabd's name lost its owner (or the bus went away).
    private(set) var isGone = false

    private init(connection: BusConnection, timeoutMilliseconds: Int32) {
        self.connection = connection
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    /// Connects to the session bus.
    static func connect(timeoutMilliseconds: Int32) throws -> DaemonLink {
        do {
            return DaemonLink(
                connection: try BusConnection.connect(), timeoutMilliseconds: timeoutMilliseconds)
        } catch let error as BusError {
            throw DaemonFailure(error: error, isGone: true)
        }
    }

    /// Asks the bus to say when cliptabd's name loses its owner, so that a menu left open
    /// notices the daemon going away before the next call would.
    func watchDaemon() {
        let rule =
            "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
            + "member='NameOwnerChanged',arg0='\(CliptabBus.name)'"
        connection.addSignalHandler { [weak self] message in
            if message.member == "Disconnected" {
                self?.isGone = true
            } else if message.member == "NameOwnerChanged", let values = try? message.readValues(),
                values.count == 3, values[2] == .string("")
            {
                self?.isGone = true
            }
        }
        try? connection.addMatch(rule)
        // The daemon may have gone before the rule was in place.
        if let message = try? BusMessage.methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus",
            member: "NameHasOwner"),
            (try? message.append([.string(CliptabBus.name)])) != nil,
            let reply = try? connection.call(message, timeoutMilliseconds: timeoutMilliseconds).readValues(),
            reply == [.boolean(false)]
        {
            isGone = true
        }
    }

    /// The descriptors to poll for the bus.
    func pollDescriptors() -> [pollfd] { connection.pollDescriptors() }

    /// Reads what the bus sent (entries of `polled` for other descriptors are ignored) and
    /// runs the signal handlers.
    func handle(_ polled: [pollfd]) {
        connection.handle(polled)
        connection.dispatchAll()
    }

    /// Error names that mean nobody is there to answer.
    private static let goneNames: Set<String> = [
        "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
        "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Disconnected",
        "org.freedesktop.DBus.Error.NoServer", "org.freedesktop.DBus.Error.Timeout",
        "org.freedesktop.DBus.Error.TimedOut",
    ]

    /// Calls `member` and returns its reply's values.
    func call(_ member: String, _ arguments: [BusValue] = []) throws -> [BusValue] {
        do {
            let message = try BusMessage.methodCall(
                destination: CliptabBus.name, path: CliptabBus.path, interface: CliptabBus.interface,
                member: member)
            try message.append(arguments)
            return try connection.call(message, timeoutMilliseconds: timeoutMilliseconds).readValues()
        } catch let error as BusError {
            throw DaemonFailure(
                error: error,
                isGone: Self.goneNames.contains(error.name)
                    || error.name.hasPrefix("org.freedesktop.DBus.Error.Spawn"))
        }
    }

    /// Reads one value, reporting a reply of another shape as a refusal.
    func read<T>(_ member: String, _ read: () throws(BusValueMismatch) -> T) throws -> T {
        do {
            return try read()
        } catch {
            throw DaemonFailure(
                error: BusError(
                    name: BusErrorName.failed, message: "cliptabd answered \(member) with an unexpected reply"
                ),
                isGone: false)
        }
    }

    /// The tables' names.
    func tables() throws -> [String] {
        let values = try call("ListTables")
        return try read("ListTables") { () throws(BusValueMismatch) in try values.strings(at: 0) }
    }

    /// The table's sections.
    func sections(_ table: String) throws -> [SectionOutline] {
        let values = try call("GetSections", [.string(table)])
        let fields = try read("GetSections") { () throws(BusValueMismatch) in
            try values.structures(at: 0, expected: "(ssu)")
        }
        return try fields.map { field in
            try read("GetSections") { () throws(BusValueMismatch) in
                SectionOutline(
                    header: try field.string(at: 0), footer: try field.string(at: 1),
                    rowCount: Int(try field.uint32(at: 2)))
            }
        }
    }

    /// The names of the table's rows, by id; empty where the daemon has no row names.
    func rowNames(_ table: String) -> [UInt64: String] {
        guard let values = try? call("GetRowNames", [.string(table)]),
            let pairs = try? values.structures(at: 0, expected: "(ts)")
        else { return [:] }
        var names: [UInt64: String] = [:]
        for pair in pairs {
            if let id = try? pair.uint64(at: 0), let name = try? pair.string(at: 1) { names[id] = name }
        }
        return names
    }

    /// Whether the table is secret (`GetSecret`), so that its rows' text is never shown.
    ///
    /// A daemon without `GetSecret` (API version 1) has no secret tables.
    func isSecret(_ table: String) throws -> Bool {
        let values: [BusValue]
        do {
            values = try call("GetSecret", [.string(table)])
        } catch let failure as DaemonFailure where failure.error.name == BusErrorName.unknownMethod {
            return false
        }
        return try read("GetSecret") { () throws(BusValueMismatch) in try values.boolean(at: 0) }
    }

    /// The row's actions, in the daemon's order.
    func actions(_ row: MenuRow) throws -> [String] {
        let values = try call(
            "GetActions", [.string(row.table), .int32(Int32(row.section)), .int32(Int32(row.row))])
        return try read("GetActions") { () throws(BusValueMismatch) in try values.strings(at: 0) }
    }

    /// The row's text.
    func text(_ row: MenuRow) throws -> String {
        let values = try call(
            "GetCell", [.string(row.table), .int32(Int32(row.section)), .int32(Int32(row.row))])
        return try read("GetCell") { () throws(BusValueMismatch) in try values.string(at: 0) }
    }

    /// Where the row with `id` is now (rows move while a menu is open).
    func locate(_ row: MenuRow) throws -> MenuRow {
        guard row.id != 0 else { return row }
        let values = try call("Locate", [.uint64(row.id)])
        return try read("Locate") { () throws(BusValueMismatch) in
            MenuRow(
                table: try values.string(at: 0), section: Int(try values.int32(at: 1)),
                row: Int(try values.int32(at: 2)), id: row.id)
        }
    }

    /// The cell's index path as arguments.
    static func path(_ row: MenuRow) -> [BusValue] {
        [.string(row.table), .int32(Int32(row.section)), .int32(Int32(row.row))]
    }
}

/// One table's rows, fetched from the daemon page by page.
final class DaemonRows: RowSource {
    private let link: DaemonLink
    private let table: String

    /// The rows of `table` through `link`.
    init(link: DaemonLink, table: String) {
        self.link = link
        self.table = table
    }

    /// False once the daemon answered that it has no `GetRowPreviews` (API version 2).
    private var hasPreviews = true

    /// `GetRows` for one page (or all rows for `limit` 0).
    func rows(section: Int, offset: Int, limit: Int) throws -> [FetchedRow] {
        try fetch(
            "GetRows",
            [.string(table), .int32(Int32(section)), .uint32(UInt32(offset)), .uint32(UInt32(limit))])
    }

    /// `GetRowPreviews` for one page: each text's first `characters` characters; `GetRows`
    /// from a daemon without it.
    func previews(section: Int, offset: Int, limit: Int, characters: Int) throws -> [FetchedRow] {
        if hasPreviews {
            do {
                return try fetch(
                    "GetRowPreviews",
                    [
                        .string(table), .int32(Int32(section)), .uint32(UInt32(offset)),
                        .uint32(UInt32(limit)),
                        .uint32(UInt32(clamping: characters)),
                    ])
            } catch let failure as DaemonFailure where failure.error.name == BusErrorName.unknownMethod {
                hasPreviews = false
            }
        }
        return try rows(section: section, offset: offset, limit: limit)
    }

    /// Calls `member` and reads its `a(ts)` reply.
    private func fetch(_ member: String, _ arguments: [BusValue]) throws -> [FetchedRow] {
        let values = try link.call(member, arguments)
        guard let pairs = try? values.structures(at: 0, expected: "(ts)") else {
            throw DaemonFailure(
                error: BusError(
                    name: BusErrorName.failed, message: "cliptabd answered \(member) unexpectedly"),
                isGone: false)
        }
        return pairs.map { pair in
            FetchedRow(id: (try? pair.uint64(at: 0)) ?? 0, text: (try? pair.string(at: 1)) ?? "")
        }
    }
}
