// SPDX-License-Identifier: MIT
import CliptabCore
import Glibc

/// A file read from a snippet source: its path below the source (components) and bytes.
public struct SourceFile: Equatable, Sendable {
    /// The folders below the source, then the file's name; just the name for a single file.
    public var components: [String]
    /// The file's bytes.
    public var bytes: [UInt8]

    /// A file at `components` holding `bytes`.
    public init(components: [String], bytes: [UInt8]) {
        self.components = components
        self.bytes = bytes
    }

    /// The file's name.
    public var name: String { components.last ?? "" }
    /// Its path below the source, for the report.
    public var path: String { components.joined(separator: "/") }
}

/// Reading a snippet source from disk, bounded: a file or a folder read recursively in name
/// order, hidden entries skipped, symbolic links followed to files only (never to folders,
/// so that no loop is walked).
public struct SnippetFiles {
    /// The most bytes read in all (a source past it is refused, not cut).
    public var maxTotalBytes: Int
    /// The most files read.
    public var maxFiles: Int
    /// The deepest folder read below the source.
    public var maxDepth: Int

    /// The bounds; the defaults keep an import within what one table holds.
    public init(maxTotalBytes: Int = 32 << 20, maxFiles: Int = 10_000, maxDepth: Int = 16) {
        self.maxTotalBytes = maxTotalBytes
        self.maxFiles = maxFiles
        self.maxDepth = maxDepth
    }

    /// The files of `path` (absolute), and what was skipped and why.
    ///
    /// A file is read itself, a folder every file below it in name order. `invalidArgument`
    /// when it cannot be read, `limitExceeded` past a bound.
    public func read(_ path: String) throws -> (files: [SourceFile], skipped: [String], isFolder: Bool) {
        guard path.hasPrefix("/") else {
            throw CliptabError(.invalidArgument, "the path \(quoted(path)) is not absolute")
        }
        var info = stat()
        guard stat(path, &info) == 0 else { throw Self.failure(path, errno) }
        var state = (files: [SourceFile](), skipped: [String](), total: 0)
        if info.st_mode & S_IFMT == S_IFDIR {
            try walk(path, below: [], &state)
            return (state.files, state.skipped, true)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw CliptabError(.invalidArgument, "\(quoted(path)) is neither a file nor a folder")
        }
        let name = String(path.split(separator: "/").last ?? "")
        state.files.append(SourceFile(components: [name], bytes: try contents(path, name, &state.total)))
        return (state.files, state.skipped, false)
    }

    private func walk(
        _ folder: String, below: [String], _ state: inout (files: [SourceFile], skipped: [String], total: Int)
    ) throws {
        guard below.count <= maxDepth else {
            throw CliptabError(
                .limitExceeded,
                "\(quoted(below.joined(separator: "/"))) is nested more than \(maxDepth) folders deep")
        }
        for name in try entries(folder) {
            let full = folder + "/" + name
            let shown = (below + [name]).joined(separator: "/")
            var info = stat()
            guard lstat(full, &info) == 0 else { throw Self.failure(full, errno) }
            var kind = info.st_mode & S_IFMT
            if kind == S_IFLNK {
                guard stat(full, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
                    state.skipped.append("\(shown): skipped: a link to something else than a file")
                    continue
                }
                kind = S_IFREG
            }
            if kind == S_IFDIR {
                try walk(full, below: below + [name], &state)
            } else if kind == S_IFREG {
                guard state.files.count < maxFiles else {
                    throw CliptabError(.limitExceeded, "the source holds more than \(maxFiles) files")
                }
                state.files.append(
                    SourceFile(components: below + [name], bytes: try contents(full, shown, &state.total)))
            } else {
                state.skipped.append("\(shown): skipped: not a regular file")
            }
        }
    }

    /// The names in `folder`, hidden ones left out, in byte order.
    private func entries(_ folder: String) throws -> [String] {
        guard let directory = opendir(folder) else { throw Self.failure(folder, errno) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            guard !name.hasPrefix(".") else { continue }
            guard names.count < maxFiles else {
                throw CliptabError(.limitExceeded, "\(quoted(folder)) holds more than \(maxFiles) entries")
            }
            names.append(name)
        }
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The bytes of the file at `path`, counted against the total: never more than the
    /// bound is read, whatever size the file claims.
    private func contents(_ path: String, _ shown: String, _ total: inout Int) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard descriptor >= 0 else { throw Self.failure(path, errno) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let room = maxTotalBytes - total + 1
            let count = chunk.withUnsafeMutableBytes {
                Glibc.read(descriptor, $0.baseAddress, min($0.count, room))
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw Self.failure(path, errno)
            }
            if count == 0 { return bytes }
            total += count
            guard total <= maxTotalBytes else {
                throw CliptabError(
                    .limitExceeded,
                    "\(quoted(shown)): the source is larger than \(maxTotalBytes >> 20) MiB; nothing was imported"
                )
            }
            bytes += chunk[0..<count]
        }
    }

    private static func failure(_ path: String, _ code: Int32) -> CliptabError {
        CliptabError(.invalidArgument, "\(quoted(path)) cannot be read: \(String(cString: strerror(code)))")
    }
}
