// SPDX-License-Identifier: MIT
import Glibc

/// Whole files read under a bound, and replaced so that a crash at any moment leaves the old
/// file or the new one, never a torn one.
public enum FileContents {
    /// The prefix of the temporary files `replace` writes beside their target (hidden, so
    /// that folder readers skip them; a crash may leave one behind).
    public static let temporaryPrefix = ".cliptab-tmp-"

    /// The bytes of the regular file at `path` (links followed), at most `limit` of them;
    /// throws `EFBIG` for a larger file, `EINVAL` for something not a regular file.
    public static func read(_ path: String, limit: Int) throws -> [UInt8] {
        // O_NONBLOCK: a FIFO put in place of the file must not stop the caller.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else { throw SystemCallError.current("open \(path)") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw SystemCallError.current("fstat \(path)") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw SystemCallError("read \(path)", code: EINVAL) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw SystemCallError.current("read \(path)") }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
            if bytes.count > limit { throw SystemCallError("read \(path)", code: EFBIG) }
        }
    }

    /// The identity of the file at `path` (links followed) as it is now: device, inode,
    /// size and modification time; nil when it is missing.
    public static func signature(_ path: String) -> [Int]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [
            Int(info.st_dev), Int(info.st_ino), Int(info.st_size), info.st_mtim.tv_sec, info.st_mtim.tv_nsec,
        ]
    }

    /// Replaces the file at `path` with `bytes`: written to a temporary file in the same
    /// directory, synced, renamed over `path`, and the directory synced.
    ///
    /// A symbolic link at `path` is followed, so that the link stays and its target changes.
    /// The file's permissions are kept (`mode` for a new file). With `exclusive`, an existing
    /// file is refused with `EEXIST`. Without `sync`, nothing is synced: a crash of the
    /// program still leaves the old file or the new one, a power cut may not.
    public static func replace(
        _ path: String, with bytes: [UInt8], mode: mode_t = 0o644, exclusive: Bool = false, sync: Bool = true
    ) throws {
        var target = path
        var existing = stat()
        if lstat(path, &existing) == 0 {
            if exclusive { throw SystemCallError("create \(path)", code: EEXIST) }
            if existing.st_mode & S_IFMT == S_IFLNK, let resolved = realPath(path) {
                target = resolved
                _ = stat(target, &existing)
            }
        }
        let fileMode = exclusive || lstat(target, &existing) != 0 ? mode : existing.st_mode & 0o7777
        let directory = Self.directory(of: target)
        let base = target[target.index(after: target.lastIndex(of: "/") ?? target.startIndex)...]
        var template = Array("\(directory)/\(temporaryPrefix)\(base).XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { throw SystemCallError.current("mkstemp in \(directory)") }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let temporary = String(
            decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var renamed = false
        defer {
            if !renamed { unlink(temporary) }
        }
        do {
            defer { close(fd) }
            fchmod(fd, fileMode)
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { throw SystemCallError.current("write \(temporary)") }
                offset += written
            }
            guard !sync || fsync(fd) == 0 else { throw SystemCallError.current("fsync \(temporary)") }
        }
        if exclusive {
            // link() fails where the name exists: no window in which another file is replaced.
            guard link(temporary, target) == 0 else { throw SystemCallError.current("link \(target)") }
            unlink(temporary)
        } else {
            guard rename(temporary, target) == 0 else { throw SystemCallError.current("rename to \(target)") }
        }
        renamed = true
        guard sync else { return }
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directoryFD >= 0 else { throw SystemCallError.current("open \(directory)") }
        defer { close(directoryFD) }
        guard fsync(directoryFD) == 0 else { throw SystemCallError.current("fsync \(directory)") }
    }

    /// The canonical absolute path of `path` (every link resolved), or nil.
    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The directory part of `path` (`.` for a bare name).
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The names in `directory`, `.` and `..` left out; throws when it cannot be read.
    public static func names(in directory: String) throws -> [String] {
        guard let stream = opendir(directory) else { throw SystemCallError.current("opendir \(directory)") }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Makes `directory` and the directories above it (mode 0700 for those it makes).
    public static func makeDirectories(_ directory: String) throws {
        var path = ""
        for part in directory.split(separator: "/", omittingEmptySubsequences: true) {
            path += "/" + part
            if mkdir(path, 0o700) != 0 && errno != EEXIST { throw SystemCallError.current("mkdir \(path)") }
        }
    }
}
