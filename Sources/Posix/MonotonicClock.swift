// SPDX-License-Identifier: MIT
import Glibc

/// Monotonic time, for deadlines and benchmarks: never jumps with the wall clock.
public enum MonotonicClock {
    /// Nanoseconds since an arbitrary fixed point.
    ///
    /// The corresponding C function is `clock_gettime`.
    public static func nanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// Milliseconds since an arbitrary fixed point.
    public static func milliseconds() -> UInt64 {
        nanoseconds() / 1_000_000
    }
}
