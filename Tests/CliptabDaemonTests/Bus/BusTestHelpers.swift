// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabContract
import DBus
import DaemonTestSupport
import Glibc
import Posix
import TestSupport

/// The match rule for the standard `PropertiesChanged` signal of the object.
let propertiesChangedRule =
    "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'"

extension DaemonProcess {
    /// The sections of `table`: header, footer and row count.
    func sections(_ table: String) throws -> [(header: String, footer: String, rows: UInt32)] {
        try decodeSections(call("GetSections", [s(table)]))
    }

    /// Every row of one section: id and text.
    func rows(_ table: String, _ section: Int32) throws -> [RowSnapshot] {
        try decodeRows(call("GetRows", [s(table), i(section), .uint32(0), .uint32(0)]))
    }

    /// The texts of every section, in order.
    func texts(_ table: String) throws -> [[String]] {
        try (0..<Int32(sections(table).count)).map { try rows(table, $0).map(\.text) }
    }

    /// The table's revision.
    func revision(_ table: String) throws -> UInt64 {
        guard case .uint64(let revision)? = try call("GetRevision", [s(table)]).first else {
            throw FixtureError("GetRevision did not answer a t")
        }
        return revision
    }

    /// The table names as `ListTables` answers them.
    func tableNames() throws -> [String] {
        try decodeStrings(call("ListTables").first)
    }

    /// One table as a client sees it.
    func snapshot(_ table: String) throws -> TableSnapshot {
        guard let snapshot = try TableSnapshot.read(client, table) else {
            throw FixtureError("no table \(table) to take a snapshot of")
        }
        return snapshot
    }

    /// Every table as a client sees it.
    func snapshotAll() throws -> [String: TableSnapshot] { try TableSnapshot.readAll(client) }

    /// Every table exported as `json` (ids included), by name.
    func exportAll() throws -> [String: String] {
        var result: [String: String] = [:]
        for name in try tableNames() {
            guard case .string(let data)? = try call("ExportTable", [s(name), s("json")]).first else {
                throw FixtureError("ExportTable did not answer an s")
            }
            result[name] = data
        }
        return result
    }

    /// The error a call fails with (name and message), or nil when it succeeds.
    func failure(_ member: String, _ arguments: [BusValue] = []) -> BusError? {
        do {
            try call(member, arguments)
            return nil
        } catch let error as BusError {
            return error
        } catch {
            return BusError(name: "not a BusError", message: "\(error)")
        }
    }
}

/// The `a(ssu)` of a `GetSections` reply.
func decodeSections(_ reply: [BusValue]) throws -> [(header: String, footer: String, rows: UInt32)] {
    guard case .array(_, let items)? = reply.first else { throw FixtureError("not an a(ssu): \(reply)") }
    return try items.map {
        guard case .structure(let fields) = $0, fields.count == 3, case .string(let header) = fields[0],
            case .string(let footer) = fields[1], case .uint32(let count) = fields[2]
        else { throw FixtureError("not an (ssu): \($0)") }
        return (header, footer, count)
    }
}

/// The `a(ts)` of a `GetRows` reply.
func decodeRows(_ reply: [BusValue]) throws -> [RowSnapshot] { try TableSnapshot.rows(reply) }

/// An `as` value.
func decodeStrings(_ value: BusValue?) throws -> [String] {
    guard case .array(_, let items)? = value else {
        throw FixtureError("not an as: \(String(describing: value))")
    }
    return try items.map {
        guard case .string(let text) = $0 else { throw FixtureError("not an s: \($0)") }
        return text
    }
}

/// An `ai` value.
func decodeInt32s(_ value: BusValue?) throws -> [Int32] {
    guard case .array(_, let items)? = value else {
        throw FixtureError("not an ai: \(String(describing: value))")
    }
    return try items.map {
        guard case .int32(let number) = $0 else { throw FixtureError("not an i: \($0)") }
        return number
    }
}

/// The `a(ii)` of a `DeleteWhere` reply as (section, row) pairs.
func decodePaths(_ reply: [BusValue]) throws -> [[Int32]] {
    guard case .array(_, let items)? = reply.first else { throw FixtureError("not an a(ii): \(reply)") }
    return try items.map {
        guard case .structure(let fields) = $0, fields.count == 2, case .int32(let section) = fields[0],
            case .int32(let row) = fields[1]
        else { throw FixtureError("not an (ii): \($0)") }
        return [section, row]
    }
}

/// `.uint64` shorthand.
func t(_ number: UInt64) -> BusValue { .uint64(number) }
/// `.uint32` shorthand.
func u(_ number: UInt32) -> BusValue { .uint32(number) }
/// `.boolean` shorthand.
func b(_ value: Bool) -> BusValue { .boolean(value) }

extension DaemonProcess {
    /// The signals of the cliptab interface and `PropertiesChanged` that `listener` has
    /// received, including every one emitted before this call.
    ///
    /// A `Ping` round trip to the daemon first: the daemon emits a change's signals before it
    /// replies, and the bus keeps one sender's messages in order, so the Ping's reply comes
    /// after every signal of a call that was already answered.
    func signals(on listener: BusConnection) throws -> [BusMessage] {
        let ping = try CliptabClient.message("Ping", interface: "org.freedesktop.DBus.Peer")
        _ = try listener.call(ping, timeoutMilliseconds: 10_000)
        var result: [BusMessage] = []
        while let message = listener.readMessage(timeoutMilliseconds: 0) {
            guard message.type == .signal else { continue }
            if message.interface == CliptabBus.interface
                || (message.interface == "org.freedesktop.DBus.Properties"
                    && message.member == "PropertiesChanged")
            {
                result.append(message)
            }
        }
        return result
    }
}

/// `names` sorted by their UTF-8 bytes, as `ListTables` sorts.
func byteSorted<Names: Sequence<String>>(_ names: Names) -> [String] {
    names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
}

/// A method of the cliptab interface as the repository's XML declares it.
struct MethodDeclaration {
    var name: String
    /// In-arguments: name and signature.
    var inputs: [(name: String, type: String)]
    /// The signature of the reply.
    var outSignature: String
}

/// The methods of `io.github.cliptab.Cliptab1` in the repository's interface XML.
func declaredMethods() throws -> [MethodDeclaration] {
    let xml = try readFile(repositoryFile("Sources/CliptabDaemon/Bus/io.github.cliptab.Cliptab1.xml"))
    let methods = try InterfaceXML.members(of: CliptabBus.interface, in: xml).filter { $0.kind == .method }
    guard !methods.isEmpty else { throw FixtureError("the XML has no cliptab interface") }
    return methods.map { method in
        MethodDeclaration(
            name: method.name, inputs: method.inputs.map { ($0.name, $0.type) },
            outSignature: method.outputs.map(\.type).joined())
    }
}
