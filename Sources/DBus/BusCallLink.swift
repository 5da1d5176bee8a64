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
/// The same link reaches a daemon's own socket (`BusServer`) first when it has one: no bus
/// in between, so no `Hello`, and the daemon itself authenticates. A daemon that turns the
/// link away before accepting it (it is full, or it is gone and its socket stale) has served
/// nothing, and the link then takes its calls to the bus.
///
/// libdbus still writes and checks every message. The link passes no Unix file descriptors,
/// drops the signals that come unasked (the bus's `NameAcquired`) and serves no calls. Every
/// wait is bounded by the call's timeout; a reply is bounded by the protocol's 128 MiB.
public final class BusCallLink: BusCaller {
    /// A Unix socket's address and its length.
    typealias SocketAddress = (address: sockaddr_un, length: socklen_t)

    /// The connected socket (non-blocking); this object closes it.
    private var socket: Int32
    /// Bytes still to write: the authentication until the first call, then messages.
    private var output: [UInt8]
    /// The authentication and `BEGIN`, the first bytes on every socket the link opens.
    private let authentication: [UInt8]
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
    /// True for a link to a bus, which is greeted with `Hello`; false for one to a peer.
    private var isToBus: Bool
    /// The bus a link to a peer turns to when the peer closes it before accepting it; nil
    /// once it was accepted, or for a link to the bus.
    private var fallback: SocketAddress?
    /// The calls written to a peer that has not accepted the link yet: what the bus gets
    /// instead when the peer turns the link away.
    private var unaccepted: [UInt8] = []
    /// What the link is connected to, as its errors name it.
    private var counterpart: String { isToBus ? "the bus" : "the peer" }

    /// True once the bus authenticated the link and answered its `Hello`: a call that failed
    /// before then failed to reach the bus.
    ///
    /// A link to a daemon's own socket has reached the daemon from the start, so what fails
    /// there (a daemon that does not answer) is the daemon's.
    public var isAccepted: Bool { !isToBus || uniqueName != nil }

    private init(socket: Int32, isToBus: Bool, fallback: SocketAddress?) {
        self.socket = socket
        self.isToBus = isToBus
        self.fallback = fallback
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
        authentication = line + Array("\r\nBEGIN\r\n".utf8)
        output = authentication
    }

    deinit {
        close(socket)
        chunk.deallocate()
    }

    /// Connects to the bus at `address` (nil: the session bus's) when the address's first
    /// entry is a Unix socket, `unix:path=` or `unix:abstract=`.
    ///
    /// `peerSocket` is given the bus's key (`busKey(ofAddress:)`) and names the socket of a
    /// daemon serving on that bus (a `BusServer`), or nil: when a socket there takes the
    /// connection, the link goes to that daemon, and to the bus only if the daemon turns it
    /// away unheard.
    ///
    /// Returns nil for any other address, and for a socket that does not take the connection
    /// at once, so that a `BusConnection` tries it instead: libdbus knows every transport, tries
    /// every entry and says what went wrong. Throws only for a missing or malformed address.
    public static func open(address: String? = nil, peerSocket: (String) -> String? = { _ in nil }) throws
        -> BusCallLink?
    {
        guard let name = unixSocketName(try busAddress(address)), let bus = socketAddress(name: name) else {
            return nil
        }
        if let path = peerSocket(busKey(ofSocketName: name)),
            let peer = socketAddress(name: Array(path.utf8) + [0]), let fd = connectedSocket(to: peer)
        {
            return BusCallLink(socket: fd, isToBus: false, fallback: bus)
        }
        return connectedSocket(to: bus).map { BusCallLink(socket: $0, isToBus: true, fallback: nil) }
    }

    /// Connects to a daemon's own socket at `path` (a `BusServer`) alone, with no bus to turn
    /// to; nil when no socket there takes the connection at once.
    public static func openPeer(path: String) -> BusCallLink? {
        guard let peer = socketAddress(name: Array(path.utf8) + [0]) else { return nil }
        return connectedSocket(to: peer).map { BusCallLink(socket: $0, isToBus: false, fallback: nil) }
    }

    /// The key of the bus at `address` (nil: the session bus's) for naming a daemon's own
    /// socket beside it: 16 hex digits hashed from its socket's name, the same however the
    /// address spells its other keys (libdbus adds `guid=` for the programs it starts); nil
    /// when the address is not a Unix socket's.
    public static func busKey(ofAddress address: String? = nil) throws -> String? {
        unixSocketName(try busAddress(address)).map(busKey(ofSocketName:))
    }

    /// FNV-1a (64 bits) of the socket's name, in hex: short enough for any socket path.
    private static func busKey(ofSocketName name: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for shift in stride(from: 60, through: 0, by: -4) {
            text.append(digits[Int((hash >> UInt64(shift)) & 0xf)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// A new non-blocking socket connected to `socketAddress`, or nil.
    private static func connectedSocket(to socketAddress: SocketAddress) -> Int32? {
        var socketAddress = socketAddress
        let fd = Glibc.socket(
            AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { return nil }
        let connected = withUnsafePointer(to: &socketAddress.address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socketAddress.length)
            }
        }
        // A Unix socket connects at once or not at all (EAGAIN: the listener's queue is full).
        guard connected == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    /// The `sun_path` bytes of `address`'s first entry when it is `unix:path=` or
    /// `unix:abstract=`; nil otherwise.
    private static func unixSocketName(_ address: String) -> [UInt8]? {
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
        return name
    }

    /// The socket address of `name`, the bytes of `sun_path`, when it fits.
    private static func socketAddress(name: [UInt8]) -> SocketAddress? {
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
        if failure == nil { try greetBus() }
        return BusConnection.deadline(afterMilliseconds: timeoutMilliseconds)
    }

    /// Queues the bus's `Hello` unless the link goes to a peer or has greeted the bus already.
    private func greetBus() throws {
        guard isToBus, helloSerial == nil else { return }
        let hello = try BusMessage.methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus", member: "Hello")
        helloSerial = try queue(hello)
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
                            ? "no reply within the timeout"
                            : "\(counterpart) did not answer within the timeout")
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
        let bytes = try message.marshalled(serial: serial)
        output += bytes
        if fallback != nil { unaccepted += bytes }
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
                throw disconnected("waiting on the socket of \(counterpart) failed: \(errnoText())")
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
                let failure = disconnected("writing to \(counterpart) failed: \(errnoText())")
                if try turnToBus() { continue }
                throw failure
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
        if received > 0 {
            input.append(contentsOf: chunk[..<received])
            return
        }
        if received < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return }
        // A peer that closes unread sends a reset, not an end: both are its answer.
        let what =
            received == 0
            ? "\(counterpart) closed the connection" : "reading from \(counterpart) failed: \(errnoText())"
        if try turnToBus() { return }
        guard isToBus || !isAuthenticated else {
            // The daemon itself went away after it took the calls: what the bus says of a
            // callee that disconnects without replying.
            throw BusError(name: BusErrorName.noReply, message: "\(what) without replying")
        }
        throw disconnected(what)
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
            if rest.count > 1024 {
                throw disconnected("\(counterpart) answered the authentication with no line")
            }
            return false
        }
        // The line ends "\r\n"; a bare "\n" is taken too.
        let lineEnd = end > rest.startIndex && rest[end - 1] == UInt8(ascii: "\r") ? end - 1 : end
        let line = String(decoding: rest[..<lineEnd], as: UTF8.self)
        consumed = end + 1
        guard line.hasPrefix("OK ") else {
            if try turnToBus() { return false }
            throw BusError(
                name: "org.freedesktop.DBus.Error.AuthFailed",
                message:
                    "\(counterpart) refused this user's credentials (EXTERNAL): it answered \"\(line.prefix(200))\""
            )
        }
        isAuthenticated = true
        // The peer took the link: what it was sent is its own now.
        fallback = nil
        unaccepted = []
        return true
    }

    /// Takes the link to the bus from a peer that turned it away before accepting it; false
    /// when there is no bus to turn to.
    ///
    /// Such a peer served nothing: the bus gets a new socket, with the authentication,
    /// `Hello` and every call sent so far written to it.
    ///
    /// Throws `Disconnected` when the bus does not take the connection either.
    private func turnToBus() throws -> Bool {
        guard !isAuthenticated, let bus = fallback else { return false }
        fallback = nil
        guard let fd = Self.connectedSocket(to: bus) else {
            throw disconnected("the daemon's own socket turned the link away, and the bus does not take it")
        }
        close(socket)
        socket = fd
        isToBus = true
        input.removeAll()
        consumed = 0
        // The calls keep their serials: only their order on the connection matters, after Hello.
        let calls = unaccepted
        unaccepted = []
        output = authentication
        written = 0
        try greetBus()
        output += calls
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
