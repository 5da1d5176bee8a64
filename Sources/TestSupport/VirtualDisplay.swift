// SPDX-License-Identifier: MIT
import Glibc
import Posix
import Synchronization

/// A private `Xvfb` server on a free display, stopped by pid when released.
public final class VirtualDisplay {
    /// The value for `DISPLAY`, for example `:42`.
    public let display: String
    /// The X server process.
    public let process: ChildProcess

    /// Starts Xvfb on the first free display (it reports the number it chose), or on
    /// `display` when given (for example to bring a display back after killing it), with
    /// `extraArguments` (such as `-extension XTEST`).
    public init(display requested: String? = nil, extraArguments: [String] = []) throws {
        X11SocketDirectory.ensure()
        var arguments = ["-nolisten", "tcp", "-screen", "0", "640x480x24"] + extraArguments
        if let requested {
            Self.releaseHeldNumber(requested)
            arguments = [requested] + arguments + ["-displayfd", "1"]
        } else {
            arguments += ["-displayfd", "1"]
        }
        process = try ChildProcess.spawn("Xvfb", arguments, stdout: .pipe, stderr: .null)
        // Generous: at the start of a full run dozens of suites start their servers at once
        // on two cores, and one Xvfb took over 15 s there (CI, VirtualDisplayTests).
        guard let line = process.readLine(timeoutMilliseconds: 60_000), let number = Int(line) else {
            // Xvfb exits at once when the display asked for is taken; say which it was.
            let ended = process.waitForExit(timeoutMilliseconds: 100)
            process.terminate()
            throw FixtureError(
                ended.map { "Xvfb \(requested ?? "") ended (\($0)) before it reported a display" }
                    ?? "Xvfb did not report a display within 60 s")
        }
        display = ":\(number)"
    }

    /// Kills the X server at once, as a crash would, and keeps its display number from the
    /// X servers that other suites start meanwhile (they take the first free number), until
    /// `VirtualDisplay(display:)` brings it back.
    ///
    /// The number is held by binding the server's abstract socket name once it is gone: an
    /// X server finds the name in use and takes another number. (Lock files do not hold it:
    /// Xvfb with -displayfd does not look at them.)
    public func killKeepingNumber() {
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

    /// Stops the X server (SIGTERM, then SIGKILL).
    public func stop() { process.terminate(graceMilliseconds: 2000) }

    deinit { process.terminate(graceMilliseconds: 2000) }
}
