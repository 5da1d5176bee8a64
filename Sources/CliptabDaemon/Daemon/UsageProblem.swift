// SPDX-License-Identifier: MIT

/// A command line `cliptabd` cannot run with: what is wrong, and whether the usage text
/// should follow.
public struct UsageProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, as one line.
    public let message: String
    /// True when the usage text should be shown after the message (an unknown option).
    public let showsUsage: Bool

    /// Makes a problem report.
    public init(_ message: String, showsUsage: Bool = false) {
        self.message = message
        self.showsUsage = showsUsage
    }

    /// The message, followed by the usage text when it should be shown.
    public var description: String { showsUsage ? "\(message)\n\(DaemonOptions.usage)" : message }
}
