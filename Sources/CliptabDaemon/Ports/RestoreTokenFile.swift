// SPDX-License-Identifier: MIT
import CliptabCore
import Glibc

/// The RemoteDesktop portal's restore token, kept in one file of the data directory.
///
/// The token lets the next session start without the desktop's consent dialog, so it is as
/// private as the grant it stands for: the file is written with mode 0600 (to a temporary
/// name, then renamed and the directory synced, so a crash never leaves half a token), and
/// a file that others may read or write, or that is not a regular file, is not trusted.
public struct RestoreTokenFile: Sendable {
    /// The file's name in the data directory.
    public static let fileName = "remote-desktop-token"
    /// The longest token read back (the portal's are UUIDs, 36 bytes).
    static let maxBytes = 4096

    /// The file's path.
    public let path: String
    /// The data directory, synced after a rename in it.
    private let directory: String

    /// The token file of the data directory `directory`.
    public init(directory: String) {
        self.directory = directory
        path = directory + "/" + Self.fileName
    }

    /// The kept token, or nil when there is none.
    ///
    /// Throws when the file exists but is not the daemon's private file (not a regular file,
    /// another owner, or readable or writable by others) or cannot be read; the error says
    /// which, for the log.
    public func read() throws(CliptabError) -> String? {
        // Without blocking: a FIFO in the token's place would wait for a writer, and the
        // daemon with it; a symbolic link is refused by O_NOFOLLOW (ELOOP).
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            if errno == ELOOP { throw refusal("is a symbolic link") }
            throw failure("cannot open")
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw failure("cannot examine") }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw refusal("is \(Self.typeName(status.st_mode)), not a regular file")
        }
        guard status.st_uid == getuid() else {
            throw refusal("belongs to uid \(status.st_uid), not to this user (uid \(getuid()))")
        }
        guard status.st_mode & 0o077 == 0 else {
            throw refusal(
                "has mode \(String(status.st_mode & 0o777, radix: 8)), which lets others read or write it")
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
        // The rename is durable only once the directory is written: after a crash the token
        // would otherwise be the old one, which the portal no longer accepts (a token serves once).
        let parent = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard parent >= 0 else { throw failure("cannot open the directory of") }
        defer { close(parent) }
        guard fsync(parent) == 0 else { throw failure("cannot make durable the rename of") }
    }

    /// Removes the kept token (the portal refused it, or the person revoked the grant).
    public func remove() {
        unlink(path)
    }

    /// The refusal of a token file that is not this user's private file: it is left alone
    /// and not used, and the next start of a session asks for consent again.
    private func refusal(_ why: String) -> CliptabError {
        CliptabError(
            .invalidArgument,
            "the restore token \(path) \(why); it was not used (it must be a private file of this user, mode 0600)"
        )
    }

    /// "a FIFO", "a directory", … for the log.
    private static func typeName(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: return "a FIFO"
        case S_IFDIR: return "a directory"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "not a regular file"
        }
    }

    private func failure(_ what: String, _ file: String? = nil) -> CliptabError {
        CliptabError(
            .clipboardUnavailable,
            "\(what) the restore token \(file ?? path): \(String(cString: strerror(errno)))")
    }
}
