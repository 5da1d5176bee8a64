// SPDX-License-Identifier: MIT
import Glibc

/// `strerror(code)` as a Swift string.
func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }

/// Milliseconds of the monotonic clock, the time base of `processEvents(now:)` and deadlines.
func monotonicMilliseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1000 + UInt64(now.tv_nsec) / 1_000_000
}
