// SPDX-License-Identifier: MIT
import Foundation
import Glibc
import Posix

/// The answer to one `LoopbackHTTP` request.
public struct HTTPReply: Sendable {
    /// The status code (200, 404, ...).
    public let status: Int
    /// The body, with any chunked transfer coding removed.
    public let body: [UInt8]

    /// The body decoded as UTF-8 (invalid bytes repaired).
    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}

/// A minimal HTTP/1.1 client for test servers on 127.0.0.1 (Syncthing's REST API): one
/// request per connection, every step under one deadline.
///
/// Not URLSession: on Linux it lives in FoundationNetworking, which loads libcurl, a library
/// that no package of `.ci/deps` brings, and every test bundle linking TestSupport would then
/// need it to load at all. A loopback server that speaks plain HTTP needs none of that.
public enum LoopbackHTTP {
    /// The most of a reply that is read; a test server never sends more.
    static let replyLimit = 16 << 20

    /// Sends `method path` to 127.0.0.1:`port` with `headers` and `body`, and reads the whole
    /// reply; throws when the server cannot be reached or the reply is not HTTP, or after
    /// `timeoutMilliseconds`.
    public static func request(
        _ method: String, port: UInt16, path: String, headers: [String: String] = [:], body: [UInt8] = [],
        timeoutMilliseconds: Int = 10_000
    ) throws -> HTTPReply {
        let deadline = MonotonicClock.milliseconds() + UInt64(timeoutMilliseconds)
        let what = "\(method) http://127.0.0.1:\(port)\(path)"
        let fd = try connectLoopback(port: port, deadline: deadline, what: what)
        defer { close(fd) }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        head += "Content-Length: \(body.count)\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        try send(Array((head + "\r\n").utf8) + body, to: fd, deadline: deadline, what: what)
        // The server closes after its reply (Connection: close), so the reply is all there is.
        var reply: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            try wait(for: fd, events: POLLIN, deadline: deadline, what: "\(what): reading the reply")
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw FixtureError("\(what): read failed: \(String(cString: strerror(errno)))")
            }
            reply += chunk[0..<count]
            guard reply.count <= replyLimit else {
                throw FixtureError("\(what): reply over \(replyLimit) bytes")
            }
        }
        return try parse(reply, what: what)
    }

    /// `count` different TCP ports on 127.0.0.1 that nothing listens on now.
    ///
    /// The kernel picks each (a bind to port 0); all stay bound until every one is picked, so
    /// that they differ. Another program may still take one before the caller binds it.
    public static func freePorts(_ count: Int) throws -> [UInt16] {
        var sockets: [Int32] = []
        defer { for fd in sockets { close(fd) } }
        var ports: [UInt16] = []
        for _ in 0..<count {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw FixtureError("socket failed: \(String(cString: strerror(errno)))") }
            sockets.append(fd)
            var address = loopbackAddress(port: 0)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let named = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            guard bound == 0, named == 0 else {
                throw FixtureError("no free port on 127.0.0.1: \(String(cString: strerror(errno)))")
            }
            ports.append(UInt16(bigEndian: address.sin_port))
        }
        return ports
    }

    /// 127.0.0.1:`port` as a socket address.
    private static func loopbackAddress(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        return address
    }

    /// A non-blocking socket connected to 127.0.0.1:`port`.
    private static func connectLoopback(port: UInt16, deadline: UInt64, what: String) throws -> Int32 {
        let fd = socket(
            AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else {
            throw FixtureError("\(what): socket failed: \(String(cString: strerror(errno)))")
        }
        var address = loopbackAddress(port: port)
        let started = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        do {
            if started != 0 {
                guard errno == EINPROGRESS else {
                    throw FixtureError("\(what): connect failed: \(String(cString: strerror(errno)))")
                }
                // A listener whose queue is full leaves the connection pending: bounded here.
                try wait(for: fd, events: POLLOUT, deadline: deadline, what: "\(what): connecting")
                var failure: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length)
                guard failure == 0 else {
                    throw FixtureError("\(what): connect failed: \(String(cString: strerror(failure)))")
                }
            }
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// Writes all of `bytes` to the non-blocking `fd` before `deadline`.
    private static func send(_ bytes: [UInt8], to fd: Int32, deadline: UInt64, what: String) throws {
        var written = 0
        while written < bytes.count {
            try wait(for: fd, events: POLLOUT, deadline: deadline, what: "\(what): sending")
            let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw FixtureError("\(what): write failed: \(String(cString: strerror(errno)))")
            }
            written += count
        }
    }

    /// Waits until `fd` is ready for `events` (or has hung up); throws at `deadline`.
    private static func wait(for fd: Int32, events: Int32, deadline: UInt64, what: String) throws {
        while true {
            let now = MonotonicClock.milliseconds()
            guard now < deadline else { throw FixtureError("\(what): no answer in time") }
            var entry = pollfd(fd: fd, events: Int16(events), revents: 0)
            let ready = poll(&entry, 1, Int32(min(deadline - now, 1000)))
            if ready > 0 { return }
            if ready < 0 && errno != EINTR {
                throw FixtureError("\(what): poll failed: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// The status and body of a whole HTTP/1.1 reply.
    static func parse(_ reply: [UInt8], what: String) throws -> HTTPReply {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = reply.indices.first(where: { reply[$0...].starts(with: separator) }) else {
            throw FixtureError("\(what): the reply has no header end (\(reply.count) bytes)")
        }
        let lines = String(decoding: reply[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusWords = lines[0].split(separator: " ")
        guard statusWords.count >= 2, statusWords[0].hasPrefix("HTTP/1."), let status = Int(statusWords[1])
        else { throw FixtureError("\(what): not an HTTP status line: \(lines[0].prefix(80))") }
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            fields[line[..<colon].lowercased()] = value
        }
        var body = Array(reply[(end + separator.count)...])
        if fields["transfer-encoding"]?.lowercased() == "chunked" {
            body = try dechunked(body, what: what)
        } else if let length = fields["content-length"].flatMap({ Int($0) }) {
            guard body.count >= length else {
                throw FixtureError("\(what): the body ended after \(body.count) of \(length) bytes")
            }
            body = Array(body.prefix(length))
        }
        return HTTPReply(status: status, body: body)
    }

    /// `body` without its chunked transfer coding.
    private static func dechunked(_ body: [UInt8], what: String) throws -> [UInt8] {
        var result: [UInt8] = []
        var position = 0
        while true {
            guard let lineEnd = body[position...].firstIndex(of: UInt8(ascii: "\r")),
                let size = Int(
                    String(decoding: body[position..<lineEnd], as: UTF8.self)
                        .split(separator: ";").first ?? "", radix: 16)
            else { throw FixtureError("\(what): a chunk has no size line") }
            position = lineEnd + 2
            if size == 0 { return result }
            guard position + size <= body.count else { throw FixtureError("\(what): a chunk is cut short") }
            result += body[position..<(position + size)]
            position += size + 2
        }
    }
}
