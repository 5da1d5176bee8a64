// SPDX-License-Identifier: MIT
import Foundation
import Posix

/// A Wayland desktop for one test or suite: a headless compositor in a private
/// `XDG_RUNTIME_DIR` and home, its log kept, stopped by pid when released.
///
/// - `sway` (pixman renderer, no input devices, no bar, optionally XWayland) is the desktop
///   of most Wayland tests. sway refuses to run as root ("Unable to drop root"), and the
///   tests run as root in CI: as root the compositor and every program run in its session
///   are started as `user` (`SessionUser.forTests()`) through `setpriv`.
/// - `mutter` (GNOME's, `--headless --virtual-monitor 1280x800`, with XWayland) and `kwin`
///   (Plasma's, `--virtual`, without XWayland) are the other implementations of what
///   cliptabd meets on Wayland: mutter offers no data-control and bridges X11; KWin 5.27
///   offers `zwlr_data_control_manager_v1` with a code base of its own. They run as the
///   test's user, with a session bus for their D-Bus APIs.
///
/// The test process itself may connect to the compositor's socket (`socketPath`).
public final class HeadlessCompositor {
    /// Which compositor, and how it is set up.
    public enum Compositor: Sendable {
        /// sway with a generated configuration: `xwayland disable` unless `xwayland`, then
        /// the lines of `extraConfiguration`.
        case sway(xwayland: Bool = false, extraConfiguration: [String] = [])
        /// GNOME's, with XWayland.
        case mutter
        /// Plasma's, without XWayland.
        case kwin

        /// The compositor's name, for messages and file names.
        var name: String {
            switch self {
            case .sway: "sway"
            case .mutter: "mutter"
            case .kwin: "kwin"
            }
        }
    }

    /// The compositor process.
    public let process: ChildProcess
    /// Who runs the session.
    public let user: SessionUser
    /// The session's `XDG_RUNTIME_DIR` (mode 0700, owned by `user`).
    public let runtimeDirectory: String
    /// The session's home directory (owned by `user`).
    public let homeDirectory: String
    /// The name of the compositor's socket in `runtimeDirectory`, for `WAYLAND_DISPLAY`.
    public let socketName: String
    /// Where the compositor writes its log (for the messages of failures).
    public let logPath: String
    /// The session bus mutter and KWin serve their D-Bus APIs on; nil for sway.
    private let bus: PrivateBus?
    /// Whether `bus` was started here (and is stopped with the compositor).
    private let ownsBus: Bool
    private let directory: TemporaryDirectory

    /// The absolute path of the compositor's socket: a `WAYLAND_DISPLAY` that works without
    /// `XDG_RUNTIME_DIR`, for the test process itself.
    public var socketPath: String { "\(runtimeDirectory)/\(socketName)" }

    /// The address of the session bus mutter or KWin serves its D-Bus APIs on (mutter's
    /// `org.gnome.Mutter.RemoteDesktop`); empty for sway, which serves none.
    public var busAddress: String { bus?.address ?? "" }

    /// Starts `compositor` and waits at most `timeoutMilliseconds` until it serves.
    ///
    /// `bus` is the session bus mutter or KWin serves its D-Bus APIs on, shared with the
    /// programs of a test (xdg-desktop-portal-gnome needs mutter's on its own bus); nil starts
    /// a private one. sway gets none.
    public init(_ compositor: Compositor, bus shared: PrivateBus? = nil, timeoutMilliseconds: Int = 60_000)
        throws
    {
        X11SocketDirectory.ensure()
        if case .sway = compositor { user = try SessionUser.forTests() } else { user = SessionUser.current }
        directory = try TemporaryDirectory(prefix: "cliptab-\(compositor.name)")
        // The session user must reach the configuration and its own directories.
        chmod(directory.path, 0o755)
        runtimeDirectory = directory.appending("runtime")
        homeDirectory = directory.appending("home")
        for path in [runtimeDirectory, homeDirectory] {
            guard mkdir(path, 0o700) == 0, chown(path, user.uid, user.gid) == 0 else {
                throw FixtureError(
                    "cannot make \(path) for \(user.name): \(String(cString: strerror(errno)))")
            }
        }
        logPath = directory.appending("\(compositor.name).log")

        var environment = Self.baseEnvironment(home: homeDirectory, runtime: runtimeDirectory)
        let command: [String]
        switch compositor {
        case .sway(let xwayland, let extraConfiguration):
            let configuration = directory.appending("sway.conf")
            let lines = [xwayland ? "xwayland enable" : "xwayland disable"] + extraConfiguration
            try (lines.joined(separator: "\n") + "\n").write(
                toFile: configuration, atomically: true, encoding: .utf8)
            chmod(configuration, 0o644)
            environment["WLR_BACKENDS"] = "headless"
            environment["WLR_LIBINPUT_NO_DEVICES"] = "1"
            environment["WLR_RENDERER"] = "pixman"
            command = user.commandPrefix + ["sway", "-c", configuration]
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
        if case .sway = compositor {
            bus = nil
        } else {
            bus = try shared ?? PrivateBus(environment: environment)
            environment["DBUS_SESSION_BUS_ADDRESS"] = bus?.address
        }
        ownsBus = shared == nil
        // The log is opened by the shell (as the test's user) before it becomes the compositor.
        let shell = [
            "-c", "exec \(command.map(shellQuoted).joined(separator: " ")) >\(shellQuoted(logPath)) 2>&1",
        ]
        let deadline = MonotonicClock.milliseconds() + UInt64(timeoutMilliseconds)
        var started: ChildProcess?
        let (runtime, log) = (runtimeDirectory, logPath)
        do {
            // XWayland takes the first free display number once the compositor serves (sway
            // reserves it for its lazy start): not one that a killed Xvfb is to get back.
            socketName = try VirtualDisplay.choosingDisplayNumber {
                let child = try ChildProcess.spawn(
                    "/bin/sh", shell, environment: environment, stdout: .null, stderr: .null)
                started = child
                return try Self.waitForSocket(
                    in: runtime, of: child, compositor: compositor.name, logPath: log, until: deadline)
            }
            process = started!
            if case .sway = compositor { try waitForIPC(until: deadline) }
        } catch {
            started?.terminate(graceMilliseconds: 2000)
            if ownsBus { bus?.stop() }
            throw error
        }
    }

    /// Waits until sway answers on its IPC socket.
    ///
    /// sway listens before its main loop runs, and a SIGTERM that comes before the loop is
    /// lost (stopping then took the full 2 s grace): an IPC answer shows the loop runs.
    private func waitForIPC(until deadline: UInt64) throws {
        while true {
            let answer = try? run("swaymsg", ["-t", "get_version"], environment: swaymsgEnvironment())
            if answer?.termination == .exited(0) { return }
            if !process.isRunning || MonotonicClock.milliseconds() >= deadline {
                throw FixtureError("sway did not answer on its IPC socket: \(log.suffix(2000))")
            }
            usleep(5000)
        }
    }

    /// What the compositor wrote to its log so far.
    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// The environment of a program in the session: `PATH`, `HOME`, `XDG_RUNTIME_DIR`,
    /// `WAYLAND_DISPLAY`, a UTF-8 locale, no X11 display and no session bus, then `extra`.
    public func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = Self.baseEnvironment(home: homeDirectory, runtime: runtimeDirectory)
        environment["WAYLAND_DISPLAY"] = socketName
        environment.merge(extra) { $1 }
        return environment
    }

    /// Starts `executable` as the session's user in the session (with `environment(extra)`).
    public func spawn(
        _ executable: String, _ arguments: [String] = [], environment extra: [String: String] = [:],
        stdin: ChildProcess.Stream = .null, stdout: ChildProcess.Stream = .pipe,
        stderr: ChildProcess.Stream = .pipe
    ) throws -> ChildProcess {
        let argv = user.commandPrefix + [executable] + arguments
        return try ChildProcess.spawn(
            argv[0], Array(argv.dropFirst()), environment: environment(extra), stdin: stdin, stdout: stdout,
            stderr: stderr)
    }

    /// Runs `executable` to its end as the session's user in the session, feeding it `input`.
    public func run(
        _ executable: String, _ arguments: [String] = [], environment extra: [String: String] = [:],
        input: [UInt8]? = nil, timeoutMilliseconds: Int = 30_000
    ) throws -> CommandResult {
        let argv = user.commandPrefix + [executable] + arguments
        return try ChildProcess.run(
            argv[0], Array(argv.dropFirst()), environment: environment(extra), input: input,
            timeoutMilliseconds: timeoutMilliseconds)
    }

    /// Puts `bytes` on the clipboard (or the primary selection) with `wl-copy`, as `type`
    /// when given; returns once wl-copy owns it (its serving child stays in the session).
    ///
    /// wl-copy forks once the compositor has taken its selection, and the child keeps the
    /// standard streams it was given: they go to /dev/null, so that waiting for the parent
    /// is enough.
    public func copy(
        _ bytes: [UInt8], type: String? = nil, primary: Bool = false, timeoutMilliseconds: Int = 30_000
    )
        throws
    {
        let arguments = (primary ? ["--primary"] : []) + (type.map { ["--type", $0] } ?? [])
        let child = try spawn("wl-copy", arguments, stdin: .pipe, stdout: .null, stderr: .null)
        try child.write(bytes)
        child.closeStandardInput()
        guard let ended = child.waitForExit(timeoutMilliseconds: timeoutMilliseconds) else {
            child.terminate(graceMilliseconds: 1000)
            throw FixtureError("wl-copy \(arguments) did not take the selection in \(timeoutMilliseconds) ms")
        }
        guard ended == .exited(0) else { throw FixtureError("wl-copy \(arguments) ended with \(ended)") }
    }

    /// Reads the clipboard (or the primary selection) with `wl-paste --no-newline`, as
    /// `type` when given.
    public func paste(type: String? = nil, primary: Bool = false, timeoutMilliseconds: Int = 30_000) throws
        -> CommandResult
    {
        let arguments =
            ["--no-newline"] + (primary ? ["--primary"] : []) + (type.map { ["--type", $0] } ?? [])
        return try run("wl-paste", arguments, timeoutMilliseconds: timeoutMilliseconds)
    }

    /// The MIME types that the clipboard's (or primary selection's) owner offers, by
    /// `wl-paste --list-types`; empty when nothing is offered.
    public func offeredTypes(primary: Bool = false) throws -> [String] {
        let result = try run(
            "wl-paste", ["--list-types"] + (primary ? ["--primary"] : []), timeoutMilliseconds: 30_000)
        guard result.termination == .exited(0) else { return [] }
        return result.outputText.split(separator: "\n").map(String.init)
    }

    /// Starts a private session bus run by the session's user, for the tests that need one.
    public func startBus() throws -> PrivateBus {
        try PrivateBus(commandPrefix: user.commandPrefix, environment: environment())
    }

    /// The `DISPLAY` of the session's XWayland (started with `xwayland: true`), as sway
    /// gives it to the programs it starts; waits at most `timeoutMilliseconds`.
    public func xwaylandDisplay(timeoutMilliseconds: Int = 30_000) throws -> String {
        let file = "\(homeDirectory)/display"
        let ipc = try run(
            "swaymsg", ["exec", "echo \"$DISPLAY\" > \(shellQuoted(file))"], environment: swaymsgEnvironment()
        )
        guard ipc.termination == .exited(0) else {
            throw FixtureError("swaymsg exec failed: \(ipc.errorText)")
        }
        let deadline = MonotonicClock.milliseconds() + UInt64(timeoutMilliseconds)
        while MonotonicClock.milliseconds() < deadline {
            if let text = try? String(contentsOfFile: file, encoding: .utf8), text.hasSuffix("\n") {
                let display = text.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !display.isEmpty else { throw FixtureError("sway gives its programs no DISPLAY") }
                return display
            }
            usleep(5000)
        }
        throw FixtureError("sway ran no command in \(timeoutMilliseconds) ms")
    }

    /// The app id of the window that has the focus (an X11 window's class), from
    /// `swaymsg -t get_tree`; nil when no window has it.
    public func focusedAppID() throws -> String? {
        let tree = try run("swaymsg", ["-t", "get_tree"], environment: swaymsgEnvironment())
        guard tree.termination == .exited(0),
            let root = try JSONSerialization.jsonObject(with: Data(tree.standardOutput)) as? [String: Any]
        else { throw FixtureError("swaymsg -t get_tree failed: \(tree.errorText)") }
        func search(_ node: [String: Any]) -> String? {
            if node["focused"] as? Bool == true {
                let properties = node["window_properties"] as? [String: Any]
                return node["app_id"] as? String ?? properties?["class"] as? String
            }
            let children =
                (node["nodes"] as? [[String: Any]] ?? []) + (node["floating_nodes"] as? [[String: Any]] ?? [])
            return children.lazy.compactMap(search).first
        }
        return search(root)
    }

    /// Lets the local user `name` (root, say) connect to XWayland at `display`, as
    /// `xhost +si:localuser:NAME` does: XWayland admits only the session's user by itself.
    public func allowXClients(of name: String, display: String) throws {
        // The first client also starts an XWayland that sway starts lazily.
        let result = try run("xhost", ["+si:localuser:\(name)"], environment: ["DISPLAY": display])
        guard result.termination == .exited(0) else {
            throw FixtureError("could not let \(name) use XWayland: \(result.errorText)")
        }
    }

    /// mutter's XWayland: `DISPLAY` (the public display its log names) and `XAUTHORITY`
    /// (the cookie it writes in the runtime directory); waits at most `timeoutMilliseconds`.
    public func xwaylandEnvironment(timeoutMilliseconds: Int = 30_000) throws -> [String: String] {
        let deadline = MonotonicClock.milliseconds() + UInt64(timeoutMilliseconds)
        while MonotonicClock.milliseconds() < deadline {
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

    /// Stops the compositor (SIGTERM, then SIGKILL); the programs of the session lose it.
    public func stop() { process.terminate(graceMilliseconds: 2000) }

    deinit {
        process.terminate(graceMilliseconds: 2000)
        if ownsBus { bus?.stop() }
    }

    /// `SWAYSOCK` for swaymsg: the IPC socket sway made in the runtime directory.
    private func swaymsgEnvironment() throws -> [String: String] {
        ["SWAYSOCK": try ipcSocketPath()]
    }

    /// The path of the IPC socket sway made in the runtime directory (`SWAYSOCK`).
    public func ipcSocketPath() throws -> String {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: runtimeDirectory)) ?? []
        guard let ipc = names.first(where: { $0.hasPrefix("sway-ipc.") && $0.hasSuffix(".sock") }) else {
            throw FixtureError("sway made no IPC socket in its runtime directory")
        }
        return "\(runtimeDirectory)/\(ipc)"
    }

    /// Waits until a client can connect to a Wayland socket in `runtime`; returns its name.
    ///
    /// The socket's file appears when it is bound, a moment before the compositor listens on
    /// it. Throws, with the end of the log at `logPath`, once `process` has ended or at
    /// `deadline`.
    private static func waitForSocket(
        in runtime: String, of process: ChildProcess, compositor: String, logPath: String,
        until deadline: UInt64
    ) throws -> String {
        let started = MonotonicClock.milliseconds()
        while true {
            if let name = socketName(in: runtime), accepts("\(runtime)/\(name)") { return name }
            if !process.isRunning || MonotonicClock.milliseconds() >= deadline {
                let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
                let ended = process.exitStatusIfEnded().map { "\($0)" } ?? "running"
                throw FixtureError(
                    "\(compositor) made no socket in \(MonotonicClock.milliseconds() - started) ms (\(ended)): \(log.suffix(2000))"
                )
            }
            usleep(5000)
        }
    }

    /// The Wayland socket in `directory` (`wayland-N`, beside its `.lock`), if there is one.
    private static func socketName(in directory: String) -> String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.first { name in
            guard name.hasPrefix("wayland-"), !name.hasSuffix(".lock") else { return false }
            var status = stat()
            return stat("\(directory)/\(name)", &status) == 0 && status.st_mode & S_IFMT == S_IFSOCK
        }
    }

    /// True when a client can connect to the Unix socket at `path` now.
    private static func accepts(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return result == 0
    }

    /// What every program of the session gets: no X11 display, no session bus, no other
    /// compositor of the machine's.
    private static func baseEnvironment(home: String, runtime: String) -> [String: String] {
        [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin",
            "HOME": home, "XDG_RUNTIME_DIR": runtime, "LC_ALL": "C.UTF-8",
        ]
    }
}

/// `text` quoted for `/bin/sh`.
func shellQuoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
