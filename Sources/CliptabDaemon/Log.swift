// SPDX-License-Identifier: MIT
import Glibc

/// The daemon's log: one line per event on standard error (journald adds the time).
///
/// Never given cell text.
public enum Log {
    /// Writes "cliptabd: message" and a newline to standard error in one write.
    public static func line(_ message: String) {
        var text = "cliptabd: " + message + "\n"
        text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    }
}
