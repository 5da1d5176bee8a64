// SPDX-License-Identifier: MIT

/// Why the daemon could not start: the lines to log, each one failure.
public struct StartFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// One line per failure, in the words of the log.
    public let lines: [String]

    /// Makes a failure of one line.
    public init(_ line: String) { self.lines = [line] }

    /// Makes a failure of several lines.
    public init(lines: [String]) { self.lines = lines }

    /// The lines, joined.
    public var description: String { lines.joined(separator: "\n") }
}
