// SPDX-License-Identifier: MIT
import Glibc
import Posix
import TestSupport

/// A D-Bus client that writes its messages byte by byte, so that it can send what libdbus
/// refuses to build (strings that are not UTF-8, or hold NUL).
final class RawBusClient {
    private let fd: Int32
    private var serial: UInt32 = 1

    /// Connects to the bus at `address` (`unix:path=` or `unix:abstract=`), authenticates
    /// and says Hello.
    init(address: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw FixtureError("socket failed") }
        var place = sockaddr_un()
        place.sun_family = sa_family_t(AF_UNIX)
        var name: [UInt8]
        let fields = address.dropFirst("unix:".count).split(separator: ",")
        if let path = fields.first(where: { $0.hasPrefix("path=") }) {
            name = Array(path.dropFirst("path=".count).utf8)
        } else if let abstract = fields.first(where: { $0.hasPrefix("abstract=") }) {
            name = [0] + Array(abstract.dropFirst("abstract=".count).utf8)
        } else {
            close(fd)
            throw FixtureError("cannot connect to \(address) by hand")
        }
        let length = withUnsafeMutableBytes(of: &place.sun_path) { raw in
            for (index, byte) in name.prefix(raw.count).enumerated() { raw[index] = byte }
            return MemoryLayout<sa_family_t>.size + min(name.count, raw.count)
        }
        let connected = withUnsafePointer(to: &place) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(length)) }
        }
        guard connected == 0 else {
            close(fd)
            throw FixtureError("connect to \(address) failed")
        }
        let uid = Array(String(getuid()).utf8).map { String($0, radix: 16) }.joined()
        try write([0] + Array("AUTH EXTERNAL \(uid)\r\n".utf8))
        guard let answer = readLine(), answer.hasPrefix("OK") else {
            close(fd)
            throw FixtureError("the bus refused the authentication")
        }
        try write(Array("BEGIN\r\n".utf8))
        try write(
            message(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                interface: "org.freedesktop.DBus", member: "Hello", signature: "", body: []))
    }

    deinit { close(fd) }

    /// Sends a method call whose body is `body`, already marshalled for `signature`.
    func call(
        destination: String, path: String, interface: String, member: String, signature: String, body: [UInt8]
    ) throws {
        try write(
            message(
                destination: destination, path: path, interface: interface, member: member,
                signature: signature, body: body))
    }

    /// True once the bus closed the connection (waits at most `milliseconds`), reading and
    /// dropping whatever it sent before.
    func isClosedByPeer(within milliseconds: Int) -> Bool {
        let deadline = MonotonicClock.milliseconds() + UInt64(milliseconds)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while MonotonicClock.milliseconds() < deadline {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 50) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { return true }
        }
        return false
    }

    private func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes {
                send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if count <= 0 { throw FixtureError("the bus closed the connection") }
            offset += count
        }
    }

    private func readLine() -> String? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(fd, &byte, 1) == 1 {
            if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
        return nil
    }

    /// A little-endian method call.
    private func message(
        destination: String, path: String, interface: String, member: String, signature: String, body: [UInt8]
    ) -> [UInt8] {
        var out = Marshal()
        out.bytes = [UInt8(ascii: "l"), 1, 0, 1]
        out.u32(UInt32(body.count))
        out.u32(serial)
        serial += 1
        var fields = Marshal()
        for (code, type, value) in [
            (UInt8(1), "o", path), (2, "s", interface), (3, "s", member), (6, "s", destination),
        ] {
            fields.pad(8)
            fields.bytes.append(code)
            fields.signature(type)
            fields.string(Array(value.utf8))
        }
        if !signature.isEmpty {
            fields.pad(8)
            fields.bytes += [8]
            fields.signature("g")
            fields.signature(signature)
        }
        // The fields start 8-aligned, right after their length at offset 12.
        out.u32(UInt32(fields.bytes.count))
        out.pad(8)
        out.bytes += fields.bytes
        out.pad(8)
        return out.bytes + body
    }
}

/// D-Bus marshalling, little-endian, offsets from the start of the buffer.
struct Marshal {
    /// The bytes so far.
    var bytes: [UInt8] = []

    /// Pads with zeros to a multiple of `alignment`.
    mutating func pad(_ alignment: Int) {
        while bytes.count % alignment != 0 { bytes.append(0) }
    }

    /// A `u`.
    mutating func u32(_ value: UInt32) {
        pad(4)
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    /// An `i`.
    mutating func i32(_ value: Int32) { u32(UInt32(bitPattern: value)) }

    /// An `s` of exactly these bytes, valid or not.
    mutating func string(_ value: [UInt8]) {
        u32(UInt32(value.count))
        bytes += value
        bytes.append(0)
    }

    /// A `g`.
    mutating func signature(_ value: String) {
        bytes.append(UInt8(value.utf8.count))
        bytes += Array(value.utf8)
        bytes.append(0)
    }
}
