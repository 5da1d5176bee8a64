// SPDX-License-Identifier: MIT
import CliptabDaemon
import DBus
import DaemonTestSupport
import Foundation
import Glibc
import Posix
import TestSupport

/// The GlobalShortcuts binder in this process on a private session bus.
///
/// As cliptabd runs it on its connection: the real xdg-desktop-portal (1.16, GNOME's portal
/// selection) with `GlobalShortcutsTestBackend` behind it, or `HostRegistryTestFrontend` (a newer portal's
/// host registry) in its place. The test drives the connection (`pump`), as the daemon's
/// loop does.
final class ShortcutsDesk {
    /// Which portal answers.
    enum Portal {
        /// xdg-desktop-portal 1.16 with the test backend, whose dialog gives `answer`.
        case real(answer: String)
        /// The stand-in of a portal with the host registry.
        case registry
    }

    let bus: PrivateBus
    let home: TemporaryDirectory
    let state: TemporaryDirectory
    /// The binder's connection, as cliptabd's.
    let connection: BusConnection
    let registration: PortalHostRegistration
    private(set) var binder: GlobalShortcutsBinder!
    /// Every key event reported, in order.
    private(set) var events: [KeyEvent] = []
    /// Every state report, in order.
    private(set) var reports: [[String: KeyBindingState]] = []
    private var helpers: [ChildProcess] = []
    private var backend: ChildProcess?

    /// Starts the bus and `portal`, and makes the binder.
    init(_ portal: Portal) throws {
        guard let python = python(running: "import gi; from gi.repository import Gio") else {
            throw FixtureError("python3 with GObject introspection is missing (python3-gi)")
        }
        bus = try PrivateBus()
        home = try TemporaryDirectory(prefix: "cliptab-keys-portal")
        state = try TemporaryDirectory(prefix: "cliptab-keys-state")
        guard mkdir(DaemonProcess.runtimeDirectory(of: home), 0o700) == 0 else {
            throw FixtureError("cannot make the runtime directory")
        }
        connection = try BusConnection.connect(address: bus.address)
        switch portal {
        case .real(let answer):
            try answer.write(toFile: state.appending("answer"), atomically: true, encoding: .utf8)
            let started = try PortalDesk.startStandIn(
                python, GlobalShortcutsTestBackend.script, [bus.address, state.path], stdin: .pipe)
            helpers.append(started.child)
            backend = started.child
            guard started.ready else { throw FixtureError("the GlobalShortcuts test backend did not start") }
            let portals = state.appending("portals")
            try FileManager.default.createDirectory(atPath: portals, withIntermediateDirectories: true)
            try GlobalShortcutsTestBackend.portalFile.write(
                toFile: "\(portals)/cliptabkeys.portal", atomically: true, encoding: .utf8)
            var environment = DaemonProcess.environment(bus: bus, home: home)
            environment["XDG_CURRENT_DESKTOP"] = "GNOME"
            helpers.append(try PortalDesk.startFrontend(environment, portals: portals, client: connection))
        case .registry:
            let started = try PortalDesk.startStandIn(
                python, HostRegistryTestFrontend.script, [bus.address, state.path])
            helpers.append(started.child)
            guard started.ready else { throw FixtureError("the host registry stand-in did not start") }
        }
        registration = PortalHostRegistration(bus: connection)
        binder = GlobalShortcutsBinder(
            bus: connection, registration: registration, events: { [unowned self] in events.append($0) },
            states: { [unowned self] in reports.append($0) })
    }

    deinit {
        connection.close()
        for helper in helpers.reversed() { helper.terminate() }
    }

    /// The states last reported.
    var states: [String: KeyBindingState] { reports.last ?? [:] }

    /// Runs the connection, as cliptabd's loop does, until `condition` holds; false when it
    /// did not within `milliseconds`.
    @discardableResult
    func pump(within milliseconds: UInt64 = 20_000, until condition: () -> Bool) -> Bool {
        let deadline = MonotonicClock.milliseconds() + milliseconds
        while !condition() {
            guard MonotonicClock.milliseconds() < deadline else { return false }
            BusPollTurn.run([connection], timeoutMilliseconds: 100)
        }
        return true
    }

    /// Has the test backend act as the desktop (`activate ID`, `deactivate ID`, `change ID
    /// TRIGGER`, `close`), and waits until it did.
    func desktop(_ command: String) throws {
        try Self.drive(backend, command) { backendLog }
    }

    /// Has the GlobalShortcuts test backend `backend` do `command` and waits until it did;
    /// `log` is its record, for the error.
    static func drive(_ backend: ChildProcess?, _ command: String, log: () -> String) throws {
        guard let backend else { throw FixtureError("this desk has no GlobalShortcuts test backend") }
        try backend.write(Array((command + "\n").utf8))
        guard backend.readLine(timeoutMilliseconds: 30_000) == "done" else {
            throw FixtureError("the GlobalShortcuts test backend did not do \(command): \(log())")
        }
    }

    /// The backend's record of the calls it got.
    var backendLog: String { Self.read(state.appending("backend.log")) }

    /// The registry stand-in's record of the calls it got.
    var frontendLog: String { Self.read(state.appending("frontend.log")) }

    private static func read(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }
}
