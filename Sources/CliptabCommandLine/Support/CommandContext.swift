// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabContract
import DBus

/// What a command runs with: the global options, standard output, and the daemon, which it
/// connects to on first use (commands that need no daemon never touch the bus).
final class CommandContext {
    /// The global options.
    let options: GlobalOptions
    /// Standard output.
    let output = Output()
    private var client: CliptabClient?

    /// Makes a context with `options`.
    init(options: GlobalOptions) {
        self.options = options
    }

    /// The client of the daemon, connected on first use; every call it makes shares one
    /// deadline, the command's timeout.
    ///
    /// It only calls (a `BusCallLink` where the bus allows): its authentication, `Hello` and
    /// first call go in one write. A command that reads signals asks for `signalingDaemon()`.
    func daemon() throws -> CliptabClient {
        try connected(signaling: false)
    }

    /// The client of the daemon over a full bus connection, whose signals can be read.
    func signalingDaemon() throws -> (CliptabClient, BusConnection) {
        let client = try connected(signaling: true)
        guard let connection = client.connection else {
            throw CLIFailure.local("the connection to the session bus reads no signals")
        }
        return (client, connection)
    }

    /// The client, connected on first use as `signaling` asks.
    private func connected(signaling: Bool) throws -> CliptabClient {
        if let client { return client }
        do throws(ClientFailure) {
            // The link bounds its own waits by the calls' deadline: no watchdog for it.
            if !signaling,
                let linked = try CliptabClient.connectForCalls(
                    timeoutMilliseconds: options.timeoutMilliseconds, sharedDeadline: true)
            {
                client = linked
                return linked
            }
            // libdbus's connect and Hello wait up to 25 s on a bus that accepts the socket but
            // never answers; the watchdog ends the process at our deadline instead.
            ConnectWatchdog.arm(milliseconds: options.timeoutMilliseconds)
            defer { ConnectWatchdog.disarm() }
            let made = try CliptabClient.connect(
                timeoutMilliseconds: options.timeoutMilliseconds, sharedDeadline: true)
            client = made
            return made
        } catch {
            throw CLIFailure(error)
        }
    }

    /// The bus connection if a call made one (a notification reuses it), else nil.
    var openConnection: BusConnection? { client?.connection }

    /// Runs `body` with the daemon's client (connected on first use); a failure of its
    /// calls is thrown as the CLI says it.
    @discardableResult
    func daemon<Answer>(_ body: (CliptabClient) throws -> Answer) throws -> Answer {
        let client = try daemon()
        do {
            return try body(client)
        } catch let failure as ClientFailure {
            throw CLIFailure(failure)
        }
    }

    /// The index path of `address` in `table`: `@HEADER` costs a `FindSection` call and
    /// `#ID` a `Locate` call (which must find the row in `table`), a row name a `FindRow`
    /// call; plain indexes cost none.
    func resolve(_ address: CellAddress, in table: String) throws -> (section: Int32, row: Int32) {
        switch address {
        case .path(let section, let row):
            return (try resolve(section, in: table), row)
        case .id(let id):
            let found = try daemon { try $0.locate(id) }
            let owner = found.table
            guard owner == table else {
                throw CLIFailure.refused(
                    BusError(
                        name: CliptabBus.errorPrefix + "NoSuchRow",
                        message: "row #\(id) is in table \"\(owner)\", not in \"\(table)\""))
            }
            return (found.section, found.row)
        case .name(let name):
            let found = try daemon { try $0.findRow(table, name: name) }.cell
            return (found.section, found.row)
        }
    }

    /// Whether `table` is secret (a `GetSecret` call): its text is then never printed.
    func isSecret(_ table: String) throws -> Bool {
        try daemon { try $0.isSecret(table) }
    }

    /// The index of `address` in `table` (a `FindSection` call for `@HEADER`).
    func resolve(_ address: SectionAddress, in table: String) throws -> Int32 {
        switch address {
        case .index(let index): return index
        case .header(let header): return try daemon { try $0.findSection(table, header: header) }
        }
    }
}
