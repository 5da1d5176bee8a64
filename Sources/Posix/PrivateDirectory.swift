// SPDX-License-Identifier: MIT
import Glibc

/// A directory only this process's user can enter, for sockets that must not be reachable
/// (or replaceable) by anyone else.
public enum PrivateDirectory {
    /// Why a directory cannot be used as a private one.
    public struct Refusal: Error, Equatable, CustomStringConvertible {
        /// The directory's path.
        public let path: String
        /// What is wrong with it.
        public let reason: String

        /// "`path`: `reason`".
        public var description: String { "\(path): \(reason)" }
    }

    /// Makes `path` with mode 0700 unless it exists; then checks that it is a directory (not
    /// a symbolic link), owned by this user, that nobody else may enter or write.
    ///
    /// Throws `SystemCallError` when the directory cannot be made or read, and `Refusal`
    /// for one that is not private; an existing directory is never changed.
    public static func make(_ path: String) throws {
        if mkdir(path, 0o700) != 0 && errno != EEXIST { throw SystemCallError.current("mkdir \(path)") }
        var status = stat()
        guard lstat(path, &status) == 0 else { throw SystemCallError.current("lstat \(path)") }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw Refusal(path: path, reason: "not a directory")
        }
        guard status.st_uid == geteuid() else {
            throw Refusal(
                path: path, reason: "owned by uid \(status.st_uid), not by this user (uid \(geteuid()))")
        }
        guard status.st_mode & 0o077 == 0 else {
            throw Refusal(
                path: path,
                reason: "mode \(String(status.st_mode & 0o777, radix: 8)) lets others in; it must be 0700")
        }
    }
}
