// SPDX-License-Identifier: MIT
import Glibc

/// A failed system call: which call, and the `errno` it left.
public struct SystemCallError: Error, Equatable, CustomStringConvertible {
    /// The name of the call that failed, for example `posix_spawn`.
    public let call: String
    /// The `errno` value.
    public let code: Int32

    /// Makes an error for `call` with `errno` code `code`.
    public init(_ call: String, code: Int32) {
        self.call = call
        self.code = code
    }

    /// Makes an error for `call` from the current `errno`.
    public static func current(_ call: String) -> SystemCallError {
        SystemCallError(call, code: errno)
    }

    /// "call: strerror(code)".
    public var description: String {
        "\(call): \(String(cString: strerror(code)))"
    }
}
