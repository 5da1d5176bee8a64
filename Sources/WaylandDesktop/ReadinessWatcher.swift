// SPDX-License-Identifier: MIT
import CWayland
import Glibc

/// An epoll descriptor over the display socket and every transfer pipe: the one descriptor
/// the daemon's `poll()` loop waits on for the whole service.
final class ReadinessWatcher {
    /// The epoll descriptor (readable when any watched descriptor is ready).
    let fileDescriptor: Int32

    private init(fileDescriptor: Int32) { self.fileDescriptor = fileDescriptor }

    /// Makes an empty watcher.
    static func make() throws(WaylandError) -> ReadinessWatcher {
        let fd = CWayland_epoll_create()
        guard fd >= 0 else { throw .systemCall("epoll_create1", code: errno) }
        return ReadinessWatcher(fileDescriptor: fd)
    }

    deinit { close(fileDescriptor) }

    /// What to watch a descriptor for.
    enum Interest: Int32 {
        case readable = 0
        case writable = 1
        case both = 2
    }

    /// Starts watching `fd` (or changes what for, with `modify`).
    func watch(_ fd: Int32, for interest: Interest, modify: Bool = false) throws(WaylandError) {
        guard CWayland_epoll_watch(fileDescriptor, fd, interest.rawValue, modify ? 1 : 0) == 0 else {
            throw .systemCall("epoll_ctl", code: errno)
        }
    }

    /// Stops watching `fd` (before it is closed).
    func unwatch(_ fd: Int32) { _ = CWayland_epoll_unwatch(fileDescriptor, fd) }

    /// The watched descriptors that are ready now (without waiting), at most 64.
    func ready() -> Set<Int32> {
        var fds = [Int32](repeating: -1, count: 64)
        let count = fds.withUnsafeMutableBufferPointer {
            CWayland_epoll_ready(fileDescriptor, $0.baseAddress, Int32($0.count), 0)
        }
        return count > 0 ? Set(fds.prefix(Int(count))) : []
    }
}
