// SPDX-License-Identifier: MIT
import Glibc

/// Why a configuration file could not be read.
public struct ConfigReadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The `errno` value.
    public let code: Int32

    /// Makes an error from an `errno` value.
    public init(code: Int32) { self.code = code }

    /// True when the file does not exist.
    public var isMissing: Bool { code == ENOENT }

    /// The system's words for the error.
    public var description: String {
        code == EFBIG ? "it is larger than 1 MiB" : String(cString: strerror(code))
    }
}
