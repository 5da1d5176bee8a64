// SPDX-License-Identifier: MIT

/// Why the daemon could not start: the lines to log, each one failure.
public struct StartFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// One line per failure, in the words of the log.
    public let lines: [String]
    /// The status the daemon exits with: 1, unless the failure has a status of its own.
    public let exitStatus: Int32

    /// Makes a failure of one line.
    public init(_ line: String, exitStatus: Int32 = 1) {
        self.lines = [line]
        self.exitStatus = exitStatus
    }

    /// Makes a failure of several lines.
    public init(lines: [String], exitStatus: Int32 = 1) {
        self.lines = lines
        self.exitStatus = exitStatus
    }

    /// The lines, joined.
    public var description: String { lines.joined(separator: "\n") }
}
