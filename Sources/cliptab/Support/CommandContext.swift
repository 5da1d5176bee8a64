// SPDX-License-Identifier: MIT
import CliptabContract
import DBus

/// What a command runs with: the global options, standard output, and the daemon, which it
/// connects to on first use (commands that need no daemon never touch the bus).
final class CommandContext {
    /// The global options.
    let options: GlobalOptions
    /// Standard output.
    let output = Output()
    private var client: DaemonClient?

    /// Makes a context with `options`.
    init(options: GlobalOptions) {
        self.options = options
    }

    /// The connection to the daemon, made on first use.
    func daemon() throws -> DaemonClient {
        if let client { return client }
        let made = try DaemonClient.connect(timeoutMilliseconds: options.timeoutMilliseconds)
        client = made
        return made
    }

    /// The bus connection if a call made one (a notification reuses it), else nil.
    var openConnection: BusConnection? { client?.connection }

    /// Calls `member` of the cliptab interface.
    func call(_ member: String, _ arguments: [BusValue] = []) throws -> Reply {
        try daemon().call(member, arguments)
    }

    /// Calls `member` of the cliptab interface and returns the reply undecoded.
    func replyMessage(_ member: String, _ arguments: [BusValue]) throws -> BusMessage {
        try daemon().replyMessage(member, arguments)
    }

    /// The index path of `address` in `table`: `@HEADER` costs a `FindSection` call and
    /// `#ID` a `Locate` call (which must find the row in `table`), a row name a `FindRow`
    /// call; plain indexes cost none.
    func resolve(_ address: CellAddress, in table: String) throws -> (section: Int32, row: Int32) {
        switch address {
        case .path(let section, let row):
            return (try resolve(section, in: table), row)
        case .id(let id):
            let found = try call("Locate", [.uint64(id)])
            let owner = try found.string(0)
            guard owner == table else {
                throw CLIFailure.refused(
                    BusError(
                        name: CliptabBus.errorPrefix + "NoSuchRow",
                        message: "row #\(id) is in table \"\(owner)\", not in \"\(table)\""))
            }
            return (try found.int32(1), try found.int32(2))
        case .name(let name):
            let found = try call("FindRow", [.string(table), .string(name)])
            return (try found.int32(0), try found.int32(1))
        }
    }

    /// Whether `table` is secret (a `GetSecret` call): its text is then never printed.
    func isSecret(_ table: String) throws -> Bool {
        try call("GetSecret", [.string(table)]).boolean(0)
    }

    /// The index of `address` in `table` (a `FindSection` call for `@HEADER`).
    func resolve(_ address: SectionAddress, in table: String) throws -> Int32 {
        switch address {
        case .index(let index): return index
        case .header(let header): return try call("FindSection", [.string(table), .string(header)]).int32(0)
        }
    }
}
