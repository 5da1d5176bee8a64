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
/// `start` reads top-down, each step needing the ones before it: the signal channel; the
/// store's lock (with `--replace`, after making the running daemon stop) and the store; the
/// bus connection and the publisher of changes on it; the services under the configuration
/// (`DaemonServices`: tables, clipboard, search, keys); their objects on the bus; the linked
/// tables' follower; last the bus name, so that no call arrives before everything is ready;
/// then the loop over every source. Each concern's steps are in a file of their own
/// (`Daemon+Store`, `+Bus`, `+Clipboard`, `+Keys`, `+LinkedTables`).
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

    /// The command line's options.
    let options: DaemonOptions
    /// The one reader of the configuration file.
    let configurator: Configurator
    /// Looks up the variables that name the session's displays and desktop (`SessionPlan`).
    let environment: (String) -> String?
    /// The daemon's one clock (milliseconds), given to every part that keeps time.
    let clock: () -> UInt64 = MonotonicClock.milliseconds

    // The parts, in the order they start; `shutdown()` stops them in reverse.
    private var signals: SignalChannel?
    /// The data directory's lock, held while the store is open.
    var storeLock: StoreLock?
    /// With `--replace`, the connection that took the bus name from the running daemon, held
    /// until `bus` owns the name: the name is never ownerless in between, so the replaced
    /// daemon, asking who took it, finds this cliptabd and stops cleanly.
    var replacementClaim: BusConnection?
    /// The store of the tables.
    var store: SQLiteStore?
    /// The connection to the session bus.
    var bus: BusConnection?
    private var publisher: SignalPublisher?
    /// The app id's registration with the desktop portal, shared by the portal clients of
    /// `bus` (made with the first of them).
    var portalRegistration: PortalHostRegistration?
    /// The RemoteDesktop portal's client where the session types through it: a source of
    /// the loop for its idle time.
    var remoteDesktop: RemoteDesktopPortal?
    /// XTEST into XWayland's windows in a Wayland session: its X connection is a loop source.
    var xwayland: XWaylandKeyInjector?
    private var clipboard: ClipboardPolicy?
    private var services: DaemonServices?
    /// Opens `cliptab menu` for GNOME Shell's `LaunchSearch`.
    private let menuLauncher: MenuLauncher
    /// Opens `cliptab menu` and `cliptab pick` for the keys of `[keys]`.
    let keyLauncher: MenuLauncher
    /// Set when another daemon took the bus name over: the loop then ends.
    var replaced = false

    /// Makes a daemon for `options`; `environment` looks up the variables that place the
    /// configuration file and name the display.
    public init(options: DaemonOptions, environment: @escaping (String) -> String? = ConfigLocation.variable)
    {
        self.options = options
        configurator = Configurator(
            path: options.configPath ?? ConfigLocation.defaultPath(environment: environment),
            isExplicit: options.configPath != nil, overrides: options.overrides, environment: environment)
        self.environment = environment
        menuLauncher = MenuLauncher(clock: clock)
        keyLauncher = MenuLauncher(clock: clock)
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
    /// SIGHUP comes here, and the `Reload` method to the same `DaemonServices.reload()`.
    public func reload() -> [String] { services?.reload() ?? [] }

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
        // The bus before the services: the publisher on it announces the tables' and the
        // clipboard's changes from the start.
        let bus = try step("Failed to connect to the session bus") {
            try BusConnection.connect(elementLimit: Self.elementLimit(configuration.limits))
        }
        self.bus = bus
        let publisher = SignalPublisher(bus: bus)
        self.publisher = publisher
        let links = linkedTables(configuration)
        let tables = TableService(
            catalog: store.catalog, persistence: store.store, limits: configuration.limits,
            documentCodec: TableFileCodec(), mirror: links, announce: publisher.announce(_:catalog:))
        let services = try DaemonServices(
            configurator: configurator, configuration: configuration, tables: tables, links: links,
            environment: environment,
            openMenu: { [menuLauncher] words, table in try menuLauncher.open(words: words, table: table) },
            makeClipboard: { settings in
                let clipboard = makeClipboard(
                    settings, configuration: configuration, bus: bus, announcer: publisher)
                self.clipboard = clipboard
                return clipboard
            }, makeKeys: { service, board in makeKeys(configuration, service: service, board: board) })
        self.services = services
        try register(services, on: bus)
        try watchCallers(on: bus, clipboard: services.service.clipboard)
        // The files lead: the tables equal them before any client can call.
        let follower = LinkedTableFollower(tables: tables, links: links, watch: watchFolder())
        follower.start()
        try ownName(on: bus)
        replacementClaim?.close()
        replacementClaim = nil
        Log.line(
            "serving \(CliptabBus.name) with \(tables.catalog.tables.count) tables from \(store.store.path) (durability \(configuration.durability.rawValue))"
        )
        let sources: [PollSource?] = [
            clipboard, remoteDesktop, xwayland, menuLauncher, keyLauncher, follower, services.keys?.source,
        ]
        return EventLoop(
            bus: bus, signals: signals, sources: sources.compactMap { $0 }, clock: clock,
            shouldStop: { [unowned self] in replaced }, reload: { [unowned self] in _ = reload() })
    }

    // MARK: - Shutdown

    /// Stops every part started, in reverse order.
    private func shutdown() {
        // No more signals: what follows (the clipboard's hand-over) is not a change to
        // announce, and the bus is about to go.
        publisher?.mute()
        publisher = nil
        // The keys go back to the desktop before the daemon leaves it.
        services?.keys?.shutdown()
        remoteDesktop = nil
        portalRegistration = nil
        bus?.close()
        bus = nil
        replacementClaim?.close()
        replacementClaim = nil
        // Hands a copied text to a clipboard manager, if there is one.
        clipboard?.shutdown()
        clipboard = nil
        services = nil
        // Closed on every way out, so that the store file alone holds every change.
        store?.close()
        store = nil
        storeLock = nil
        signals = nil
    }
}
