// SPDX-License-Identifier: MIT

/// What one hostile case cost: the figures the goals speak of.
public struct HostileMeasurement: Sendable {
    /// The case's name.
    public let name: String
    /// The longest wait of the `GetCell` probe, in milliseconds.
    public let probeWorstMilliseconds: UInt64
    /// How many probe calls were made.
    public let probeCalls: Int
    /// The probe calls that failed, each said in words.
    public let probeFailures: [String]
    /// The longest clipboard read, in milliseconds (nil: the case reads none).
    public let clipboardWorstMilliseconds: UInt64?
    /// How many clipboard reads were made.
    public let clipboardReads: Int
    /// The clipboard reads that failed, each said in words.
    public let clipboardFailures: [String]
    /// How long the hostile call (or calls) took, in milliseconds.
    public let attackMilliseconds: UInt64
    /// `done: …` or `error: Name`.
    public let outcome: String
    /// The daemon's peak resident size over the attack (VmHWM, reset before it), in KiB.
    public let peakKiB: Int
    /// The daemon's resident size when the attack started (its tables made), in KiB.
    public let startKiB: Int
    /// The bus daemon's peak resident size (VmHWM over its life), in KiB.
    public let busPeakKiB: Int
    /// The largest message of the attack, in bytes.
    public let largestMessageBytes: Int
    /// True when the daemon still ran after the attack.
    public let daemonSurvived: Bool
    /// True when the canary table was exactly as before.
    public let canaryUnchanged: Bool

    /// The memory goal: 4 × the largest message + 64 MiB, in KiB; or, when the tables a
    /// case prepares alone hold more than 64 MiB (400,000 named rows do), 4 × the largest
    /// message beyond what the daemon held when the attack started.
    public var peakGoalKiB: Int {
        max(4 * largestMessageBytes / 1024 + 64 * 1024, startKiB + 4 * largestMessageBytes / 1024)
    }

    /// The largest argument the time goals speak of (the "arguments up to 16 MiB").
    public static let timeGoalsMessageBytes = 16 << 20

    /// True when the time goals apply, to a largest message within `timeGoalsMessageBytes`.
    ///
    /// Larger cases are held to the memory goal and to a named outcome, a living daemon and
    /// an unchanged canary; their times are still reported.
    public var timeGoalsApply: Bool { largestMessageBytes <= Self.timeGoalsMessageBytes }

    /// The goals this case misses, each said in words: the time goals (`missedTimeGoals`,
    /// for the release benchmark) and the bounds (`missedBounds`).
    public func missedGoals() -> [String] {
        missedTimeGoals() + missedBounds()
    }

    /// The time goals this case misses: the probe answered within 1 s, the clipboard read
    /// within 2 s, the attack within 5 s (for messages up to `timeGoalsMessageBytes`).
    public func missedTimeGoals() -> [String] {
        guard timeGoalsApply else { return [] }
        var missed: [String] = []
        if probeWorstMilliseconds > 1000 { missed.append("probe waited \(probeWorstMilliseconds) ms") }
        if let clipboard = clipboardWorstMilliseconds, clipboard > 2000 {
            missed.append("clipboard read took \(clipboard) ms")
        }
        if attackMilliseconds > 5000 { missed.append("the attack took \(attackMilliseconds) ms") }
        return missed
    }

    /// The bounds this case breaks, none of them a time: every probe call and clipboard read
    /// answered (within the probes' generous hang guards), a named outcome, the peak memory
    /// within its goal (plus `extraKiB`, a debug build's margin), the daemon alive and the
    /// canary unchanged.
    public func missedBounds(extraKiB: Int = 0) -> [String] {
        var missed: [String] = []
        if !probeFailures.isEmpty { missed.append("probe failed: \(probeFailures.prefix(3))") }
        if !clipboardFailures.isEmpty {
            missed.append("clipboard read failed: \(clipboardFailures.prefix(3))")
        }
        if !(outcome.hasPrefix("done")
            || outcome.hasPrefix("error: ") && !Self.unnamedErrors.contains(where: outcome.hasSuffix))
        {
            missed.append("the attack ended as \(outcome), neither done nor a named error")
        }
        if peakKiB > peakGoalKiB + extraKiB {
            missed.append("peak RSS \(peakKiB / 1024) MiB, goal \((peakGoalKiB + extraKiB) / 1024) MiB")
        }
        if !daemonSurvived { missed.append("the daemon died") }
        if !canaryUnchanged { missed.append("the canary table changed") }
        return missed
    }

    /// Errors that say only that no answer came: not an outcome a call may end with.
    static let unnamedErrors = [
        "DBus.Error.NoReply", "DBus.Error.Timeout", "DBus.Error.Disconnected", "DBus.Error.ServiceUnknown",
    ]

    /// The header of `row`.
    public static let header =
        "case                          probe max  clip max    call  peak MiB  goal MiB  bus MiB  outcome"

    /// One line of the table the benchmark prints.
    public var row: String {
        func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
            let space = String(repeating: " ", count: max(0, width - text.count))
            return left ? text + space : space + text
        }
        let clip = clipboardWorstMilliseconds.map { "\($0) ms" } ?? "-"
        return pad(name, 28, left: true) + pad("\(probeWorstMilliseconds) ms", 11) + pad(clip, 10)
            + pad("\(attackMilliseconds) ms", 9) + pad("\(peakKiB / 1024)", 10)
            + pad("\(peakGoalKiB / 1024)", 10)
            + pad("\(busPeakKiB / 1024)", 9) + "  " + outcome.prefix(60)
    }
}
