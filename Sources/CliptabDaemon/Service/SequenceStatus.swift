// SPDX-License-Identifier: MIT

/// Where the running sequence is, for `GetSequence`, its signal and `cliptab sequence`.
public struct SequenceStatus: Equatable, Sendable {
    /// The table its rows came from.
    public var table: String
    /// The section's index when the sequence began.
    public var section: Int32
    /// The section's header then ("" for none).
    public var header: String
    /// The 1-based place of the row on the clipboard now.
    public var position: Int
    /// How many rows the sequence has.
    public var count: Int

    /// Makes a status.
    public init(table: String, section: Int32, header: String, position: Int, count: Int) {
        self.table = table
        self.section = section
        self.header = header
        self.position = position
        self.count = count
    }
}

/// Why a sequence ended, for the log and the signal.
public enum SequenceEnd: String, Equatable, Sendable {
    /// The last row was pasted; the clipboard from before is back.
    case finished
    /// `StopSequence`; the clipboard from before is back.
    case stopped
    /// Left alone for `[sequence] idle_ms`; the clipboard from before is back.
    case idle
    /// Another program (or a copy of this daemon's) took the clipboard; nothing is put back.
    case replaced
}
