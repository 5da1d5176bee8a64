// SPDX-License-Identifier: MIT
import Glibc

/// Why a zone file could not be read: the C library's error, in words.
struct ZoneReadError: Error, CustomStringConvertible {
    /// The `errno` value.
    let errno: Int32

    /// The error's text.
    var description: String { String(cString: strerror(errno)) }
}
