// SPDX-License-Identifier: MIT

/// One hostile input of the catalogue: the table it needs, the attack, and what bounds it.
public struct HostileCase {
    /// A short name for the table and the test's messages.
    public let name: String
    /// The rows the table `t` holds before the attack (none: no table).
    public let rows: Int
    /// The text of each of those rows.
    public let rowText: String
    /// The largest message the attack sends, in bytes (the memory goal is 4 × it + 64 MiB).
    public let largestMessageBytes: Int
    /// False when reading the clipboard cannot be expected to work (the X server is stopped).
    public let readsClipboard: Bool
    /// Makes what the attack needs beyond the rows of `t` (a table of named rows, say),
    /// before the measurement starts.
    public let prepare: (DaemonProcess) throws -> Void
    /// Runs the attack and describes its outcome: `done: …` or `error: Name`.
    public let attack: (HostileContext) throws -> String

    /// Makes a case.
    public init(
        _ name: String, rows: Int = 0, rowText: String = "a", largestMessageBytes: Int,
        readsClipboard: Bool = true, prepare: @escaping (DaemonProcess) throws -> Void = { _ in },
        attack: @escaping (HostileContext) throws -> String
    ) {
        self.name = name
        self.rows = rows
        self.rowText = rowText
        self.largestMessageBytes = largestMessageBytes
        self.readsClipboard = readsClipboard
        self.prepare = prepare
        self.attack = attack
    }
}
