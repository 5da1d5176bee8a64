// SPDX-License-Identifier: MIT
import CliptabConfig
import CliptabContract
import CliptabCore
import CliptabStore
import DBus
import Glibc
import Posix
import TableFile

/// The running daemon: starts its parts in order, runs the loop, and stops them in reverse.
///
/// The start, each step needing the ones before it: the configuration; the signal channel;
/// the store's lock (with `--replace`, after making the running daemon stop) and the store;
/// the table service with the file's settings and tables; the clipboard; the bus connection
/// with the object registered; the element limit; signal publishing; and last the bus
/// name, so that no call arrives before everything is ready.
public final class Daemon {
    /// The exit status for a configuration that cannot be used (`EX_CONFIG`): the unit does
    /// not restart on it, since only an edit of the file helps.
    public static let configurationExitStatus: Int32 = 78
    /// The exit status when a program that is not a cliptabd holds or takes the bus name
    /// (`EX_UNAVAILABLE`): a failure, so that the unit restarts cliptabd, which gets the name
    /// back once that program lets it go.
    public static let nameTakenExitStatus: Int32 = 69
    /// The exit status for a store file that cannot be used as it is (`EX_DATAERR`).
    ///
    /// Damaged, truncated, not a store, or of a newer schema: the unit does not restart on
    /// it, since only the user can mend the file.
    public static let unusableStoreExitStatus: Int32 = 65

    private let options: DaemonOptions
    private let configurator: Configurator
    /// Looks up the variables that name the session's displays and desktop (`SessionPlan`).
    let environment: (String) -> String?

    // The parts, in the order they start; `shutdown()` stops them in reverse.
    private var signals: SignalChannel?
    private var storeLock: StoreLock?
    /// With `--replace`, the connection that took the bus name from the running daemon, held
    /// until `bus` owns the name: the name is never ownerless in between, so the replaced
    /// daemon, asking who took it, finds this cliptabd and stops cleanly.
    private var replacementClaim: BusConnection?
    private var store: SQLiteStore?
    private var configured: ConfiguredService?
    private var clipboard: ClipboardPolicy?
    var bus: BusConnection?
    /// The app id's registration with the desktop portal, shared by the portal clients of
    /// `bus` (made with the first of them).
    private var portalRegistration: PortalHostRegistration?
    /// The RemoteDesktop portal's client where the session types through it: a source of
    /// the loop for its idle time.
    private var remoteDesktop: RemoteDesktopPortal?
    /// XTEST into XWayland's windows in a Wayland session: its X connection is a loop source.
    private var xwayland: XWaylandKeyInjector?
    private var publisher: SignalPublisher?
    /// Opens `cliptab menu` for GNOME Shell's `LaunchSearch`.
    private let menuLauncher = MenuLauncher(clock: MonotonicClock.milliseconds)
    /// Opens `cliptab menu` and `cliptab pick` for the keys of `[keys]`.
    let keyLauncher = MenuLauncher(clock: MonotonicClock.milliseconds)
    /// Runs the keys of `[keys]`; made once the service is.
    var keyService: KeyService?
    /// Set when another daemon took the bus name over: the loop then ends.
    private var replaced = false

    /// Makes a daemon for `options`; `environment` looks up the variables that place the
    /// configuration file and name the display.
    public init(options: DaemonOptions, environment: @escaping (String) -> String? = ConfigLocation.variable)
    {
        self.options = options
        configurator = Configurator(
            path: options.configPath ?? ConfigLocation.defaultPath(environment: environment),
            isExplicit: options.configPath != nil, overrides: options.overrides, environment: environment)
        self.environment = environment
    }

    /// Checks the configuration (`--check-config`), or serves until stopped; returns the
    /// exit status.
    public func run() -> Int32 {
        let configuration: DaemonConfiguration
        do {
            configuration = try configurator.start()
        } catch {
            for problem in error.problems { Log.line(problem.description, level: .error) }
            Log.line(
                "stopping: the configuration has \(error.problems.count) problem(s); see cliptab.conf(5)",
                level: .error)
            return Self.configurationExitStatus
        }
        if options.mode == .checkConfig {
            if let path = configurator.path, access(path, F_OK) == 0 {
                print("\(path): ok")
            } else {
                print("\(configurator.path ?? "no configuration file"): not found; the defaults apply")
            }
            return 0
        }
        Log.threshold = configuration.logLevel
        Log.line(
            "configuration from \(configurator.path ?? "(none)"): \(configuration.summary)", level: .debug)
        defer { shutdown() }
        let loop: EventLoop
        do {
            loop = try start(configuration)
        } catch {
            for line in error.lines { Log.line(line, level: .error) }
            return error.exitStatus
        }
        switch loop.run() {
        case .signal(let number):
            Log.line("stopping on signal \(number)")
            return 0
        case .stopped:
            // Anyone may ask for the name with replacement: only a cliptabd is a take-over.
            let owner = bus.map { NameOwner.of(CliptabBus.name, on: $0) }
            if let owner, owner.isCliptabd {
                Log.line("another cliptabd (\(owner.description)) took over \(CliptabBus.name); stopping")
                return 0
            }
            Log.line(
                "stopping: \(owner?.description ?? "a client") took \(CliptabBus.name) and is not a cliptabd; "
                    + "exiting with status \(Self.nameTakenExitStatus) so that the service is restarted",
                level: .error)
            return Self.nameTakenExitStatus
        case .busLost:
            Log.line("lost the connection to the session bus; stopping", level: .error)
            return 1
        }
    }

    /// Re-reads the configuration file and applies it; returns the problems.
    ///
    /// SIGHUP comes here; the `Reload` method reaches the same `ConfiguredService.reload()`.
    public func reload() -> [String] { configured?.reload() ?? [] }

    // MARK: - Start

    /// Starts every part in order; returns the loop that runs them.
    private func start(_ configuration: DaemonConfiguration) throws(StartFailure) -> EventLoop {
        // A parent may have spawned us with signals blocked; SIGPIPE must not kill a daemon.
        SignalMask.clearForCurrentThread()
        SignalMask.ignoreBrokenPipe()
        let signals = try step("Failed to set up signal handling") {
            try SignalChannel.make(signals: [SIGTERM, SIGINT, SIGHUP])
        }
        self.signals = signals
        let store = try openStore(configuration)
        // The bus first: the publisher on it announces the tables' and the clipboard's changes
        // from the start.
        let bus = try step("Failed to connect to the session bus") { try BusConnection.connect() }
        self.bus = bus
        let publisher = SignalPublisher(bus: bus)
        self.publisher = publisher
        let links = LinkedTables(
            folder: tablesFolder(configuration), codec: TableFileCodec(),
            statePath: (try? configurator.dataDirectory(of: configuration)).map { $0 + "/linked-tables" },
            syncsFiles: configuration.durability == .full)
        let tables = TableService(
            catalog: store.catalog, persistence: store.store, documentCodec: TableFileCodec(), mirror: links,
            announce: publisher.announce(_:catalog:))
        let board = BoundKeys()
        let configured = try ConfiguredService(
            configurator: configurator, configuration: configuration, tables: tables, keys: board,
            keysChanged: { [unowned self] keys in logUnbound(keyService?.apply(keys) ?? []) }, links: links
        ) { settings in
            let plan = SessionPlan(environment: environment, choice: configuration.backend)
            let clipboard = makeClipboard(
                settings, plan: plan, announcer: publisher,
                portal: plan.usesPortal ? portal(on: bus, configuration: configuration) : nil)
            self.clipboard = clipboard
            Log.line("clipboard: \(clipboard.backend.summary)")
            return clipboard
        }
        self.configured = configured
        let service = configured.service
        try register(service, on: bus)
        try watchCallers(on: bus, clipboard: service.clipboard)
        try registerDesktopSearch(on: bus, service: service, configurator: configured.configurator)
        limitElements(on: bus, tables: service.tables)
        let keySource = startKeys(configuration, service: service, board: board)
        // The files lead: the tables equal them before any client can call.
        let follower = LinkedTableFollower(tables: tables, links: links, watch: watchFolder())
        follower.start()
        try ownName(on: bus)
        replacementClaim?.close()
        replacementClaim = nil
        Log.line(
            "serving \(CliptabBus.name) with \(service.tables.catalog.tables.count) tables from \(store.store.path) (durability \(configuration.durability.rawValue))"
        )
        return EventLoop(
            bus: bus, signals: signals,
            sources: (clipboard.map { [$0 as PollSource] } ?? [])
                + (remoteDesktop.map { [$0 as PollSource] } ?? [])
                + (xwayland.map { [$0 as PollSource] } ?? [])
                + [menuLauncher, keyLauncher, follower] + (keySource.map { [$0] } ?? []),
            shouldStop: { [unowned self] in replaced }, reload: { [unowned self] in _ = reload() })
    }

    /// Takes the data directory's lock, then opens the store in it.
    private func openStore(_ configuration: DaemonConfiguration) throws(StartFailure)
        -> (store: SQLiteStore, catalog: Catalog)
    {
        do {
            let directory = try configurator.dataDirectory(of: configuration)
            storeLock = try lockStore(directory, replacing: options.replace)
            let (store, catalog) = try SQLiteStore.open(
                directory: directory, durability: configuration.durability)
            self.store = store
            return (store, catalog)
        } catch let refusal as UnusableStore {
            let path = refusal.path
            throw StartFailure(
                lines: [
                    "Failed to open the store: \(refusal.message)",
                    "stopping with status \(Self.unusableStoreExitStatus), which the unit does not restart on: "
                        + "no start can use \(path) as it is. To start with a new, empty store, move it "
                        + "aside with its -wal and -shm files (for example: mv \(path) \(path).damaged); to "
                        + "keep your tables, put back a copy of the file you saved, or start empty and "
                        + "import the tables you exported (cliptab import). "
                        + "Then: systemctl --user restart cliptabd",
                ], exitStatus: Self.unusableStoreExitStatus)
        } catch {
            throw StartFailure("Failed to open the store: \(error)")
        }
    }

    /// Takes the data directory's lock.
    ///
    /// With `--replace`, first takes the bus name on a connection of its own, so that the
    /// running cliptabd gets NameLost and stops, then waits (at most 10 s) for its lock; that
    /// connection keeps the name until the real one takes it (`replacementClaim`).
    private func lockStore(_ directory: String, replacing: Bool) throws -> StoreLock {
        guard replacing else { return try StoreLock.take(directory: directory) }
        let claim = try? BusConnection.connect()
        _ = try? claim?.requestName(
            CliptabBus.name, replaceExisting: true, allowReplacement: true, doNotQueue: true)
        replacementClaim = claim
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

    /// Registers the object serving `service` on `bus`.
    private func register(_ service: ClipboardService, on bus: BusConnection) throws(StartFailure) {
        try step("Failed to register \(CliptabBus.path)") {
            try bus.registerObject(
                path: CliptabBus.path, interfaces: [CliptabInterface(service: service).makeInterface()])
        }
    }

    /// The clipboard over the backend `plan` names: Wayland's data-control where the
    /// session has it (or where it is asked for), X11 otherwise.
    private func makeClipboard(
        _ settings: ClipboardSettings, plan: SessionPlan, announcer: ChangeAnnouncer,
        portal: RemoteDesktopPortal?
    ) -> ClipboardPolicy {
        var note: String?
        if let wayland = plan.wayland {
            let keyboards = VirtualKeyboardSupply()
            let backend = WaylandSelectionBackend(
                display: wayland.display, settings: settings, keyboards: keyboards,
                clock: MonotonicClock.milliseconds)
            if wayland.isRequired || backend.connectError == nil {
                let keyboard = VirtualKeyboardInjector(backend: backend, keyboards: keyboards)
                let routes: [KeyInjector] = wayland.routes.compactMap { route in
                    switch route {
                    case .xtest:
                        wayland.xtestDisplay.map {
                            let xtest = XWaylandKeyInjector(
                                display: $0, settings: settings, clock: MonotonicClock.milliseconds)
                            xwayland = xtest
                            return WaylandMarkedInjector(xtest, wayland: keyboard)
                        }
                    case .virtualKeyboard: keyboard
                    case .portal:
                        portal.map { WaylandMarkedInjector(PortalKeyInjector(portal: $0), wayland: keyboard) }
                    }
                }
                return clipboardPolicy(
                    backend: backend, routes: routes, settings: settings, announcer: announcer)
            }
            note = plan.noDataControlNote(backend.connectError ?? "")
        }
        let backend = X11SelectionBackend(
            display: plan.x11.display, settings: settings, waylandNote: note, blindSpot: plan.x11.blindSpot,
            clock: MonotonicClock.milliseconds)
        let routes: [KeyInjector] = plan.x11.routes.compactMap { route in
            switch route {
            case .xtest: X11KeyInjector(backend: backend, waylandDisplay: plan.x11.waylandDisplay)
            case .virtualKeyboard: nil
            case .portal: portal.map { PortalKeyInjector(portal: $0) }
            }
        }
        return clipboardPolicy(backend: backend, routes: routes, settings: settings, announcer: announcer)
    }

    /// The policy over `backend`, typing the paste chord through the first of `routes` that
    /// reaches the focused window.
    private func clipboardPolicy(
        backend: SelectionBackend, routes: [KeyInjector], settings: ClipboardSettings,
        announcer: ChangeAnnouncer
    ) -> ClipboardPolicy {
        let router = PasteRouter(routes: routes)
        Log.line("paste keys: \(router.summary)")
        return ClipboardPolicy(
            backend: backend, injector: router, settings: settings, announcer: announcer,
            clock: MonotonicClock.milliseconds)
    }

    /// The RemoteDesktop portal client, keeping its restore token in the data directory and
    /// closing an idle session after `[paste_to_focus] portal_idle_ms` of the configuration
    /// in force.
    private func portal(on bus: BusConnection, configuration: DaemonConfiguration) -> RemoteDesktopPortal {
        let directory = try? configurator.dataDirectory(of: configuration)
        let configurator = configurator
        let portal = RemoteDesktopPortal(
            bus: bus, tokenFile: directory.map { RestoreTokenFile(directory: $0) },
            registration: hostRegistration(on: bus), clock: MonotonicClock.milliseconds,
            idleMilliseconds: { [unowned configurator] in
                configurator.current.focusPaste.portalIdleMilliseconds
            })
        remoteDesktop = portal
        return portal
    }

    /// The one registration of the app id with the desktop portal on `bus`.
    func hostRegistration(on bus: BusConnection) -> PortalHostRegistration {
        if let portalRegistration { return portalRegistration }
        let registration = PortalHostRegistration(bus: bus)
        portalRegistration = registration
        return registration
    }

    /// Tells the clipboard when a caller leaves the bus, so that a paste it asked for and
    /// no longer waits for never types.
    private func watchCallers(on bus: BusConnection, clipboard: ClipboardPolicy) throws(StartFailure) {
        try step("Failed to watch for callers leaving the bus") {
            // Only names that lost their owner: the bus sends nothing for names taken.
            try bus.addMatch(
                "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
                    + "member='NameOwnerChanged',arg2=''")
        }
        bus.addSignalHandler { message in
            // A forged copy sent straight to us comes from a client's name, not the bus.
            guard message.member == "NameOwnerChanged", message.interface == "org.freedesktop.DBus",
                message.sender == "org.freedesktop.DBus",
                let values = try? message.readValues(), values.count == 3,
                case .string(let name) = values[0], case .string("") = values[2], name.hasPrefix(":")
            else { return }
            clipboard.callerGone(name)
        }
    }

    /// Registers the desktops' own search over `service`: GNOME Shell's search provider
    /// and KRunner's runner, each at an object of its own.
    private func registerDesktopSearch(
        on bus: BusConnection, service: ClipboardService, configurator: Configurator
    ) throws(StartFailure) {
        let launcher = menuLauncher
        let search = DesktopSearch(
            service: service, settings: { [unowned configurator] in configurator.current.search }
        ) {
            words, table in try launcher.open(words: words, table: table)
        }
        try step("Failed to register \(DesktopSearchBus.searchProviderPath)") {
            try bus.registerObject(
                path: DesktopSearchBus.searchProviderPath,
                interfaces: [SearchProviderInterface(search: search).makeInterface()])
        }
        try step("Failed to register \(DesktopSearchBus.runnerPath)") {
            try bus.registerObject(
                path: DesktopSearchBus.runnerPath,
                interfaces: [KRunnerInterface(search: search).makeInterface()])
        }
    }

    /// Refuses calls carrying more array elements than any call on the largest table needs.
    private func limitElements(on bus: BusConnection, tables: TableService) {
        // No call needs more elements than two arrays as long as the largest table (DeleteRows).
        let rows = tables.limits.maxRowsPerTable
        bus.maximumElementsPerCall = 2 * rows + 16
        bus.elementLimitError = { limit in
            CliptabError(
                .limitExceeded,
                "the call carries more than \(limit) array elements in all, more than any call on a table of at most \(rows) rows needs; send fewer"
            )
        }
    }

    /// Takes the bus name (`--replace`: from a running daemon) and stops when another
    /// daemon takes it over later.
    private func ownName(on bus: BusConnection) throws(StartFailure) {
        // With allowReplacement, a `cliptabd --replace` takes the name: this one then stops.
        bus.addSignalHandler { [unowned self] message in
            if message.member == "NameLost" && message.interface == "org.freedesktop.DBus",
                (try? message.readValues()) == [.string(CliptabBus.name)]
            {
                replaced = true
            }
        }
        let result = try step("Failed to request the name \(CliptabBus.name)") {
            try bus.requestName(
                CliptabBus.name, replaceExisting: options.replace, allowReplacement: true, doNotQueue: true)
        }
        switch result {
        case .primaryOwner, .alreadyOwner:
            break
        case .exists, .inQueue:
            let owner = NameOwner.of(CliptabBus.name, on: bus)
            if owner.isCliptabd || owner.pid == nil {
                throw StartFailure(
                    "another cliptabd (\(owner.description)) already owns \(CliptabBus.name) on this bus; stop it, or start with --replace to take over"
                )
            }
            throw StartFailure(
                "\(owner.description) owns \(CliptabBus.name) on this bus and is not a cliptabd; stop that program (or start cliptabd with --replace to take the name from it)",
                exitStatus: Self.nameTakenExitStatus)
        }
    }

    /// Runs one step of the start; a failure becomes "`failure`: the error".
    private func step<T>(_ failure: String, _ body: () throws -> T) throws(StartFailure) -> T {
        do {
            return try body()
        } catch {
            throw StartFailure("\(failure): \(error)")
        }
    }

    // MARK: - Shutdown

    /// Stops every part started, in reverse order.
    private func shutdown() {
        // No more signals: what follows (the clipboard's hand-over) is not a change to
        // announce, and the bus is about to go.
        publisher?.mute()
        publisher = nil
        // The keys go back to the desktop before the daemon leaves it.
        keyService?.shutdown()
        keyService = nil
        remoteDesktop = nil
        portalRegistration = nil
        bus?.close()
        bus = nil
        replacementClaim?.close()
        replacementClaim = nil
        // Hands a copied text to a clipboard manager, if there is one.
        clipboard?.shutdown()
        clipboard = nil
        configured = nil
        // Closed on every way out, so that the store file alone holds every change.
        store?.close()
        store = nil
        storeLock = nil
        signals = nil
    }
}
