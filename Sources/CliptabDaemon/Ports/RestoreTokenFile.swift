// SPDX-License-Identifier: MIT
import CliptabCore
import Glibc

/// The RemoteDesktop portal's restore token, kept in one file of the data directory.
///
/// The token lets the next session start without the desktop's consent dialog, so it is as
/// private as the grant it stands for: the file is written with mode 0600 (to a temporary
/// name, then renamed, so a crash never leaves half a token), and a file that others may
/// read or write is not trusted.
public struct RestoreTokenFile: Sendable {
    /// The file's name in the data directory.
    public static let fileName = "remote-desktop-token"
    /// The longest token read back (the portal's are UUIDs, 36 bytes).
    static let maxBytes = 4096

    /// The file's path.
    public let path: String

    /// The token file of the data directory `directory`.
    public init(directory: String) {
        path = directory + "/" + Self.fileName
    }

    /// The kept token, or nil when there is none.
    ///
    /// Throws when the file exists but is not the daemon's private file (another owner, or
    /// readable or writable by others) or cannot be read.
    public func read() throws(CliptabError) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw failure("cannot open")
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw failure("cannot examine") }
        guard (status.st_mode & S_IFMT) == S_IFREG, status.st_uid == getuid(), status.st_mode & 0o077 == 0
        else {
            throw CliptabError(
                .invalidArgument,
                "the restore token \(path) is not a private file of this user (mode 0600); it was not used")
        }
        var bytes = [UInt8](repeating: 0, count: Self.maxBytes)
        let count = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard count >= 0 else { throw failure("cannot read") }
        let token = String(decoding: bytes[..<count], as: UTF8.self).filter { !$0.isWhitespace }
        return token.isEmpty ? nil : token
    }

    /// Keeps `token`, replacing the one kept before, in a file only this user can read.
    public func write(_ token: String) throws(CliptabError) {
        let temporary = path + ".new"
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw failure("cannot create", temporary) }
        var bytes = Array((token + "\n").utf8)
        let written = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        // The mode is set again: a umask could only have narrowed it, but fchmod says it.
        let kept = written == bytes.count && fchmod(fd, 0o600) == 0 && fsync(fd) == 0
        close(fd)
        bytes.removeAll()
        guard kept, rename(temporary, path) == 0 else {
            let error = failure("cannot write", temporary)
            unlink(temporary)
            throw error
        }
    }

    /// Removes the kept token (the portal refused it, or the person revoked the grant).
    public func remove() {
        unlink(path)
    }

    private func failure(_ what: String, _ file: String? = nil) -> CliptabError {
        CliptabError(
            .clipboardUnavailable,
            "\(what) the restore token \(file ?? path): \(String(cString: strerror(errno)))")
    }
}
