// SPDX-License-Identifier: MIT
// cliptabd: wires the store, the service, the bus and the clipboard together, then runs
// the loop. Everything it starts is closed in reverse order when the loop ends.
import CliptabContract
import CliptabCore
import CliptabDaemon
import CliptabStore
import DBus
import Glibc
import Posix

let usage = """
    usage: cliptabd [--config FILE] [--replace] [--data-dir DIR] [--durability full|normal]
                    [--primary] [--secret-clear-ms N] [--paste-timeout-ms N]
           cliptabd [--config FILE] --check-config
           cliptabd --print-introspection | --version | --help

    Keeps named tables of text and serves them on the session bus as
    \(CliptabBus.name). Runs in the foreground; logs to standard error.
    Reads $XDG_CONFIG_HOME/cliptab/cliptab.conf (see cliptab.conf(5)); the options
    below win over it. SIGHUP or the Reload method re-reads it.

      --config FILE         read this configuration file instead (it must exist)
      --check-config        check the configuration, print its problems, and exit
      --replace             take over the bus name from a running cliptabd
      --data-dir DIR        where the store lives (default: $XDG_DATA_HOME/cliptab)
      --durability MODE     full (default: every change survives power loss) or normal
      --primary             also take PRIMARY (middle-click paste) on copy
      --secret-clear-ms N   clear a secret table's copy after N ms (default 30000)
      --paste-timeout-ms N  wait at most N ms for another program's clipboard (default 2000)
      --print-introspection print the D-Bus interface XML and exit
      --version             print the version and exit
      --help                print this help and exit

    """

struct Options {
    var replace = false
    var configPath: String?
    var checkOnly = false
    var overrides = ConfigurationOverrides()
}

/// The exit status for a configuration that cannot be used (`EX_CONFIG`): the unit does not
/// restart on it, since only an edit of the file helps.
let configurationExitStatus: Int32 = 78

func parseOptions(_ arguments: [String]) -> Options {
    var options = Options()
    var index = 0
    func value(_ name: String) -> String {
        index += 1
        guard index < arguments.count else {
            Log.line("option \(name) needs a value", level: .error)
            exit(2)
        }
        return arguments[index]
    }
    func number(_ text: String, _ name: String) -> Int {
        guard let value = Int(text), value > 0 else {
            Log.line("\(name) takes a positive whole number of milliseconds, not \"\(text)\"", level: .error)
            exit(2)
        }
        return value
    }
    while index < arguments.count {
        switch arguments[index] {
        case "--help", "-h":
            print(usage, terminator: "")
            exit(0)
        case "--version":
            print("cliptabd \(CliptabInterface.version)")
            exit(0)
        case "--print-introspection":
            let service = DaemonService(
                tables: TableService(catalog: Catalog(), persistence: MemoryPersistence()),
                clipboard: UnavailableClipboard(reason: ""))
            print(
                BusIntrospection.xml(for: [CliptabInterface(service: service).makeInterface()]),
                terminator: "")
            exit(0)
        case "--config":
            options.configPath = value("--config")
        case "--check-config":
            options.checkOnly = true
        case "--secret-clear-ms":
            options.overrides.secretClearMilliseconds = number(
                value("--secret-clear-ms"), "--secret-clear-ms")
        case "--paste-timeout-ms":
            options.overrides.pasteTimeoutMilliseconds = number(
                value("--paste-timeout-ms"), "--paste-timeout-ms")
        case "--primary":
            options.overrides.ownPrimary = true
        case "--replace":
            options.replace = true
        case "--data-dir":
            options.overrides.dataDirectory = value("--data-dir")
        case "--durability":
            let mode = value("--durability")
            guard let durability = Durability(rawValue: mode) else {
                Log.line("--durability takes full or normal, not \"\(mode)\"", level: .error)
                exit(2)
            }
            options.overrides.durability = durability
        default:
            Log.line("unknown option \"\(arguments[index])\"\n\(usage)", level: .error)
            exit(2)
        }
        index += 1
    }
    return options
}

/// Takes the data directory's lock.
///
/// With `--replace`, first takes the bus name on a connection of its own, so that the running cliptabd gets
/// NameLost and stops, then waits (at most 10 s) for its lock; the name is given back for the real connection
/// to take.
func lockStore(_ directory: String, replacing: Bool) throws -> StoreLock {
    guard replacing else { return try StoreLock.take(directory: directory) }
    let claim = try? BusConnection.connect()
    _ = try? claim?.requestName(
        CliptabBus.name, replaceExisting: true, allowReplacement: true, doNotQueue: true)
    defer { claim?.close() }
    let deadline = MonotonicClock.milliseconds() + 10_000
    while true {
        do {
            return try StoreLock.take(directory: directory)
        } catch is CliptabError where MonotonicClock.milliseconds() < deadline {
            // The old daemon frees the lock as it stops; anything else fails at the deadline.
            usleep(50_000)
        }
    }
}

func run() -> Int32 {
    let options = parseOptions(Array(CommandLine.arguments.dropFirst()))
    let configurator = Configurator(
        path: options.configPath ?? ConfigLocation.defaultPath(), isExplicit: options.configPath != nil,
        overrides: options.overrides)
    let configuration: DaemonConfiguration
    do {
        configuration = try configurator.start()
    } catch {
        for problem in error.problems { Log.line(problem.description, level: .error) }
        Log.line(
            "stopping: the configuration has \(error.problems.count) problem(s); see cliptab.conf(5)",
            level: .error)
        return configurationExitStatus
    }
    if options.checkOnly {
        if let path = configurator.path, access(path, F_OK) == 0 {
            print("\(path): ok")
        } else {
            print("\(configurator.path ?? "no configuration file"): not found; the defaults apply")
        }
        return 0
    }
    Log.threshold = configuration.logLevel
    Log.line("configuration from \(configurator.path ?? "(none)"): \(configuration.summary)", level: .debug)
    // A parent may have spawned us with signals blocked; SIGPIPE must not kill a daemon.
    SignalMask.clearForCurrentThread()
    SignalMask.ignoreBrokenPipe()
    let signals: SignalChannel
    do {
        signals = try SignalChannel.make(signals: [SIGTERM, SIGINT, SIGHUP])
    } catch {
        Log.line("Failed to set up signal handling: \(error)", level: .error)
        return 1
    }

    let store: SQLiteStore
    let catalog: Catalog
    let storeLock: StoreLock
    do {
        let directory = try configurator.dataDirectory(of: configuration)
        storeLock = try lockStore(directory, replacing: options.replace)
        (store, catalog) = try SQLiteStore.open(directory: directory, durability: configuration.durability)
    } catch {
        Log.line("Failed to open the store: \(error)", level: .error)
        return 1
    }
    // Closed on every way out, so that the store file alone holds every change; the
    // service's closures keep the store alive to the end, so its deinit would not run.
    defer { store.close() }
    let tables = TableService(catalog: catalog, persistence: store)
    var clipboardSettings = ClipboardSettings()
    Configurator.applySettings(configuration, to: tables, clipboard: &clipboardSettings)
    let failures = Configurator.applyTables(configuration, to: tables)
    guard failures.isEmpty else {
        for failure in failures { Log.line(failure, level: .error) }
        return 1
    }
    let display = getenv("DISPLAY").map { String(cString: $0) }
    let clipboard = X11Clipboard(display: display, settings: clipboardSettings)
    let service = DaemonService(tables: tables, clipboard: clipboard)
    clipboard.onLost = { service.clipboardChanged(owned: false, rowID: 0) }
    service.reload = {
        let problems = configurator.reload(tables: tables, clipboard: &clipboard.settings)
        let file = configurator.path ?? "(no configuration file)"
        if problems.isEmpty {
            let details = Log.threshold >= .debug ? ": \(configurator.current.summary)" : ""
            Log.line("reloaded \(file)\(details)")
        } else {
            Log.line("reload of \(file): \(problems.joined(separator: "; "))", level: .warning)
        }
        return problems
    }

    let bus: BusConnection
    do {
        bus = try BusConnection.connect()
    } catch {
        Log.line("Failed to connect to the session bus: \(error)", level: .error)
        return 1
    }
    let interface = CliptabInterface(service: service).makeInterface()
    // No call needs more elements than two arrays as long as the largest table (DeleteRows).
    let elementLimit = 2 * tables.limits.maxRowsPerTable + 16
    bus.maximumElementsPerCall = elementLimit
    bus.elementLimitError = { limit in
        CliptabError(
            .limitExceeded,
            "the call carries more than \(limit) array elements in all, more than any call on a table of at most \(tables.limits.maxRowsPerTable) rows needs; send fewer"
        )
    }
    do {
        try bus.registerObject(path: CliptabBus.path, interfaces: [interface])
    } catch {
        Log.line("Failed to register \(CliptabBus.path): \(error)", level: .error)
        return 1
    }
    func emit(_ name: String, _ values: [BusValue]) {
        guard let signal = CliptabInterface.signals.first(where: { $0.name == name }) else { return }
        do {
            try bus.emit(signal, from: CliptabBus.path, interface: CliptabBus.interface, values: values)
        } catch {
            Log.line("Failed to emit \(name): \(error), ignoring", level: .warning)
        }
    }
    tables.onEvent = { event in
        let signal = CliptabInterface.signal(for: event)
        emit(signal.name, signal.values)
        switch event {
        case .tableAdded, .tableRemoved, .tableRenamed:
            let names = BusValue.array(elementSignature: "s", tables.listTables().map { .string($0) })
            do {
                try bus.emitPropertiesChanged(
                    path: CliptabBus.path, interface: CliptabBus.interface, changed: ["Tables": names])
            } catch {
                Log.line("Failed to emit PropertiesChanged: \(error), ignoring", level: .warning)
            }
        default:
            break
        }
    }
    service.onClipboardChanged = { owned, rowID in
        emit("ClipboardChanged", [.boolean(owned), .uint64(rowID)])
        do {
            try bus.emitPropertiesChanged(
                path: CliptabBus.path, interface: CliptabBus.interface,
                changed: ["ClipboardOwned": .boolean(owned), "ClipboardRowId": .uint64(rowID)])
        } catch {
            Log.line("Failed to emit PropertiesChanged: \(error), ignoring", level: .warning)
        }
    }

    do {
        let result = try bus.requestName(
            CliptabBus.name, replaceExisting: options.replace, allowReplacement: true, doNotQueue: true)
        switch result {
        case .primaryOwner, .alreadyOwner:
            break
        case .exists, .inQueue:
            Log.line(
                "another cliptabd already owns \(CliptabBus.name) on this bus; stop it, or start with --replace to take over",
                level: .error)
            return 1
        }
    } catch {
        Log.line("Failed to request the name \(CliptabBus.name): \(error)", level: .error)
        return 1
    }
    Log.line(
        "serving \(CliptabBus.name) with \(tables.catalog.tables.count) tables from \(store.path) (durability \(configuration.durability.rawValue))"
    )

    // With allowReplacement, a `cliptabd --replace` takes the name: this one then stops.
    var replaced = false
    bus.addSignalHandler { message in
        if message.member == "NameLost" && message.interface == "org.freedesktop.DBus",
            (try? message.readValues()) == [.string(CliptabBus.name)]
        {
            replaced = true
        }
    }
    let loop = EventLoop(bus: bus, signals: signals)
    loop.sources = [clipboard]
    loop.shouldStop = { replaced }
    loop.onReload = { _ = service.reload() }
    let exit = loop.run()
    clipboard.shutdown()
    withExtendedLifetime(storeLock) {}
    switch exit {
    case .signal(let number):
        Log.line("stopping on signal \(number)")
        return 0
    case .stopped:
        Log.line("another cliptabd took over \(CliptabBus.name); stopping")
        return 0
    case .busLost:
        Log.line("lost the connection to the session bus; stopping", level: .error)
        return 1
    }
}

exit(run())
