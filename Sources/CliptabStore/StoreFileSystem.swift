// SPDX-License-Identifier: MIT
import CliptabCore
import Glibc

/// The value of environment variable `name`, if set.
func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
}

/// The size of the file at `path`, or nil when there is none.
func fileSize(_ path: String) -> Int? {
    var info = stat()
    return stat(path, &info) == 0 ? Int(info.st_size) : nil
}

/// A storage failure for a failed system call.
func storageError(_ what: String, _ code: Int32) -> CliptabError {
    CliptabError(.storageFailure, "\(what): \(String(cString: strerror(code)))")
}

/// Makes `directory` and its missing parents; the last one gets mode 0700.
///
/// An existing directory must belong to this user (another user, root included, could read
/// the store or swap its files): it is refused otherwise, and closed to 0700 when it is open
/// to others.
func makeDirectory(_ directory: String) throws {
    // A relative directory stays relative: components are joined from "" or "/".
    var path = directory.hasPrefix("/") ? "" : "."
    let components = directory.split(separator: "/")
    for (index, component) in components.enumerated() {
        path += "/" + component
        if mkdir(path, index == components.count - 1 ? 0o700 : 0o755) != 0 && errno != EEXIST {
            throw storageError("cannot create the data directory \(path)", errno)
        }
    }
    var info = stat()
    guard stat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
        throw CliptabError(.storageFailure, "the data directory \(directory) is not a directory")
    }
    let user = geteuid()
    if info.st_uid != user {
        throw CliptabError(
            .storageFailure,
            "the data directory \(directory) belongs to uid \(info.st_uid), not to this user (uid \(user)); "
                + "cliptabd keeps its store only in a directory of its own user")
    }
    if info.st_mode & 0o077 != 0 && chmod(directory, 0o700) != 0 {
        throw storageError(
            "the data directory \(directory) is open to others (mode \(String(info.st_mode & 0o777, radix: 8))) "
                + "and cannot be closed to 0700", errno)
    }
}
