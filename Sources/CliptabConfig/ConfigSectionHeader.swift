// SPDX-License-Identifier: MIT

/// One `[section]` or `[section "name"]` header of a configuration file.
public struct ConfigSectionHeader: Equatable, Sendable {
    /// The section's name.
    public var name: String
    /// The quoted name, if any.
    public var subsection: String?
    /// The line, counted from 1.
    public var line: Int

    /// Makes a header.
    public init(name: String, subsection: String?, line: Int) {
        self.name = name
        self.subsection = subsection
        self.line = line
    }
}
