// SPDX-License-Identifier: MIT

/// How the menu ended, as its exit status (the same from either popup).
public enum MenuExit {
    /// A choice was carried out.
    public static let done: Int32 = 0
    /// Escape, a click outside, or the daemon refused.
    public static let cancelled: Int32 = 1
    /// Wrong arguments.
    public static let usage: Int32 = 2
    /// cliptabd or the bus is not there.
    public static let unavailable: Int32 = 69
    /// Ended by a signal (SIGTERM, SIGINT, SIGHUP).
    public static let signaled: Int32 = 143
}
