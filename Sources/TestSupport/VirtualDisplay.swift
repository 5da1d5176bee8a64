// SPDX-License-Identifier: MIT
import Glibc
import Posix
import Synchronization

/// A private `Xvfb` server on a free display, with a window manager when asked for one
/// (`startWindowManager`), stopped by pid when released.
public final class VirtualDisplay {
    /// The window managers the tests run: the ones people run, each as its own tests need.
    public enum WindowManager: String, Sendable, CaseIterable {
        /// openbox, without session management.
        case openbox
        /// i3, with an almost empty configuration (which keeps it from starting its wizard).
        case i3
    }

    /// The value for `DISPLAY`, for example `:42`.
    public let display: String
    /// The X server process.
    public let process: ChildProcess
    /// The window manager started on the display, stopped before the server.
    public private(set) var windowManager: ChildProcess?
    /// Where a window manager's configuration is written.
    private var configuration: TemporaryDirectory?

    /// Starts Xvfb on the first free display (it reports the number it chose), or on
    /// `display` when given (for example to bring a display back after killing it), with
    /// `extraArguments` (such as `-extension XTEST`).
    ///
    /// A display brought back on its number waits, at most 60 s, for a server that took the
    /// number meanwhile to end (one from another process: the servers of this process do not
    /// start while a number is given back, see `numberLock`).
    public init(display requested: String? = nil, extraArguments: [String] = []) throws {
        X11SocketDirectory.ensure()
        let arguments =
            ["-nolisten", "tcp", "-screen", "0", "640x480x24"] + extraArguments + ["-displayfd", "1"]
        let started: (ChildProcess, String)
        if let requested {
            started = try Self.startGivenBack(requested, arguments)
        } else {
            started = try Self.choosingDisplayNumber { try Self.start(arguments, on: nil) }
        }
        (process, display) = started
    }

    /// Starts Xvfb on `requested`, a number `killKeepingNumber()` may hold; retries while a
    /// server of another process has it.
    private static func startGivenBack(_ requested: String, _ arguments: [String]) throws -> (
        ChildProcess, String
    ) {
        pthread_rwlock_wrlock(numberLock)
        defer { pthread_rwlock_unlock(numberLock) }
        releaseHeldNumber(requested)
        let deadline = MonotonicClock.milliseconds() + 60_000
        while true {
            do {
                return try start(arguments, on: requested)
            } catch let error as NumberTaken {
                guard MonotonicClock.milliseconds() < deadline else {
                    throw FixtureError(
                        "Xvfb \(requested) ended (\(error.ended)) before it reported a display")
                }
                // Another process's server holds the number; it is free once that one ends.
                usleep(50_000)
            }
        }
    }

    /// Runs `body`, which starts an X server that takes the first free display number (Xvfb,
    /// or a compositor's XWayland), while no display is given back: servers that choose a
    /// number start together, and a display given back waits for them.
    static func choosingDisplayNumber<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_rwlock_rdlock(numberLock)
        defer { pthread_rwlock_unlock(numberLock) }
        return try body()
    }

    /// Xvfb ended at its start: the display asked for was taken.
    private struct NumberTaken: Error {
        let ended: Termination
    }

    /// Starts Xvfb with `arguments`, on `requested` when given; returns it and its display.
    private static func start(_ arguments: [String], on requested: String?) throws -> (ChildProcess, String) {
        let process = try ChildProcess.spawn(
            "Xvfb", (requested.map { [$0] } ?? []) + arguments, stdout: .pipe, stderr: .null)
        // Generous: at the start of a full run dozens of suites start their servers at once
        // on two cores, and one Xvfb took over 15 s there (CI, VirtualDisplayTests).
        guard let line = process.readLine(timeoutMilliseconds: 60_000), let number = Int(line) else {
            // Xvfb exits at once when the display asked for is taken.
            let ended = process.waitForExit(timeoutMilliseconds: 100)
            process.terminate()
            if let ended, requested != nil { throw NumberTaken(ended: ended) }
            throw FixtureError(
                ended.map { "Xvfb ended (\($0)) before it reported a display" }
                    ?? "Xvfb did not report a display within 60 s")
        }
        return (process, ":\(number)")
    }

    /// Held for writing while a display number is between two servers (killed and not yet
    /// held, or let go and not yet taken back), for reading while a server chooses its
    /// number: a server of this process (the first free number) never takes one meanwhile.
    /// (A pthread lock, shared by design: it is what orders the threads that use it.)
    nonisolated(unsafe) private static let numberLock: UnsafeMutablePointer<pthread_rwlock_t> = {
        let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)
        var attributes = pthread_rwlockattr_t()
        pthread_rwlockattr_init(&attributes)
        // Servers that choose their numbers may start one after another without a pause: a
        // display given back must not wait for them all.
        pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
        pthread_rwlock_init(lock, &attributes)
        return lock
    }()

    /// Kills the X server at once, as a crash would, and keeps its display number from the
    /// X servers that other suites start meanwhile (they take the first free number), until
    /// `VirtualDisplay(display:)` brings it back.
    ///
    /// The number is held by binding the server's abstract socket name once it is gone: an
    /// X server finds the name in use and takes another number. (Lock files do not hold it:
    /// Xvfb with -displayfd does not look at them.)
    public func killKeepingNumber() {
        pthread_rwlock_wrlock(Self.numberLock)
        defer { pthread_rwlock_unlock(Self.numberLock) }
        process.signal(SIGKILL)
        _ = process.waitForExit()
        let holder = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard holder >= 0 else { return }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let name = Array("/tmp/.X11-unix/X\(display.dropFirst())".utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            path[0] = 0  // the abstract namespace
            for (index, byte) in name.prefix(path.count - 1).enumerated() { path[index + 1] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + 1 + name.count)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(holder, $0, length) }
        }
        guard bound == 0 else {
            close(holder)
            return
        }
        Self.heldNumbers.withLock { $0[display] = holder }
    }

    /// The sockets that hold killed servers' display numbers, by display.
    private static let heldNumbers = Mutex<[String: Int32]>([:])

    /// Lets go of `display`'s number if `killKeepingNumber()` holds it.
    private static func releaseHeldNumber(_ display: String) {
        if let holder = heldNumbers.withLock({ $0.removeValue(forKey: display) }) { close(holder) }
    }

    /// The environment of a program on this display: the test's `PATH` and `HOME`, a UTF-8
    /// locale and `DISPLAY`, then `extra`.
    public func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = [
            "PATH": getenv("PATH").map { String(cString: $0) } ?? "/usr/local/bin:/usr/bin:/bin",
            "HOME": getenv("HOME").map { String(cString: $0) } ?? "/", "LC_ALL": "C.UTF-8",
            "DISPLAY": display,
        ]
        environment.merge(extra) { $1 }
        return environment
    }

    /// Starts `manager` on the display, stopped with it; returns once it manages the screen.
    ///
    /// A manager names itself in the root's `_NET_SUPPORTING_WM_CHECK` once it holds the
    /// screen (a second manager is refused from then on); waits at most
    /// `timeoutMilliseconds` for that.
    @discardableResult
    public func startWindowManager(_ manager: WindowManager, timeoutMilliseconds: Int = 30_000) throws
        -> ChildProcess
    {
        let arguments: [String]
        switch manager {
        case .openbox:
            arguments = ["--sm-disable"]
        case .i3:
            let directory = try configuration ?? TemporaryDirectory(prefix: "cliptab-wm")
            configuration = directory
            let file = directory.appending("i3.conf")
            guard let stream = fopen(file, "w") else { throw FixtureError("cannot write \(file)") }
            fputs("font pango:monospace 8\n", stream)
            fclose(stream)
            arguments = ["-c", file]
        }
        let child = try ChildProcess.spawn(
            manager.rawValue, arguments, environment: environment(), stdout: .null, stderr: .null)
        windowManager = child
        let deadline = MonotonicClock.milliseconds() + UInt64(timeoutMilliseconds)
        while MonotonicClock.milliseconds() < deadline {
            guard child.isRunning else { throw FixtureError("\(manager.rawValue) exited at start") }
            let root = try ChildProcess.run(
                "xprop", ["-root", "_NET_SUPPORTING_WM_CHECK"], environment: environment(),
                timeoutMilliseconds: timeoutMilliseconds)
            if root.outputText.contains("window id") { return child }
            usleep(20_000)
        }
        throw FixtureError("\(manager.rawValue) did not manage the display within \(timeoutMilliseconds) ms")
    }

    /// Gives the input focus to `window` on this display once it is viewable, with
    /// `environment` (this display's when nil); see `focus(_:environment:)`.
    public func focus(_ window: String, environment: [String: String]? = nil) throws {
        try Self.focus(window, environment: environment ?? self.environment())
    }

    /// Gives the input focus to `window` on the display of `environment` (XSetInputFocus, as
    /// a window manager would) once it is viewable.
    ///
    /// A program may print its window's id before the window is mapped (GTK does, under
    /// load), and XSetInputFocus on a window that is not viewable fails with BadMatch.
    public static func focus(_ window: String, environment: [String: String]) throws {
        try waitUntilViewable(window, environment: environment)
        let result = try ChildProcess.run(
            "xdotool", ["windowfocus", "--sync", window], environment: environment,
            timeoutMilliseconds: 30_000)
        guard result.termination == .exited(0) else {
            throw FixtureError("xdotool windowfocus \(window): \(result.errorText)")
        }
    }

    /// Waits, at most `timeoutMilliseconds` (a bound on hangs), until `window` and every one
    /// of its ancestors are mapped (`xwininfo`'s map state `IsViewable`) on the display of
    /// `environment`.
    public static func waitUntilViewable(
        _ window: String, environment: [String: String], timeoutMilliseconds: UInt64 = 30_000
    ) throws {
        var state = ""
        let viewable = try eventually(within: timeoutMilliseconds, every: 10) {
            let info = try ChildProcess.run(
                "xwininfo", ["-id", window], environment: environment, timeoutMilliseconds: 30_000)
            state =
                info.outputText.split(separator: "\n").first { $0.contains("Map State:") }.map(String.init)
                ?? info.errorText
            return state.contains("IsViewable")
        }
        guard viewable else {
            throw FixtureError("window \(window) was not viewable within \(timeoutMilliseconds) ms: \(state)")
        }
    }

    /// Stops the window manager and the X server (SIGTERM, then SIGKILL).
    public func stop() {
        windowManager?.terminate(graceMilliseconds: 500)
        process.terminate(graceMilliseconds: 2000)
    }

    deinit { stop() }
}
