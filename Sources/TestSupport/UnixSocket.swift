// SPDX-License-Identifier: MIT
import Glibc

/// Unix stream sockets for tests that stand where a program should not go.
public enum UnixSocket {
    /// A socket listening at `path` that never accepts: a connection to it waits in its
    /// queue, where `hasPendingConnection` sees it.
    public static func listening(at path: String) throws -> Int32 {
        try withAddress(path) { fd, address, length in
            guard bind(fd, address, length) == 0, listen(fd, 16) == 0 else {
                throw FixtureError("listening at \(path) failed: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// True when a client has connected to the listening socket `fd` (a connection waits
    /// to be accepted); never blocks.
    public static func hasPendingConnection(_ fd: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0 && entry.revents & Int16(POLLIN) != 0
    }

    /// A new socket, given to `body` with the address of `path`; closed when `body` throws.
    private static func withAddress(
        _ path: String, _ body: (Int32, UnsafePointer<sockaddr>, socklen_t) throws -> Void
    ) throws -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8) + [0]
        guard bytes.count <= MemoryLayout.size(ofValue: address.sun_path) else {
            throw FixtureError("\(path) is too long for a socket")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw FixtureError("socket failed: \(String(cString: strerror(errno)))") }
        do {
            try withUnsafePointer(to: &address) {
                try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    try body(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
        } catch {
            close(fd)
            throw error
        }
        return fd
    }
}
