// SPDX-License-Identifier: MIT
// cliptabd: wires the store, the service, the bus and the clipboard together, then runs
// the loop. Everything it starts is closed in reverse order when the loop ends.
import CliptabCore
import CliptabDaemon
import CliptabStore
import DBus
import Glibc
import Posix

let usage = """
    usage: cliptabd [--replace] [--data-dir DIR] [--durability full|normal] [--primary]
                    [--secret-clear-ms N] [--paste-timeout-ms N]
           cliptabd --print-introspection | --version | --help

    Keeps named tables of text and serves them on the session bus as
    \(CliptabBus.name). Runs in the foreground; logs to standard error.

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
    var dataDirectory: String?
    var durability = Durability.full
    var clipboard = ClipboardSettings()
}

func parseOptions(_ arguments: [String]) -> Options {
    var options = Options()
    var index = 0
    func value(_ name: String) -> String {
        index += 1
        guard index < arguments.count else {
            Log.line("option \(name) needs a value")
            exit(2)
        }
        return arguments[index]
    }
    func number(_ text: String, _ name: String) -> Int {
        guard let value = Int(text), value > 0 else {
            Log.line("\(name) takes a positive whole number of milliseconds, not \"\(text)\"")
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
        case "--secret-clear-ms":
            options.clipboard.secretClearMilliseconds = number(
                value("--secret-clear-ms"), "--secret-clear-ms")
        case "--paste-timeout-ms":
            options.clipboard.readTimeoutMilliseconds = number(
                value("--paste-timeout-ms"), "--paste-timeout-ms")
        case "--primary":
            options.clipboard.ownPrimary = true
        case "--replace":
            options.replace = true
        case "--data-dir":
            options.dataDirectory = value("--data-dir")
        case "--durability":
            let mode = value("--durability")
            guard let durability = Durability(rawValue: mode) else {
                Log.line("--durability takes full or normal, not \"\(mode)\"")
                exit(2)
            }
            options.durability = durability
        default:
            Log.line("unknown option \"\(arguments[index])\"\n\(usage)")
            exit(2)
        }
        index += 1
    }
    return options
}

func run() -> Int32 {
    let options = parseOptions(Array(CommandLine.arguments.dropFirst()))
    // A parent may have spawned us with signals blocked; SIGPIPE must not kill a daemon.
    SignalMask.clearForCurrentThread()
    SignalMask.ignoreBrokenPipe()
    let signals: SignalChannel
    do {
        signals = try SignalChannel.make(signals: [SIGTERM, SIGINT, SIGHUP])
    } catch {
        Log.line("Failed to set up signal handling: \(error)")
        return 1
    }

    let store: SQLiteStore
    let catalog: Catalog
    do {
        let directory = try options.dataDirectory ?? SQLiteStore.defaultDirectory()
        (store, catalog) = try SQLiteStore.open(directory: directory, durability: options.durability)
    } catch {
        Log.line("Failed to open the store: \(error)")
        return 1
    }
    // Closed on every way out, so that the store file alone holds every change; the
    // service's closures keep the store alive to the end, so its deinit would not run.
    defer { store.close() }
    let tables = TableService(catalog: catalog, persistence: store)
    let display = getenv("DISPLAY").map { String(cString: $0) }
    let clipboard = X11Clipboard(display: display, settings: options.clipboard)
    let service = DaemonService(tables: tables, clipboard: clipboard)
    clipboard.onLost = { service.onClipboardChanged(false, 0) }

    let bus: BusConnection
    do {
        bus = try BusConnection.connect()
    } catch {
        Log.line("Failed to connect to the session bus: \(error)")
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
        Log.line("Failed to register \(CliptabBus.path): \(error)")
        return 1
    }
    func emit(_ name: String, _ values: [BusValue]) {
        guard let signal = CliptabInterface.signals.first(where: { $0.name == name }) else { return }
        do {
            try bus.emit(signal, from: CliptabBus.path, interface: CliptabBus.interface, values: values)
        } catch {
            Log.line("Failed to emit \(name): \(error), ignoring")
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
                Log.line("Failed to emit PropertiesChanged: \(error), ignoring")
            }
        default:
            break
        }
    }
    service.onClipboardChanged = { owned, rowID in
        emit("ClipboardChanged", [.boolean(owned), .uint64(rowID)])
    }

    do {
        let result = try bus.requestName(
            CliptabBus.name, replaceExisting: options.replace, allowReplacement: true, doNotQueue: true)
        switch result {
        case .primaryOwner, .alreadyOwner:
            break
        case .exists, .inQueue:
            Log.line(
                "another cliptabd already owns \(CliptabBus.name) on this bus; stop it, or start with --replace to take over"
            )
            return 1
        }
    } catch {
        Log.line("Failed to request the name \(CliptabBus.name): \(error)")
        return 1
    }
    Log.line("serving \(CliptabBus.name) with \(catalog.tables.count) tables from \(store.path)")

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
    loop.onReload = { Log.line("SIGHUP: nothing to reload yet (no configuration file support), ignoring") }
    let exit = loop.run()
    clipboard.shutdown()
    switch exit {
    case .signal(let number):
        Log.line("stopping on signal \(number)")
        return 0
    case .stopped:
        Log.line("another cliptabd took over \(CliptabBus.name); stopping")
        return 0
    case .busLost:
        Log.line("lost the connection to the session bus; stopping")
        return 1
    }
}

exit(run())
