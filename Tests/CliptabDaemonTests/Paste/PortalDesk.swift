// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabContract
import DBus
import DaemonTestSupport
import Foundation
import Posix
import TestSupport

/// A GNOME-like Wayland session for pastes through the RemoteDesktop portal: headless
/// mutter with XWayland, a cliptabd with `XDG_CURRENT_DESKTOP=GNOME` (so it reads the
/// clipboard through XWayland and types into Wayland windows through the portal), the real
/// xdg-desktop-portal on the daemon's bus with a backend behind it, and a GTK 3 entry on
/// Wayland with the focus.
///
/// The backend is the real xdg-desktop-portal-gnome (everything on one bus, as it needs
/// mutter's remote-desktop API on its own; its consent dialog is answered with keys from a
/// remote-desktop session of mutter's that the test holds), or `RemoteDesktopTestBackend`
/// (its consent a file; it types through mutter on mutter's bus).
///
/// With `shortcuts`, `GlobalShortcutsTestBackend` answers the portal's GlobalShortcuts too
/// (its `.portal` file beside the RemoteDesktop backend's: xdg-desktop-portal 1.16 picks
/// each interface's backend by the `Interfaces` of the files that are `UseIn` the desktop).
final class PortalDesk {
    /// Which backend answers behind xdg-desktop-portal.
    enum Backend {
        /// xdg-desktop-portal-gnome, with its dialog.
        case gnome
        /// `RemoteDesktopTestBackend`, answering `grant` or `refuse`.
        case test(consent: String)
        /// No xdg-desktop-portal: `RemoteDesktopTestFrontend` in its place, a version 2
        /// portal with restore tokens.
        case tokenFrontend
    }

    let mutter: HeadlessCompositor
    let x11: [String: String]
    let daemon: DaemonProcess
    let state: TemporaryDirectory
    private var helpers: [ChildProcess] = []
    private let entry: ChildProcess
    private var owner: ChildProcess?
    /// Sends keys through mutter's remote-desktop API (`.gnome`: to answer the dialog).
    private var keys: ChildProcess?
    /// The test backend (`.test`), whose consent `ask` keeps its dialog up until answered.
    private var dialog: ChildProcess?
    /// The stand-in frontend (`.tokenFrontend`), which closes its sessions on request.
    private var frontend: ChildProcess?
    /// The GlobalShortcuts test backend (`shortcuts`), which acts as the desktop's keys.
    private var shortcutsBackend: ChildProcess?
    /// The real xdg-desktop-portal, and its environment (to start it again).
    private var portal: ChildProcess?
    private var portalEnvironment: [String: String] = [:]
    private let fieldPath: String

    /// The daemon's configuration unless a test gives its own: an idle RemoteDesktop session
    /// is kept for ten minutes, longer than any test (the idle tests set their own).
    static let defaultConfig = "[log]\nlevel = debug\n[paste_to_focus]\nportal_idle_ms = 600000\n"

    /// Starts everything with `backend`, the daemon with `config`; with `shortcuts`, the
    /// GlobalShortcuts test backend too, its dialog giving `answer` (`grant` or another).
    ///
    /// The portal needs the daemon's bus, so the daemon starts first, and the `[keys]`
    /// section `keys` is added to its cliptab.conf with a reload once the portal runs: at
    /// its start the daemon would have D-Bus activated the system's portal (the private bus
    /// has the session's service files), which has no GlobalShortcuts backend here.
    init(
        _ backend: Backend, config: String = defaultConfig, shortcuts: (answer: String, keys: String)? = nil
    ) throws {
        guard let python = python(running: "import gi; from gi.repository import Gio") else {
            throw FixtureError("python3 with GObject introspection is missing (python3-gi)")
        }
        let shared: PrivateBus?
        if case .gnome = backend { shared = try PrivateBus() } else { shared = nil }
        mutter = try HeadlessCompositor(.mutter, bus: shared)
        x11 = try mutter.xwaylandEnvironment()
        daemon = try DaemonProcess(
            bus: shared, config: config,
            environment: x11.merging(["WAYLAND_DISPLAY": mutter.socketPath, "XDG_CURRENT_DESKTOP": "GNOME"]) {
                $1
            },
            homePrefix: "cliptab-portal")
        state = try TemporaryDirectory(prefix: "cliptab-portal-state")
        let portals = state.appending("portals")
        try FileManager.default.createDirectory(atPath: portals, withIntermediateDirectories: true)
        var environment = daemon.environment
        environment["XDG_CURRENT_DESKTOP"] = "GNOME"
        let client = daemon.client
        switch backend {
        case .gnome:
            let keys = try ChildProcess.spawn(
                python, ["-c", Self.keysScript],
                environment: mutter.environment(["DBUS_SESSION_BUS_ADDRESS": daemon.bus.address]),
                stdin: .pipe, stderr: .null)
            self.keys = keys
            helpers.append(keys)
            guard keys.readLine(timeoutMilliseconds: 20_000) == "ready" else {
                throw FixtureError("no remote-desktop session of mutter's for the test's keys")
            }
            let gnome = try ChildProcess.spawn(
                "/usr/libexec/xdg-desktop-portal-gnome", ["--replace"],
                environment: mutter.environment([
                    "DBUS_SESSION_BUS_ADDRESS": daemon.bus.address, "XDG_CURRENT_DESKTOP": "GNOME",
                ]), stdout: .null, stderr: .null)
            helpers.append(gnome)
            try waitFor("xdg-desktop-portal-gnome on the bus", milliseconds: 20_000) {
                guard gnome.isRunning else { throw FixtureError("xdg-desktop-portal-gnome ended early") }
                return Self.hasOwner("org.freedesktop.impl.portal.desktop.gnome", on: client)
            }
            try FileManager.default.copyItem(
                atPath: "/usr/share/xdg-desktop-portal/portals/gnome.portal",
                toPath: "\(portals)/gnome.portal")
        case .test(let consent):
            try consent.write(toFile: state.appending("consent"), atomically: true, encoding: .utf8)
            let started = try Self.startStandIn(
                python, RemoteDesktopTestBackend.script, [daemon.bus.address, mutter.busAddress, state.path],
                stdin: .pipe)
            helpers.append(started.child)
            dialog = started.child
            guard started.ready else {
                throw FixtureError(
                    "the portal test backend did not start: \(Self.read(state.appending("backend.log")))")
            }
            try RemoteDesktopTestBackend.portalFile.write(
                toFile: "\(portals)/cliptabtest.portal", atomically: true, encoding: .utf8)
        case .tokenFrontend:
            let started = try Self.startStandIn(
                python, RemoteDesktopTestFrontend.script,
                [daemon.bus.address, mutter.busAddress, state.path],
                stdin: .pipe)
            helpers.append(started.child)
            frontend = started.child
            guard started.ready else {
                throw FixtureError("the stand-in portal frontend did not start")
            }
        }
        if let shortcuts {
            let keysState = state.appending("keys")
            try FileManager.default.createDirectory(atPath: keysState, withIntermediateDirectories: true)
            try shortcuts.answer.write(toFile: "\(keysState)/answer", atomically: true, encoding: .utf8)
            let started = try Self.startStandIn(
                python, GlobalShortcutsTestBackend.script, [daemon.bus.address, keysState], stdin: .pipe)
            helpers.append(started.child)
            shortcutsBackend = started.child
            guard started.ready else { throw FixtureError("the GlobalShortcuts test backend did not start") }
            try GlobalShortcutsTestBackend.portalFile.write(
                toFile: "\(portals)/cliptabkeys.portal", atomically: true, encoding: .utf8)
        }
        if case .tokenFrontend = backend {
        } else {
            portal = try Self.startFrontend(environment, portals: portals, client: client)
            portalEnvironment = environment
        }
        if let shortcuts {
            try daemon.rewriteConfig(config + shortcuts.keys)
            let problems = try daemon.reload()
            guard problems.isEmpty else { throw FixtureError("the reload found problems: \(problems)") }
        }
        fieldPath = state.appending("field.txt")
        entry = try ChildProcess.spawn(
            // It prints `in` and `out` as its window gets and loses the keyboard focus.
            python, ["-c", HelperPrograms.source("gtk_entry.py"), fieldPath, "portal paste target", "focus"],
            environment: mutter.environment(["GDK_BACKEND": "wayland"]),
            stderr: .null)
        guard entry.readLine(timeoutMilliseconds: 20_000) == "in" else {
            throw FixtureError("the GTK entry did not get the focus on mutter")
        }
        try daemon.call("CreateTable", [s("t")])
    }

    /// Starts one of the desk's Python stand-ins (`script` with `arguments`) and waits for it
    /// to say "ready" (at most 20 s); `ready` false when it did not.
    static func startStandIn(
        _ python: String, _ script: String, _ arguments: [String], stdin: ChildProcess.Stream = .null
    ) throws -> (child: ChildProcess, ready: Bool) {
        let child = try ChildProcess.spawn(
            python, ["-c", script] + arguments,
            environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"],
            stdin: stdin, stderr: .null)
        return (child, child.readLine(timeoutMilliseconds: 20_000) == "ready")
    }

    /// Starts the real xdg-desktop-portal, told of no portal but the desk's in `portals`,
    /// and waits until it owns its name.
    static func startFrontend(_ base: [String: String], portals: String, client: BusConnection) throws
        -> ChildProcess
    {
        var environment = base
        environment["XDG_DESKTOP_PORTAL_DIR"] = portals
        let portal = try ChildProcess.spawn(
            "/usr/libexec/xdg-desktop-portal", [], environment: environment, stdout: .null, stderr: .null)
        try waitFor("xdg-desktop-portal on the bus", milliseconds: 20_000) {
            guard portal.isRunning else { throw FixtureError("xdg-desktop-portal ended early") }
            return hasOwner(RemoteDesktopPortalName.desktop, on: client)
        }
        return portal
    }

    deinit {
        owner?.terminate()
        entry.terminate()
        portal?.terminate()
        for helper in helpers.reversed() { helper.terminate() }
        daemon.stop()
    }

    /// Starts `PasteToFocusWithReason` of row `row` without waiting; the function returned
    /// waits at most the milliseconds it is given for the reply (nil: none came).
    func startPaste(_ row: Int32) throws -> (UInt64) throws -> (delivered: Bool, reason: String)? {
        let message = try BusMessage.methodCall(
            destination: CliptabBus.name, path: CliptabBus.path, interface: CliptabBus.interface,
            member: "PasteToFocusWithReason")
        try message.append([s("t"), i(0), i(row), .uint32(DaemonProcess.pasteDeadlineMilliseconds)])
        var outcome: Result<BusMessage, BusError>?
        let call = try daemon.client.call(message, timeoutMilliseconds: 60_000) { outcome = $0 }
        return { milliseconds in
            guard call.wait(until: MonotonicClock.milliseconds() + milliseconds) else { return nil }
            let reply = try outcome?.get().readValues() ?? []
            guard case .boolean(let delivered)? = reply.first, case .string(let reason)? = reply.last else {
                throw FixtureError("PasteToFocusWithReason answered \(reply)")
            }
            return (delivered, reason)
        }
    }

    /// Waits until the entry loses the focus (a dialog took it), at most 20 s.
    func waitForDialog() throws {
        guard entry.readLine(timeoutMilliseconds: 20_000) == "out" else {
            throw FixtureError("no dialog took the focus from the entry within 20 s")
        }
    }

    /// Waits until the test backend's dialog is up (consent `ask`), at most 20 s.
    func waitForConsentDialog() throws {
        guard dialog?.readLine(timeoutMilliseconds: 20_000) == "asked" else {
            throw FixtureError("the test backend asked no consent within 20 s: \(backendLog)")
        }
    }

    /// Answers the test backend's dialog with `answer` (`grant`, or anything else to refuse),
    /// and waits until it has answered the portal.
    func answerConsent(_ answer: String) throws {
        guard let dialog else { throw FixtureError("this desk has no test backend") }
        try dialog.write(Array((answer + "\n").utf8))
        guard dialog.readLine(timeoutMilliseconds: 20_000) == "answered" else {
            throw FixtureError("the test backend did not answer its dialog: \(backendLog)")
        }
    }

    /// Has the GlobalShortcuts test backend act as the desktop (`activate ID`, `deactivate
    /// ID`, ...), and waits until it did.
    func desktop(_ command: String) throws {
        try ShortcutsDesk.drive(shortcutsBackend, command) { shortcutsLog }
    }

    /// Ends xdg-desktop-portal and waits until its name has no owner, as a portal that
    /// crashed or was upgraded.
    func stopPortal() throws {
        portal?.terminate()
        portal = nil
        try waitFor("xdg-desktop-portal to leave the bus", milliseconds: 20_000) {
            !Self.hasOwner(RemoteDesktopPortalName.desktop, on: daemon.client)
        }
    }

    /// Starts xdg-desktop-portal again (after `stopPortal`).
    func startPortal() throws {
        portal = try Self.startFrontend(
            portalEnvironment, portals: state.appending("portals"), client: daemon.client)
    }

    /// The GlobalShortcuts test backend's record of the calls it got.
    var shortcutsLog: String { Self.read(state.appending("keys/backend.log")) }

    /// Has the stand-in frontend close every session, as the desktop does at the screen lock,
    /// and waits until it did.
    func closeSessionsAsTheDesktop() throws {
        guard let frontend else { throw FixtureError("this desk has no stand-in frontend") }
        try frontend.write(Array("close\n".utf8))
        guard frontend.readLine(timeoutMilliseconds: 10_000) == "closed" else {
            throw FixtureError("the stand-in frontend did not close its sessions: \(frontendLog)")
        }
    }

    /// Types `chords` (keysyms in hexadecimal, `+` between the keys of a chord) through the
    /// test's own remote-desktop session of mutter's.
    func type(_ chords: [String]) throws {
        guard let keys else { throw FixtureError("this desk has no key helper") }
        for chord in chords {
            try keys.write(Array((chord + "\n").utf8))
            guard keys.readLine(timeoutMilliseconds: 10_000) == "sent" else {
                throw FixtureError("the key helper did not send \(chord)")
            }
        }
    }

    /// Appends `text` to table "t" as row `row`.
    func add(_ text: String, row: Int32) throws {
        try daemon.call("InsertRow", [s("t"), i(0), i(row), s(text)])
    }

    /// `PasteToFocusWithReason` of row `row`: delivered and why not.
    func paste(_ row: Int32) throws -> (delivered: Bool, reason: String) {
        let outcome = try daemon.cliptab(timeout: 60_000).pasteToFocusWithReason(
            TableCell("t", section: 0, row: row), timeout: DaemonProcess.pasteDeadlineMilliseconds)
        return (outcome.delivered, outcome.reason)
    }

    /// Makes an X11 program (xclip) own the clipboard with `text`, as another program's copy.
    func ownClipboard(_ text: String) throws {
        owner?.terminate()
        owner = try ChildProcess.spawn(
            "/bin/sh", ["-c", "printf %s \"$1\" | exec xclip -quiet -selection clipboard -i", "sh", text],
            environment: mutter.environment(x11), stdout: .null, stderr: .null)
        try waitFor("xclip to own the clipboard") { try clipboard() == text }
    }

    /// The clipboard's text, as an X11 program reads it.
    func clipboard() throws -> String? {
        let read = try mutter.run("xclip", ["-selection", "clipboard", "-o"], environment: x11)
        return read.termination == .exited(0) ? read.outputText : nil
    }

    /// The GTK entry's text.
    var field: String { Self.read(fieldPath) }

    /// The stand-in frontend's record of the calls it got.
    var frontendLog: String { Self.read(state.appending("frontend.log")) }

    /// The answers the backend's dialog gave, one per `Start` that asked.
    var consents: [String] {
        Self.read(state.appending("consents.log")).split(separator: "\n").map(String.init)
    }

    /// The backend's record of the calls it got.
    var backendLog: String { Self.read(state.appending("backend.log")) }

    private static func read(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    /// True when `name` has an owner on `bus`.
    static func hasOwner(_ name: String, on bus: BusConnection) -> Bool {
        guard
            let message = try? BusMessage.methodCall(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                interface: "org.freedesktop.DBus",
                member: "NameHasOwner")
        else { return false }
        try? message.append([s(name)])
        return (try? bus.call(message, timeoutMilliseconds: 5_000).readValues()) == [.boolean(true)]
    }

}

extension PortalDesk {
    /// Holds a remote-desktop session of mutter's (which gives the headless seat a keyboard)
    /// and types the chords read from standard input, one line each: keysyms in hexadecimal,
    /// `+` between the keys of a chord; prints `ready`, then `sent` after each line.
    static let keysScript = HelperPrograms.source("mutter_keys.py")
}

/// The names of the portal's D-Bus API.
enum RemoteDesktopPortalName {
    /// The frontend's bus name.
    static let desktop = "org.freedesktop.portal.Desktop"
}
