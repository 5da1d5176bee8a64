// SPDX-License-Identifier: MIT
import Glibc

/// Blocking Unix stream sockets for tests that speak to a socket themselves: as a client
/// that sends what no well-behaved one would, or as a file left by a process that died.
public enum UnixSocket {
    /// A socket connected to `path`.
    public static func connected(to path: String) throws -> Int32 {
        try withAddress(path) { fd, address, length in
            guard connect(fd, address, length) == 0 else {
                throw FixtureError("connecting to \(path) failed: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// A socket bound at `path` that does not listen: what a killed server leaves.
    public static func bound(at path: String) throws -> Int32 {
        try withAddress(path) { fd, address, length in
            guard bind(fd, address, length) == 0 else {
                throw FixtureError("binding \(path) failed: \(String(cString: strerror(errno)))")
            }
        }
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
