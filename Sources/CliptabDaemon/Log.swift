// SPDX-License-Identifier: MIT
import Glibc
import Synchronization

/// The daemon's log: one line per event on standard error (journald adds the time).
///
/// Never given cell text.
public enum Log {
    /// How important a line is; the configured level lets through itself and the more
    /// important ones.
    public enum Level: String, CaseIterable, Comparable, Sendable {
        /// Failures: the daemon cannot do what it should.
        case error
        /// Something was refused or ignored, and the daemon carries on.
        case warning
        /// Start, stop, reloads: the default.
        case info
        /// The settings in force and other details for troubleshooting.
        case debug

        /// True when `lhs` is more important than `rhs`.
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rank < rhs.rank }

        fileprivate var rank: UInt8 { UInt8(Level.allCases.firstIndex(of: self) ?? 0) }
    }

    private static let thresholdRank = Atomic<UInt8>(Level.info.rank)

    /// The least important level written; lines below it are dropped.
    public static var threshold: Level {
        get { Level.allCases[Int(thresholdRank.load(ordering: .relaxed))] }
        set { thresholdRank.store(newValue.rank, ordering: .relaxed) }
    }

    /// Writes "cliptabd: message" and a newline to standard error in one write, when `level`
    /// is at or above the threshold.
    public static func line(_ message: String, level: Level = .info) {
        guard level <= threshold else { return }
        var text = "cliptabd: " + message + "\n"
        text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    }
}
