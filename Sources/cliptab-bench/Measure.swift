// SPDX-License-Identifier: MIT
import Glibc
import Posix

/// Timing helpers: medians of repeated runs, in microseconds.
enum Measure {
    /// Runs `body` `count` times and returns the median duration in microseconds.
    static func median(_ count: Int, _ body: (Int) throws -> Void) rethrows -> Double {
        var samples: [UInt64] = []
        samples.reserveCapacity(count)
        for index in 0..<count {
            let start = MonotonicClock.nanoseconds()
            try body(index)
            samples.append(MonotonicClock.nanoseconds() - start)
        }
        samples.sort()
        return Double(samples[samples.count / 2]) / 1000
    }

    /// Runs `baseline` and `body` alternately `count` times each and returns both medians
    /// in microseconds, so that both see the same moments of a noisy machine.
    static func paired(
        _ count: Int, baseline: () throws -> Void, _ body: (Int) throws -> Void
    ) rethrows -> (subject: Double, baseline: Double) {
        var subjects: [UInt64] = []
        var baselines: [UInt64] = []
        for index in 0..<count {
            var start = MonotonicClock.nanoseconds()
            try baseline()
            baselines.append(MonotonicClock.nanoseconds() - start)
            start = MonotonicClock.nanoseconds()
            try body(index)
            subjects.append(MonotonicClock.nanoseconds() - start)
        }
        subjects.sort()
        baselines.sort()
        return (Double(subjects[count / 2]) / 1000, Double(baselines[count / 2]) / 1000)
    }

    /// The resident set size of this process in bytes, from /proc/self/statm.
    static func residentBytes() -> Int {
        guard let file = fopen("/proc/self/statm", "r") else { return 0 }
        defer { fclose(file) }
        var size = 0
        var resident = 0
        _ = withUnsafeMutablePointer(to: &size) { sizePointer in
            withUnsafeMutablePointer(to: &resident) { residentPointer in
                withVaList([sizePointer, residentPointer]) { vfscanf(file, "%ld %ld", $0) }
            }
        }
        return resident * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

/// Fixed-width table output.
enum Report {
    /// Pads `text` to `width` columns (left-aligned).
    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    /// Formats `value` with `digits` decimals.
    static func number(_ value: Double, _ digits: Int = 1) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        var text = "\(rounded)"
        if let dot = text.firstIndex(of: "."), text.distance(from: dot, to: text.endIndex) - 1 < digits {
            text += String(repeating: "0", count: digits - (text.distance(from: dot, to: text.endIndex) - 1))
        }
        return text
    }

    /// Prints one row of cells padded to `widths`.
    static func row(_ cells: [String], _ widths: [Int]) {
        print(zip(cells, widths).map { pad($0, $1) }.joined(separator: " "))
    }
}
