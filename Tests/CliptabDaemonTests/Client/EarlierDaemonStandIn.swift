// SPDX-License-Identifier: MIT
import Posix
import TestSupport

/// A cliptabd of an earlier API version, as a daemon still running from before an upgrade
/// is: a GDBus object on a private bus that serves only the methods its script declares.
final class EarlierDaemonStandIn {
    let bus: PrivateBus
    let home: TemporaryDirectory
    /// The environment a client of the stand-in runs in: its bus and a home of its own.
    let environment: [String: String]
    private let process: ChildProcess

    /// Starts the stand-in: `script` is Python that defines `xml` (the interface
    /// `io.github.cliptab.Cliptab1` it serves) and `call` (GDBus's method handler); the
    /// object's registration and the bus name are added here.
    init(homePrefix: String, script: String) throws {
        guard let python = python(running: "from gi.repository import Gio") else {
            throw FixtureError("python3 with GObject introspection is missing (python3-gi)")
        }
        bus = try PrivateBus()
        home = try TemporaryDirectory(prefix: homePrefix)
        environment = [
            "DBUS_SESSION_BUS_ADDRESS": bus.address, "HOME": home.path,
            "XDG_RUNTIME_DIR": home.path, "PATH": "/usr/bin:/bin",
        ]
        process = try ChildProcess.spawn(
            python, ["-c", script + "\n" + Self.serve], environment: environment, stdout: .pipe, stderr: .null
        )
        guard process.readLine(timeoutMilliseconds: 20_000) == "ready" else {
            process.terminate(graceMilliseconds: 500)
            throw FixtureError("the stand-in daemon did not take its name")
        }
    }

    deinit { process.terminate(graceMilliseconds: 500) }

    /// Runs the built `cliptab` with `arguments` against the stand-in.
    func cliptab(_ arguments: [String]) throws -> CommandResult {
        try ChildProcess.run(
            BuiltProducts.path(of: "cliptab"), arguments, environment: environment,
            timeoutMilliseconds: 20_000)
    }

    /// Registers the script's object and takes cliptabd's name, then says "ready".
    private static let serve = """
        from gi.repository import Gio, GLib
        bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
        bus.register_object(
            '/io/github/cliptab/Cliptab1', Gio.DBusNodeInfo.new_for_xml(xml).interfaces[0], call, None, None)
        Gio.bus_own_name_on_connection(
            bus, 'io.github.cliptab.Cliptab1', Gio.BusNameOwnerFlags.NONE,
            lambda *_: print('ready', flush=True), None)
        GLib.MainLoop().run()
        """
}
