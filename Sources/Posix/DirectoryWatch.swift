// SPDX-License-Identifier: MIT
import Glibc

/// Reports changes to the entries of watched directories as readable events on one
/// descriptor, for a `poll()` loop.
///
/// A directory is watched rather than its files: editors and sync tools save by writing
/// another file and renaming it over, which a watch on the old file would never see. A
/// watched path that is a symbolic link is followed to its target. The corresponding C
/// functions are `inotify_init1`, `inotify_add_watch` and `inotify_rm_watch`.
public final class DirectoryWatch {
    /// One change to an entry of a watched directory.
    public struct Event: Equatable, Sendable {
        /// The watched directory, as it was given to `watch(_:)`.
        public let directory: String
        /// The entry's name; empty for an event of the directory itself.
        public let name: String
        /// True when the kernel dropped events: the caller reads the directories again.
        public let overflowed: Bool
    }

    /// The descriptor to poll for `POLLIN`; owned, closed by `deinit`.
    public let fileDescriptor: Int32
    /// The watched directories by watch descriptor.
    private var directories: [Int32: String] = [:]
    /// Where events are read: kept, since the loop asks for events on every turn.
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    // The events that say an entry was written, replaced, made or removed. IN_MODIFY too, so
    // that a long write in place (git) keeps the caller's settle time running.
    private static let mask =
        UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_MOVED_FROM) | UInt32(IN_CREATE)
        | UInt32(IN_DELETE) | UInt32(IN_MODIFY) | UInt32(IN_ATTRIB) | UInt32(IN_DELETE_SELF)
        | UInt32(IN_MOVE_SELF) | UInt32(IN_ONLYDIR)

    private init(fileDescriptor: Int32) { self.fileDescriptor = fileDescriptor }

    /// A watch with no directory yet.
    public static func make() throws -> DirectoryWatch {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw SystemCallError.current("inotify_init1") }
        return DirectoryWatch(fileDescriptor: fd)
    }

    /// The directories watched now.
    public var watched: Set<String> { Set(directories.values) }

    /// Starts watching `directory` (following a symbolic link to it); watching it twice is
    /// one watch.
    public func watch(_ directory: String) throws {
        guard !directories.values.contains(directory) else { return }
        let wd = inotify_add_watch(fileDescriptor, directory, Self.mask)
        guard wd >= 0 else { throw SystemCallError.current("inotify_add_watch \(directory)") }
        directories[wd] = directory
    }

    /// Stops watching `directory`.
    public func unwatch(_ directory: String) {
        for (wd, path) in directories where path == directory {
            inotify_rm_watch(fileDescriptor, wd)
            directories[wd] = nil
        }
    }

    /// The events queued now (none when nothing is pending); never blocks.
    public func read() -> [Event] {
        var events: [Event] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fileDescriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return events }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let (wd, mask, length) = buffer.withUnsafeBytes { raw in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.wd, event.mask, Int(event.len))
                }
                let nameBytes = buffer[(offset + header)..<min(count, offset + header + length)]
                let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                offset += header + length
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    events.append(Event(directory: "", name: "", overflowed: true))
                    continue
                }
                if mask & UInt32(IN_IGNORED) != 0 {
                    // The directory went away (or was unwatched): its watch is gone.
                    if let directory = directories.removeValue(forKey: wd) {
                        events.append(Event(directory: directory, name: "", overflowed: false))
                    }
                    continue
                }
                guard let directory = directories[wd] else { continue }
                events.append(Event(directory: directory, name: name, overflowed: false))
            }
        }
    }

    deinit {
        close(fileDescriptor)
    }
}
