// SPDX-License-Identifier: MIT

/// Something wrong in a configuration file: the file, the line (0 for the file as a
/// whole) and what was expected there.
public struct ConfigProblem: Equatable, Sendable, CustomStringConvertible {
    /// The file's path as given.
    public var file: String
    /// The line, counted from 1; 0 when the problem is not on one line.
    public var line: Int
    /// What was wrong and what would be right.
    public var message: String

    /// Makes a problem report.
    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// "file:line: message", or "file: message" without a line.
    public var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
}
