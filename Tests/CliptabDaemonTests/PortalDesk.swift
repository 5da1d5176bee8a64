// SPDX-License-Identifier: MIT
import DBus
import DaemonTestSupport
import Foundation
import Posix
import TestSupport

/// A GNOME-like Wayland session for pastes through the RemoteDesktop portal: headless
/// mutter with XWayland, a cliptabd on a bus of its own (`XDG_CURRENT_DESKTOP=GNOME`, so it
/// reads the clipboard through XWayland and types into Wayland windows through the portal),
/// the real xdg-desktop-portal on that bus with `RemoteDesktopTestBackend` behind it (which
/// types into mutter), and a GTK 3 entry on Wayland with the focus.
final class PortalDesk {
    let mutter: HeadlessDesktop
    let x11: [String: String]
    let daemon: DaemonProcess
    let state: TemporaryDirectory
    private let backend: ChildProcess
    private let portal: ChildProcess
    private let entry: ChildProcess
    private var owner: ChildProcess?
    private let fieldPath: String

    /// Starts everything; `consent` is what the backend's dialog answers (`grant` or `refuse`).
    init(consent: String) throws {
        guard let python = python(running: "import gi; from gi.repository import Gio") else {
            throw FixtureError("python3 with GObject introspection is missing (python3-gi)")
        }
        mutter = try HeadlessDesktop(.mutter)
        x11 = try mutter.xwaylandEnvironment()
        daemon = try DaemonProcess(
            config: "[log]\nlevel = debug\n",
            environment: x11.merging(["WAYLAND_DISPLAY": mutter.socketPath, "XDG_CURRENT_DESKTOP": "GNOME"]) {
                $1
            },
            homePrefix: "cliptab-portal")
        state = try TemporaryDirectory(prefix: "cliptab-portal-state")
        try consent.write(toFile: state.appending("consent"), atomically: true, encoding: .utf8)
        backend = try ChildProcess.spawn(
            python,
            ["-c", RemoteDesktopTestBackend.script, daemon.bus.address, mutter.busAddress, state.path],
            environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"],
            stderr: .null)
        guard backend.readLine(timeoutMilliseconds: 20_000) == "ready" else {
            throw FixtureError(
                "the portal test backend did not start: \(Self.read(state.appending("backend.log")))")
        }
        // The real frontend, told of no portal but the test's.
        let portals = state.appending("portals")
        try FileManager.default.createDirectory(atPath: portals, withIntermediateDirectories: true)
        try RemoteDesktopTestBackend.portalFile.write(
            toFile: "\(portals)/cliptabtest.portal", atomically: true, encoding: .utf8)
        var environment = daemon.environment
        environment["XDG_CURRENT_DESKTOP"] = "GNOME"
        environment["XDG_DESKTOP_PORTAL_DIR"] = portals
        let portal = try ChildProcess.spawn(
            "/usr/libexec/xdg-desktop-portal", ["--verbose"], environment: environment, stdout: .null,
            stderr: .null)
        let client = daemon.client
        try waitFor("xdg-desktop-portal on the bus", milliseconds: 20_000) {
            guard portal.isRunning else { throw FixtureError("xdg-desktop-portal ended early") }
            return Self.hasOwner(RemoteDesktopPortalName.desktop, on: client)
        }
        self.portal = portal
        fieldPath = state.appending("field.txt")
        entry = try ChildProcess.spawn(
            python, ["-c", Self.entryScript, fieldPath],
            environment: mutter.environment(["GDK_BACKEND": "wayland"]),
            stderr: .null)
        guard entry.readLine(timeoutMilliseconds: 20_000) == "focused" else {
            throw FixtureError("the GTK entry did not get the focus on mutter")
        }
        try daemon.call("CreateTable", [s("t")])
    }

    deinit {
        owner?.terminate()
        entry.terminate()
        portal.terminate()
        backend.terminate()
        daemon.stop()
    }

    /// Appends `text` to table "t" as row `row`.
    func add(_ text: String, row: Int32) throws {
        try daemon.call("InsertRow", [s("t"), i(0), i(row), s(text)])
    }

    /// `PasteToFocusWithReason` of row `row`: delivered and why not.
    func paste(_ row: Int32) throws -> (delivered: Bool, reason: String) {
        let reply = try daemon.call(
            "PasteToFocusWithReason", [s("t"), i(0), i(row), .uint32(3000)], timeout: 30_000)
        guard case .boolean(let delivered)? = reply.first, case .string(let reason)? = reply.last else {
            throw FixtureError("PasteToFocusWithReason answered \(reply)")
        }
        return (delivered, reason)
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

    /// A GTK 3 entry that writes its text to a file after every change and prints `focused`
    /// once it has the keyboard focus.
    static let entryScript = """
        import sys, os, gi
        gi.require_version('Gtk', '3.0')
        from gi.repository import Gtk
        out = sys.argv[1]
        w = Gtk.Window(title='portal paste target')
        e = Gtk.Entry()
        w.add(e)
        def changed(entry):
            with open(out + '.tmp', 'w', encoding='utf-8') as f:
                f.write(entry.get_text())
            os.replace(out + '.tmp', out)
        e.connect('changed', changed)
        changed(e)
        said = []
        def focused(*args):
            if not said:
                said.append(1)
                print('focused', flush=True)
        w.connect('focus-in-event', focused)
        w.show_all()
        e.grab_focus()
        Gtk.main()
        """
}

/// The names of the portal's D-Bus API.
enum RemoteDesktopPortalName {
    /// The frontend's bus name.
    static let desktop = "org.freedesktop.portal.Desktop"
}
