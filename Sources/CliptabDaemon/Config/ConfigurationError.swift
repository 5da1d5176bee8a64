// SPDX-License-Identifier: MIT
import CliptabConfig

/// The problems that keep a configuration from being used, one per line of the report.
public struct ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Each problem, in file order.
    public let problems: [ConfigProblem]

    /// Makes an error from its problems.
    public init(problems: [ConfigProblem]) { self.problems = problems }

    /// The problems, one a line.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
