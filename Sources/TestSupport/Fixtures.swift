// SPDX-License-Identifier: MIT
import Foundation
import Posix

/// Errors of the test fixtures, each saying which helper failed and how.
public struct FixtureError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String

    /// Makes an error with a message.
    public init(_ description: String) { self.description = description }
}

/// A private `dbus-daemon --session` for one test or suite, stopped by pid when released.
public final class PrivateBus {
    /// The address to put in `DBUS_SESSION_BUS_ADDRESS`.
    public let address: String
    /// The daemon process.
    public let process: ChildProcess

    /// Starts a session bus with the system's session configuration, or with the
    /// configuration file `configFile` when given.
    public init(configFile: String? = nil) throws {
        let arguments =
            (configFile.map { ["--config-file=\($0)"] } ?? ["--session"]) + ["--nofork", "--print-address=1"]
        // Its stderr only ever says that an unprivileged bus cannot raise its fd limit.
        process = try ChildProcess.spawn("dbus-daemon", arguments, stdout: .pipe, stderr: .null)
        guard let line = process.readLine(timeoutMilliseconds: 10_000), !line.isEmpty else {
            process.terminate()
            throw FixtureError("dbus-daemon printed no address within 10 s")
        }
        address = line
    }

    /// Stops the bus daemon (SIGTERM, then SIGKILL).
    public func stop() { process.terminate(graceMilliseconds: 2000) }

    deinit { process.terminate(graceMilliseconds: 2000) }
}

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
        var arguments = ["-nolisten", "tcp", "-screen", "0", "640x480x24"] + extraArguments
        if let requested {
            arguments = [requested] + arguments + ["-displayfd", "1"]
        } else {
            arguments += ["-displayfd", "1"]
        }
        process = try ChildProcess.spawn("Xvfb", arguments, stdout: .pipe, stderr: .null)
        guard let line = process.readLine(timeoutMilliseconds: 15_000), let number = Int(line) else {
            process.terminate()
            throw FixtureError("Xvfb did not report a display within 15 s")
        }
        display = ":\(number)"
    }

    /// Stops the X server (SIGTERM, then SIGKILL).
    public func stop() { process.terminate(graceMilliseconds: 2000) }

    deinit { process.terminate(graceMilliseconds: 2000) }
}

/// A directory made for one test and removed with everything in it when released.
public final class TemporaryDirectory {
    /// The directory's path.
    public let path: String

    /// Makes a fresh directory under `$TMPDIR` (or `/tmp`).
    public init(prefix: String = "cliptab-test") throws {
        let base = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        var template = Array("\(base)/\(prefix).XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw FixtureError("mkdtemp failed under \(base)")
        }
        path = String(cString: made)
    }

    /// The path of `name` inside the directory.
    public func appending(_ name: String) -> String { "\(path)/\(name)" }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Where SwiftPM put the built executables of this package.
public enum BuiltProducts {
    /// The directory of the running test bundle, which is SwiftPM's bin directory.
    public static var directory: String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        return (executable as NSString).deletingLastPathComponent
    }

    /// The path of the built executable `name` (for example `cliptabd`).
    public static func path(of name: String) -> String { "\(directory)/\(name)" }
}
