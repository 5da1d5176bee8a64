// SPDX-License-Identifier: MIT
import Foundation
import Glibc
import Posix

/// Waits until `condition` holds, looking every `step` milliseconds for at most
/// `milliseconds`; returns whether it did.
///
/// Tests wait for what they need with it, never for a fixed time; the default bound is
/// one on hangs, generous for a machine loaded by parallel builds.
public func eventually(
    within milliseconds: UInt64 = 30_000, every step: UInt32 = 20, _ condition: () throws -> Bool
) rethrows -> Bool {
    let deadline = MonotonicClock.milliseconds() + milliseconds
    while MonotonicClock.milliseconds() < deadline {
        if try condition() { return true }
        usleep(step * 1000)
    }
    return try condition()
}

/// True when `condition` holds at every look for `milliseconds` (looking every 20 ms):
/// what a fixed sleep and one look would check, and a change at any moment of it fails.
public func holds(for milliseconds: UInt64, _ condition: () throws -> Bool) rethrows -> Bool {
    let end = MonotonicClock.milliseconds() + milliseconds
    while MonotonicClock.milliseconds() < end {
        if try !condition() { return false }
        usleep(20_000)
    }
    return try condition()
}

/// Figures the kernel keeps of a process, read from its /proc files.
public enum ProcessFigures {
    /// The number after `name` in `/proc/PID/FILE`, a file of `name value` lines (`status`,
    /// `io`); 0 when the file or the line is absent.
    public static func field(_ name: String, pid: pid_t, file: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/\(file)", encoding: .utf8) else {
            return 0
        }
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            // `/proc` separates a name from its value by a tab, sometimes followed by spaces.
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            return words.count > 1 ? Int(words[1]) ?? 0 : 0
        }
        return 0
    }
}
