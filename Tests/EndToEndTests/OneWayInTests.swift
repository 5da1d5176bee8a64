// SPDX-License-Identifier: MIT
import Foundation
import Glibc
import TestSupport
import Testing

/// The session bus is the one way into cliptabd: the daemon listens on no socket, and the CLI
/// connects to nothing but the bus, whatever listens elsewhere in the session.
@Suite struct OneWayInTests {
    /// A socket listening where cliptabd once had its own (`$XDG_RUNTIME_DIR/cliptab/bus-KEY`),
    /// as another user who made the directory first could: `cliptab get` answers from the
    /// daemon through the bus, and nothing ever connects to the impostor.
    @Test func cliptabNeverCallsTheOldOwnSocket() throws {
        let fixture = try CLIFixture()
        defer { fixture.stop() }
        #expect(try fixture.run("create", "t").status == 0)
        #expect(try fixture.run("add", "t", "the daemon's text").status == 0)
        let runtime = try #require(fixture.environment["XDG_RUNTIME_DIR"])
        // A daemon that still made its own socket made the directory too: the impostor
        // takes the place all the same.
        #expect(mkdir(runtime + "/cliptab", 0o700) == 0 || errno == EEXIST)
        let path = runtime + "/cliptab/bus-" + Self.oldBusKey(ofAddress: fixture.bus.address)
        unlink(path)
        let impostor = try UnixSocket.listening(at: path)
        defer { close(impostor) }

        #expect(try fixture.run("get", "t", "0:0") == Outcome(0, "the daemon's text"))
        #expect(try fixture.run("tables").status == 0)
        #expect(!UnixSocket.hasPendingConnection(impostor), "cliptab connected to \(path)")
    }

    /// cliptabd holds no listening socket: every socket it has is a connection (the bus's),
    /// as the kernel's table of Unix sockets says.
    @Test func daemonListensOnNoSocket() throws {
        let fixture = try CLIFixture()
        defer { fixture.stop() }
        #expect(try fixture.run("tables").status == 0)
        let pid = fixture.daemon.pid
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")
        let sockets = Set(
            descriptors.compactMap { name -> String? in
                let target =
                    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(name)"))
                guard let target, target.hasPrefix("socket:[") else { return nil }
                return String(target.dropFirst("socket:[".count).dropLast())
            })
        #expect(!sockets.isEmpty, "cliptabd has no socket at all: not even its bus connection")
        // /proc/net/unix: "Num RefCount Protocol Flags Type St Inode Path"; flag 0x10000
        // (__SO_ACCEPTCON) marks a listening socket.
        let table = try Self.wholeFile("/proc/net/unix")
        let listening = table.split(separator: "\n").dropFirst().compactMap { line -> String? in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 7, sockets.contains(String(fields[6])),
                let flags = UInt32(fields[3], radix: 16), flags & 0x10000 != 0
            else { return nil }
            return String(line)
        }
        #expect(listening.isEmpty, "cliptabd listens: \(listening)")
    }

    /// All of `path`, read to its end: a /proc file says it has no size, and Foundation reads
    /// only the first page of one that long.
    static func wholeFile(_ path: String) throws -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FixtureError("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The key by which cliptabd named its own socket until it had none: FNV-1a (64 bits, in
    /// hex) of the bytes of `sun_path` of the bus's first Unix address (a path with its NUL,
    /// or an abstract name after one).
    static func oldBusKey(ofAddress address: String) -> String {
        let entry = address.split(separator: ";").first.map(String.init) ?? address
        var name: [UInt8] = []
        for pair in entry.dropFirst("unix:".count).split(separator: ",") {
            if pair.hasPrefix("path=") { name = Array(pair.dropFirst(5).utf8) + [0] }
            if pair.hasPrefix("abstract=") { name = [0] + Array(pair.dropFirst(9).utf8) }
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
