// SPDX-License-Identifier: MIT
import Posix

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
