// SPDX-License-Identifier: MIT
import Foundation
import Posix

/// A headless GNOME or Plasma compositor for one test: `mutter --headless` (with its
/// XWayland) or `kwin_wayland --virtual`, in a private `XDG_RUNTIME_DIR` with a private
/// session bus, run as the test's user (neither refuses root, unlike sway).
///
/// They are the other implementations of what cliptabd meets on Wayland: mutter offers no
/// data-control and bridges X11 (cliptabd must choose X11 and say why); KWin 5.27 offers
/// `zwlr_data_control_manager_v1` with a code base of its own.
public final class HeadlessDesktop {
    /// Which compositor.
    public enum Compositor: String, Sendable {
        /// GNOME's, `mutter --wayland --headless --virtual-monitor 1280x800`, with XWayland.
        case mutter
        /// Plasma's, `kwin_wayland --virtual`, without XWayland.
        case kwin
    }

    /// The compositor process.
    public let process: ChildProcess
    /// Its log (standard output and error).
    public let logPath: String
    /// The private `XDG_RUNTIME_DIR`.
    public let runtimeDirectory: String
    /// The socket's name in `runtimeDirectory`.
    public let socketName: String
    private let bus: PrivateBus
    private let directory: TemporaryDirectory
    private let home: String

    /// The address of the session bus the compositor serves its D-Bus APIs on (mutter's
    /// `org.gnome.Mutter.RemoteDesktop`).
    public var busAddress: String { bus.address }

    /// The absolute path of the compositor's socket, a `WAYLAND_DISPLAY` for any process.
    public var socketPath: String { "\(runtimeDirectory)/\(socketName)" }

    /// Starts `compositor` and waits at most `timeoutMilliseconds` for its socket.
    ///
    /// `bus` is the session bus to serve its D-Bus APIs on, shared with the programs of a
    /// test (xdg-desktop-portal-gnome needs mutter's on its own bus); nil starts a private one.
    public init(_ compositor: Compositor, bus shared: PrivateBus? = nil, timeoutMilliseconds: Int = 60_000)
        throws
    {
        X11SocketDirectory.ensure()
        directory = try TemporaryDirectory(prefix: "cliptab-\(compositor.rawValue)")
        runtimeDirectory = directory.appending("runtime")
        home = directory.appending("home")
        for path in [runtimeDirectory, home] where mkdir(path, 0o700) != 0 {
            throw FixtureError("cannot make \(path): \(String(cString: strerror(errno)))")
        }
        logPath = directory.appending("\(compositor.rawValue).log")
        var environment = HeadlessSway.baseEnvironment(home: home, runtime: runtimeDirectory)
        bus = try shared ?? PrivateBus(environment: environment)
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        let command: [String]
        switch compositor {
        case .mutter:
            command = ["mutter", "--wayland", "--headless", "--virtual-monitor", "1280x800"]
        case .kwin:
            // Debian gives kwin_wayland file capabilities, which a container without them in
            // its bounding set refuses to execute; a copy carries none.
            let copy = directory.appending("kwin_wayland")
            try FileManager.default.copyItem(atPath: "/usr/bin/kwin_wayland", toPath: copy)
            command = [
                copy, "--virtual", "--socket", "wayland-cliptab", "--no-lockscreen", "--no-global-shortcuts",
            ]
        }
        process = try ChildProcess.spawn(
            "/bin/sh",
            ["-c", "exec \(command.map(shellQuoted).joined(separator: " ")) >\(shellQuoted(logPath)) 2>&1"],
            environment: environment, stdout: .null, stderr: .null)
        let deadline = MonotonicClock.milliseconds() + UInt64(timeoutMilliseconds)
        do {
            socketName = try HeadlessSway.waitForSocket(
                in: runtimeDirectory, of: process, compositor: compositor.rawValue, logPath: logPath,
                until: deadline)
        } catch {
            bus.stop()
            throw error
        }
    }

    deinit {
        process.terminate(graceMilliseconds: 2000)
        bus.stop()
    }

    /// The environment of a program in the session: `PATH`, `HOME`, `XDG_RUNTIME_DIR`,
    /// `WAYLAND_DISPLAY`, a UTF-8 locale, no X11 display, then `extra`.
    public func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = HeadlessSway.baseEnvironment(home: home, runtime: runtimeDirectory)
        environment["WAYLAND_DISPLAY"] = socketName
        environment.merge(extra) { $1 }
        return environment
    }

    /// Runs `executable` to its end in the session, feeding it `input`.
    public func run(
        _ executable: String, _ arguments: [String] = [], environment extra: [String: String] = [:],
        input: [UInt8]? = nil, timeoutMilliseconds: Int = 30_000
    ) throws -> CommandResult {
        try ChildProcess.run(
            executable, arguments, environment: environment(extra), input: input,
            timeoutMilliseconds: timeoutMilliseconds)
    }

    /// mutter's XWayland: `DISPLAY` (the public display its log names) and `XAUTHORITY`
    /// (the cookie it writes in the runtime directory); waits at most `timeoutMilliseconds`.
    public func xwaylandEnvironment(timeoutMilliseconds: Int = 30_000) throws -> [String: String] {
        let deadline = MonotonicClock.milliseconds() + UInt64(timeoutMilliseconds)
        while MonotonicClock.milliseconds() < deadline {
            let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            let names = (try? FileManager.default.contentsOfDirectory(atPath: runtimeDirectory)) ?? []
            if let range = log.range(of: "Using public X11 display "),
                let display = log[range.upperBound...].split(whereSeparator: { $0 == "," || $0 == "\n" })
                    .first,
                let cookie = names.first(where: { $0.hasPrefix(".mutter-Xwaylandauth.") })
            {
                return ["DISPLAY": String(display), "XAUTHORITY": "\(runtimeDirectory)/\(cookie)"]
            }
            usleep(5000)
        }
        throw FixtureError("the compositor named no X11 display in \(timeoutMilliseconds) ms")
    }
}
