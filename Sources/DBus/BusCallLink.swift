// SPDX-License-Identifier: MIT
internal import CDBus
import Glibc
import Posix

/// A connection to a message bus for a process that only makes method calls and exits, such
/// as the CLI on a key press.
///
/// libdbus authenticates in turns before it sends anything: `AUTH EXTERNAL`, then
/// `NEGOTIATE_UNIX_FD`, then `BEGIN`, each after the bus's answer to the one before. This link
/// writes its authentication, `BEGIN`, the bus's `Hello` and its first calls in one write (a
/// bus reads the bytes after `BEGIN` as the first messages, as sd-bus relies on for its own
/// authentication) and reads their answers together: one round trip instead of three.
///
/// libdbus still writes and checks every message. The link passes no Unix file descriptors,
/// drops the signals that come unasked (the bus's `NameAcquired`) and serves no calls. Every
/// wait is bounded by the call's timeout; a reply is bounded by the protocol's 128 MiB.
public final class BusCallLink: BusCaller {
    /// The connected socket (non-blocking); this object closes it.
    private let socket: Int32
    /// Bytes still to write: the authentication until the first call, then messages.
    private var output: [UInt8]
    /// How much of `output` is written.
    private var written = 0
    /// Bytes read: `input[consumed...]` is not yet taken as the authentication's answer or a
    /// message.
    private var input: [UInt8] = []
    private var consumed = 0
    /// What one `recv` reads into: only the bytes it writes are touched (a short reply costs
    /// one page, not the whole buffer).
    private let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 << 10, alignment: 8)
    /// The serial of the next message.
    private var nextSerial: UInt32 = 1
    /// The serial of `Hello` once it is sent.
    private var helloSerial: UInt32?
    /// True once the bus answered the authentication with `OK`.
    private var isAuthenticated = false
    /// Why the link no longer works (the socket closed or failed, the bus refused it); every
    /// later call fails with it.
    private var failure: BusError?
    /// The unique name the bus gave this link in answer to `Hello`.
    public private(set) var uniqueName: String?

    /// True once the bus authenticated the link and answered its `Hello`.
    public var isAccepted: Bool { uniqueName != nil }

    private init(socket: Int32) {
        self.socket = socket
        // EXTERNAL names the user by the decimal uid, hex-encoded; the bus checks it against
        // the socket's peer credentials. The leading NUL byte is the protocol's first byte.
        // Each decimal digit is an ASCII byte 0x30...0x39, so its hex is "3" and the digit;
        // written by hand, since formatting an integer costs a one-call process more.
        var digits: [UInt8] = []
        var uid = geteuid()
        repeat {
            digits.append(UInt8(ascii: "0") + UInt8(uid % 10))
            uid /= 10
        } while uid > 0
        var line: [UInt8] = [0] + Array("AUTH EXTERNAL ".utf8)
        for digit in digits.reversed() { line += [UInt8(ascii: "3"), digit] }
        output = line + Array("\r\nBEGIN\r\n".utf8)
    }

    deinit {
        close(socket)
        chunk.deallocate()
    }

    /// Connects to the bus at `address` (nil: the session bus's) when the address's first
    /// entry is a Unix socket, `unix:path=` or `unix:abstract=`.
    ///
    /// Returns nil for any other address, and for a socket that does not take the connection
    /// at once, so that a `BusConnection` tries it instead: libdbus knows every transport, tries
    /// every entry and says what went wrong. Throws only for a missing or malformed address.
    public static func open(address: String? = nil) throws -> BusCallLink? {
        guard var socketAddress = unixSocketAddress(try busAddress(address)) else { return nil }
        let fd = Glibc.socket(
            AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { return nil }
        let connected = withUnsafePointer(to: &socketAddress.address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socketAddress.length)
            }
        }
        // A Unix socket connects at once or not at all (EAGAIN: the bus's queue is full).
        guard connected == 0 else {
            close(fd)
            return nil
        }
        return BusCallLink(socket: fd)
    }

    /// The socket address of `address`'s first entry when it is `unix:path=` or
    /// `unix:abstract=` and fits `sockaddr_un`; nil otherwise.
    private static func unixSocketAddress(_ address: String) -> (address: sockaddr_un, length: socklen_t)? {
        var entries: UnsafeMutablePointer<OpaquePointer?>?
        var count: Int32 = 0
        guard dbus_parse_address(address, &entries, &count, nil) != 0, let entries else { return nil }
        defer { dbus_address_entries_free(entries) }
        guard count > 0, let entry = entries[0], let method = dbus_address_entry_get_method(entry),
            String(cString: method) == "unix"
        else { return nil }
        // An abstract name starts with a NUL byte and is exactly as long as it is; a path
        // ends with one.
        let name: [UInt8]
        if let path = dbus_address_entry_get_value(entry, "path") {
            name = Array(String(cString: path).utf8) + [0]
        } else if let abstract = dbus_address_entry_get_value(entry, "abstract") {
            name = [0] + Array(String(cString: abstract).utf8)
        } else {
            return nil
        }
        var result = sockaddr_un()
        result.sun_family = sa_family_t(AF_UNIX)
        guard name.count <= MemoryLayout.size(ofValue: result.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &result.sun_path) { path in
            path.copyBytes(from: name)
        }
        let length = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + name.count
        return (result, socklen_t(length))
    }

    // MARK: - Calls

    /// Sends the method call `message` and waits at most `timeoutMilliseconds` (-1: 25 s) for
    /// its reply; an error reply is thrown as a `BusError`, no reply in time as `NoReply`, a
    /// link that closes as `Disconnected`.
    public func call(_ message: BusMessage, timeoutMilliseconds: Int32) throws -> BusMessage {
        // The one-call path keeps no arrays: each new generic array type costs a process
        // that lives for one call a metadata instantiation at run time.
        try BusConnection.checkCallable(message, timeoutMilliseconds: timeoutMilliseconds)
        let deadline = try begin(timeoutMilliseconds: timeoutMilliseconds)
        let serial = try queue(message)
        var reply: BusMessage?
        if let ended = wait(
            until: deadline, answered: { reply != nil }, take: { if $0.replySerial == serial { reply = $0 } })
        {
            throw ended
        }
        guard let reply else { throw failure ?? disconnected("the link is closed") }
        if let refused = reply.busError { throw refused }
        return reply
    }

    /// Writes every call of `messages` (after the authentication and `Hello`, on the first
    /// use) in one write, then reads until each has its reply or `timeoutMilliseconds` (-1:
    /// 25 s) have passed.
    public func callAll(_ messages: [BusMessage], timeoutMilliseconds: Int32) throws
        -> [Result<BusMessage, BusError>]
    {
        for message in messages {
            try BusConnection.checkCallable(message, timeoutMilliseconds: timeoutMilliseconds)
        }
        let deadline = try begin(timeoutMilliseconds: timeoutMilliseconds)
        let serials = try messages.map { try queue($0) }
        var replies: [Result<BusMessage, BusError>?] = Array(repeating: nil, count: messages.count)
        var unanswered = messages.count
        let ended = wait(until: deadline, answered: { unanswered == 0 }) { message in
            guard let index = serials.firstIndex(of: message.replySerial), replies[index] == nil else {
                return
            }
            replies[index] = message.busError.map { .failure($0) } ?? .success(message)
            unanswered -= 1
        }
        return replies.map { reply in reply ?? .failure(ended ?? disconnected("the link is closed")) }
    }

    /// Queues `Hello` on the first use, and returns the deadline of `timeoutMilliseconds`
    /// (-1: 25 s) from now.
    private func begin(timeoutMilliseconds: Int32) throws -> UInt64 {
        if helloSerial == nil, failure == nil {
            let hello = try BusMessage.methodCall(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                interface: "org.freedesktop.DBus", member: "Hello")
            helloSerial = try queue(hello)
        }
        return BusConnection.deadline(afterMilliseconds: timeoutMilliseconds)
    }

    /// Writes what is queued and reads until `answered()`, giving `take` each reply to a
    /// call; returns nil once answered, else what ended the wait: `NoReply` at the deadline
    /// (the link still works), or the link's failure (every later call fails with it too).
    private func wait(
        until deadline: UInt64, answered: () -> Bool, take: (BusMessage) -> Void
    ) -> BusError? {
        while !answered() {
            if let failure { return failure }
            do {
                guard try exchange(until: deadline) else {
                    return BusError(
                        name: BusErrorName.noReply,
                        message: isAccepted
                            ? "no reply within the timeout" : "the bus did not answer within the timeout")
                }
                try takeMessages(take)
            } catch let error as BusError {
                failure = error
            } catch {
                failure = BusError(name: BusErrorName.failed, message: "\(error)")
            }
        }
        return nil
    }

    /// Appends `message` with the next serial to what is to be written; returns the serial.
    private func queue(_ message: BusMessage) throws -> UInt32 {
        let serial = nextSerial
        // Serial 0 is not a serial: skip it at the wrap.
        nextSerial = nextSerial == UInt32.max ? 1 : nextSerial + 1
        output += try message.marshalled(serial: serial)
        return serial
    }

    // MARK: - The socket

    /// Writes what the socket takes of `output`, then waits until `deadline` for something
    /// to read (or, while output is left, for room to write) and reads it; false once the
    /// deadline has passed.
    ///
    /// Throws `Disconnected` when the bus closes the link or the socket fails.
    private func exchange(until deadline: UInt64) throws -> Bool {
        try write()
        let now = MonotonicClock.milliseconds()
        guard now < deadline else { return false }
        var entry = pollfd(
            fd: socket, events: Int16(POLLIN) | (written < output.count ? Int16(POLLOUT) : 0), revents: 0)
        let ready = poll(&entry, 1, Int32(clamping: deadline - now))
        guard ready > 0 else {
            if ready < 0, errno != EINTR {
                throw disconnected("waiting on the bus socket failed: \(errnoText())")
            }
            return true
        }
        if entry.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 { try read() }
        return true
    }

    /// Writes as much of `output` as the socket takes without waiting.
    private func write() throws {
        while written < output.count {
            let sent = output.withUnsafeBytes { bytes in
                send(
                    socket, bytes.baseAddress! + written, bytes.count - written,
                    Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if sent < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return }
                throw disconnected("writing to the bus failed: \(errnoText())")
            }
            written += sent
        }
        output.removeAll(keepingCapacity: true)
        written = 0
    }

    /// Reads what the socket holds into `input`.
    private func read() throws {
        // What was taken goes first, so that the buffer holds at most one message and a read.
        if consumed > 0 {
            input.removeFirst(consumed)
            consumed = 0
        }
        let received = recv(socket, chunk.baseAddress, chunk.count, Int32(MSG_DONTWAIT))
        if received > 0 { input.append(contentsOf: chunk[..<received]) }
        if received == 0 { throw disconnected("the bus closed the connection") }
        if received < 0, errno != EAGAIN, errno != EWOULDBLOCK, errno != EINTR {
            throw disconnected("reading from the bus failed: \(errnoText())")
        }
    }

    /// Takes the authentication's answer, then each whole message read, giving `body` the
    /// replies to calls; `Hello`'s answer names the link, signals and calls are dropped.
    private func takeMessages(_ body: (BusMessage) -> Void) throws {
        if !isAuthenticated {
            guard try takeAuthenticationAnswer() else { return }
        }
        while true {
            let message: BusMessage? = try input.withUnsafeBytes { all in
                let rest = UnsafeRawBufferPointer(rebasing: all[consumed...])
                guard let length = try BusMessage.wireLength(of: rest), length <= rest.count else {
                    return nil
                }
                consumed += length
                return try BusMessage.demarshalled(UnsafeRawBufferPointer(rebasing: rest[..<length]))
            }
            guard let message else { return }
            guard message.type == .methodReturn || message.type == .error else { continue }
            if message.replySerial == helloSerial {
                if let refused = message.busError { throw refused }
                guard case .string(let name)? = try message.readValues().first else {
                    throw disconnected("the bus answered Hello without a name")
                }
                uniqueName = name
            } else {
                body(message)
            }
        }
    }

    /// Takes the bus's answer to the authentication once its line is read: true for `OK`;
    /// throws for anything else (the bus refused the credentials) or a line too long to be one.
    private func takeAuthenticationAnswer() throws -> Bool {
        let rest = input[consumed...]
        guard let end = rest.firstIndex(of: UInt8(ascii: "\n")) else {
            if rest.count > 1024 { throw disconnected("the bus answered the authentication with no line") }
            return false
        }
        // The line ends "\r\n"; a bare "\n" is taken too.
        let lineEnd = end > rest.startIndex && rest[end - 1] == UInt8(ascii: "\r") ? end - 1 : end
        let line = String(decoding: rest[..<lineEnd], as: UTF8.self)
        consumed = end + 1
        guard line.hasPrefix("OK ") else {
            throw BusError(
                name: "org.freedesktop.DBus.Error.AuthFailed",
                message:
                    "the bus refused this user's credentials (EXTERNAL): it answered \"\(line.prefix(200))\"")
        }
        isAuthenticated = true
        return true
    }

    /// `Disconnected` with `message`.
    private func disconnected(_ message: String) -> BusError {
        BusError(name: BusErrorName.disconnected, message: message)
    }

    /// The text of `errno`.
    private func errnoText() -> String {
        String(cString: strerror(errno))
    }
}
