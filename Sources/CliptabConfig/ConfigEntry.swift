// SPDX-License-Identifier: MIT

/// One `key = value` line of a configuration file.
public struct ConfigEntry: Equatable, Sendable {
    /// The name of the section it is in (`clipboard` in `[clipboard]`).
    public var section: String
    /// The quoted name after the section's name (`passwords` in `[table "passwords"]`).
    public var subsection: String?
    /// The key, as written.
    public var key: String
    /// The value without surrounding blanks (and without its quotes, when quoted).
    public var value: String
    /// The line, counted from 1.
    public var line: Int

    /// Makes an entry.
    public init(section: String, subsection: String?, key: String, value: String, line: Int) {
        self.section = section
        self.subsection = subsection
        self.key = key
        self.value = value
        self.line = line
    }
}
