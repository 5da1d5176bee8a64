// SPDX-License-Identifier: MIT
import Glibc

/// Why a configuration file could not be read.
public struct ConfigReadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The `errno` value.
    public let code: Int32
    /// What the path is when it is not a regular file ("a FIFO", "a socket", …), else nil.
    public let fileType: String?

    /// Makes an error from an `errno` value.
    public init(code: Int32) {
        self.code = code
        fileType = nil
    }

    /// Makes the error for a path that is `fileType` ("a FIFO"), not a regular file: a FIFO
    /// would block the reader until some program writes to it, a device might never end.
    public init(notRegular fileType: String) {
        code = EINVAL
        self.fileType = fileType
    }

    /// What the file type bits of `mode` (from `stat`) name: "a FIFO", "a directory", ….
    public static func typeName(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: return "a FIFO"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        case S_IFDIR: return "a directory"
        case S_IFLNK: return "a symbolic link"
        default: return "not a file"
        }
    }

    /// True when the file does not exist.
    public var isMissing: Bool { code == ENOENT }

    /// The system's words for the error.
    public var description: String {
        if let fileType { return "it is \(fileType), not a regular file" }
        return code == EFBIG ? "it is larger than 1 MiB" : String(cString: strerror(code))
    }
}
