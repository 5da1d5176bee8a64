// SPDX-License-Identifier: MIT
import Glibc

extension ConfigFile {
    /// The largest configuration file read: 1 MiB.
    public static let maxBytes = 1 << 20

    /// Reads and parses the file at `path`.
    ///
    /// Throws what `read(path:)` throws: a missing file, a FIFO, a huge file.
    public static func load(path: String) throws(ConfigReadError) -> ConfigFile {
        ConfigFile(parsing: try read(path: path), path: path)
    }

    /// Reads the whole file at `path`, a regular file of at most `maxBytes`; never waits.
    ///
    /// Throws the `errno` of the failing call: `ENOENT` when there is no such file, `EFBIG`
    /// when it is larger than `maxBytes`; a FIFO, a device or a socket is refused unread.
    /// This is the one place where the programs' reads of the file meet the system.
    public static func read(path: String) throws(ConfigReadError) -> [UInt8] {
        // Without blocking: opening a FIFO for reading waits for a writer, and would stall
        // the daemon at its start or on a reload, or the CLI and the popup on a key press;
        // only a regular file is read.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        if fd < 0 { throw ConfigReadError(code: errno) }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) != 0 { throw ConfigReadError(code: errno) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw ConfigReadError(code: EISDIR)
        default: throw ConfigReadError(notRegular: ConfigReadError.typeName(info.st_mode))
        }
        // A configuration is small; a huge file is a mistake, not a configuration. The size
        // refuses most at once; the count below holds for a file that grows while read.
        if info.st_size > maxBytes { throw ConfigReadError(code: EFBIG) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ConfigReadError(code: errno)
            }
            if count == 0 { return bytes }
            if bytes.count + count > maxBytes { throw ConfigReadError(code: EFBIG) }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// The entries of the sections named `section` (any subsection), in file order.
    public func entries(in section: String) -> [ConfigEntry] {
        entries.filter { $0.section == section }
    }

    /// The value of `key` in `[section]` (the section without a subsection), if it is set.
    public func value(of key: String, in section: String) -> String? {
        entries.first { $0.section == section && $0.subsection == nil && $0.key == key }?.value
    }
}
