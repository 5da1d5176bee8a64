// SPDX-License-Identifier: MIT
import Foundation
import Glibc
import Posix
import Synchronization
import TestSupport
import Testing

@testable import DBus

/// A `BusServer` on its own thread, driven by the loop the daemon runs, serving a small
/// object on each peer: `Echo(s) -> s`, `Sender() -> s` (the name the call came under) and
/// `Big(u) -> s` (a reply of that many bytes).
final class PeerServerThread: Sendable {
    /// The socket's path.
    let path: String
    /// What the server reported: "gone NAME" for each peer it let go.
    let report = ServerReport()
    /// The server's clock, which the test moves, and the loop's turns.
    let time = PeerServerTime()
    /// What stops the thread.
    private let stopper: ThreadStop
    static let path = "/io/test/Peer"
    static let interface = "io.test.Peer1"

    /// Starts listening at `path` with at most `maximumPeers` and `authenticationMilliseconds`
    /// on the test's clock; unwritten replies past `maximumQueuedReplyBytes` hold a peer back.
    init(
        path: String, maximumPeers: Int = 8, authenticationMilliseconds: UInt64 = 5_000,
        maximumQueuedReplyBytes: Int = 1 << 20
    ) throws {
        self.path = path
        let stopper = try ThreadStop()
        self.stopper = stopper
        let started = Mutex<String?>(nil)
        let ready = DispatchSemaphore(value: 0)
        let (report, time, wakeRead, done) = (report, time, stopper.wakeRead, stopper.done)
        let thread = Thread {
            defer { done.signal() }
            let server: BusServer
            do {
                server = try BusServer.listen(
                    path: path, maximumPeers: maximumPeers,
                    authenticationMilliseconds: authenticationMilliseconds,
                    clock: { time.now.withLock { $0 } },
                    configure: { connection in
                        try connection.registerObject(path: Self.path, interfaces: [Self.peerInterface()])
                    },
                    peerGone: { name in report.note("gone \(name)") })
            } catch {
                started.withLock { $0 = "\(error)" }
                ready.signal()
                return
            }
            ready.signal()
            while true {
                server.dispatchRound(maximumQueuedReplyBytes: maximumQueuedReplyBytes)
                var descriptors =
                    server.pollDescriptors(maximumQueuedReplyBytes: maximumQueuedReplyBytes)
                    + [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
                // The deadline is on the test's clock, which only the test moves: wake every
                // 10 ms to look at it.
                let timeout: Int32 =
                    server.hasMessagesToDispatch(maximumQueuedReplyBytes: maximumQueuedReplyBytes) ? 0 : 10
                let polled = poll(&descriptors, nfds_t(descriptors.count), timeout)
                if polled < 0 && errno != EINTR { break }
                if descriptors[descriptors.count - 1].revents != 0 { break }
                server.handle(descriptors)
                server.handleExpiredTimeouts()
                time.turns.withLock { $0 += 1 }
            }
            server.close()
            report.finished.withLock { $0 = true }
        }
        thread.stackSize = 16 << 20
        thread.start()
        ready.wait()
        if let failure = started.withLock({ $0 }) {
            stopper.done.wait()
            stopper.closePipe()
            throw FixtureError("the server did not start: \(failure)")
        }
    }

    /// The object each peer is served.
    static func peerInterface() -> BusInterface {
        BusInterface(
            name: interface,
            methods: [
                BusMethod(
                    name: "Echo", inArguments: [BusArgument(name: "text", signature: "s")],
                    outArguments: [BusArgument(name: "text", signature: "s")]
                ) { call in .values([call.arguments[0]]) },
                BusMethod(name: "Sender", outArguments: [BusArgument(name: "name", signature: "s")]) { call in
                    .values([.string(call.sender ?? "")])
                },
                BusMethod(
                    name: "Big", inArguments: [BusArgument(name: "bytes", signature: "u")],
                    outArguments: [BusArgument(name: "text", signature: "s")]
                ) { call in
                    guard case .uint32(let bytes) = call.arguments[0] else { return .empty }
                    return .values([.string(String(repeating: "x", count: Int(bytes)))])
                },
            ])
    }

    /// A call to the peer object.
    static func message(_ member: String, _ values: [BusValue] = []) throws -> BusMessage {
        let message = try BusMessage.methodCall(
            destination: nil, path: path, interface: interface, member: member)
        try message.append(values)
        return message
    }

    /// Moves the server's clock by `milliseconds` and waits for two turns of its loop.
    func advance(_ milliseconds: UInt64) -> Bool {
        let before = time.turns.withLock { $0 }
        time.now.withLock { $0 += milliseconds }
        return ServerThread.wait { time.turns.withLock { $0 } >= before + 2 }
    }

    /// The names the server reported gone.
    var gone: [String] {
        report.notes.withLock { $0 }.filter { $0.hasPrefix("gone ") }.map { String($0.dropFirst(5)) }
    }

    /// Stops the loop (which closes the server) and waits for the thread.
    func stop() { stopper.stop() }
}

/// A `PeerServerThread`'s clock and the count of its loop's turns.
final class PeerServerTime: Sendable {
    /// The server's clock, in milliseconds: only the test moves it.
    let now = Mutex<UInt64>(1_000)
    /// Loop turns completed: a test that moved the clock waits for two more.
    let turns = Mutex(0)
}

/// The daemon's own socket: calls from peers without a bus, the name each peer's calls carry,
/// the cap and the authentication deadline, what only this user may do, and the socket file.
@Suite struct BusServerTests {
    /// A temporary directory for the socket, and its path there.
    static func socketPath() throws -> (TemporaryDirectory, String) {
        let directory = try TemporaryDirectory(prefix: "bus-server")
        return (directory, directory.appending("peer"))
    }

    @Test func aPeerCallsWithoutABus() throws {
        let (directory, path) = try Self.socketPath()
        _ = directory
        let server = try PeerServerThread(path: path)
        defer { server.stop() }
        let link = try #require(BusCallLink.openPeer(path: path))
        let text = "héllo wörld ✓ 日本語\n"
        let reply = try link.call(
            PeerServerThread.message("Echo", [.string(text)]), timeoutMilliseconds: 10_000)
        #expect(try reply.readValues() == [.string(text)])
        // Accepted by the peer itself: no Hello, so no unique name.
        #expect(link.isAccepted)
        #expect(link.uniqueName == nil)
        let sender = try link.call(PeerServerThread.message("Sender"), timeoutMilliseconds: 10_000)
        #expect(try sender.readValues() == [.string(":peer.1")])
        let second = try #require(BusCallLink.openPeer(path: path))
        let outcomes = try second.callAll(
            [PeerServerThread.message("Sender"), PeerServerThread.message("Echo", [.string("two")])],
            timeoutMilliseconds: 10_000)
        #expect(try outcomes[0].get().readValues() == [.string(":peer.2")])
        #expect(try outcomes[1].get().readValues() == [.string("two")])
    }

    @Test func aPeerThatLeavesIsReportedGone() throws {
        let (directory, path) = try Self.socketPath()
        _ = directory
        let server = try PeerServerThread(path: path)
        defer { server.stop() }
        var link = try #require(BusCallLink.openPeer(path: path))
        _ = try link.call(PeerServerThread.message("Echo", [.string("hi")]), timeoutMilliseconds: 10_000)
        #expect(server.gone.isEmpty)
        link = try #require(BusCallLink.openPeer(path: path))
        // The first link is gone now; the second is still there.
        #expect(ServerThread.wait { server.gone == [":peer.1"] })
        _ = try link.call(PeerServerThread.message("Echo", [.string("hi")]), timeoutMilliseconds: 10_000)
        #expect(server.gone == [":peer.1"])
    }

    /// Past the cap a newcomer is closed before it is authenticated: its call fails as not
    /// accepted (a client then goes to the bus), and the peers already in are served.
    @Test func aFullServerClosesNewcomers() throws {
        let (directory, path) = try Self.socketPath()
        _ = directory
        let server = try PeerServerThread(path: path, maximumPeers: 1)
        defer { server.stop() }
        let first = try #require(BusCallLink.openPeer(path: path))
        _ = try first.call(PeerServerThread.message("Echo", [.string("in")]), timeoutMilliseconds: 10_000)
        let second = try #require(BusCallLink.openPeer(path: path))
        #expect {
            try second.call(PeerServerThread.message("Echo", [.string("out")]), timeoutMilliseconds: 10_000)
        } throws: { error in
            (error as? BusError)?.name == BusErrorName.disconnected
        }
        let again = try first.call(
            PeerServerThread.message("Echo", [.string("still")]), timeoutMilliseconds: 10_000)
        #expect(try again.readValues() == [.string("still")])
    }

    /// A connection that never authenticates holds its place until the deadline, on the
    /// server's clock, and not a millisecond longer.
    @Test func aSilentPeerIsClosedAtTheAuthenticationDeadline() throws {
        let (directory, path) = try Self.socketPath()
        _ = directory
        let server = try PeerServerThread(path: path, authenticationMilliseconds: 5_000)
        defer { server.stop() }
        let silent = try UnixSocket.connected(to: path)
        defer { close(silent) }
        // Accepted once the loop has turned.
        #expect(server.advance(0))
        #expect(server.advance(4_999))
        #expect(server.gone.isEmpty)
        #expect(server.advance(1))
        #expect(ServerThread.wait { server.gone == [":peer.1"] })
        var byte: UInt8 = 0
        #expect(recv(silent, &byte, 1, 0) == 0)
    }

    /// A peer that asks for large replies and never reads them holds back only its own
    /// calls: another peer is answered meanwhile.
    @Test func aPeerThatNeverReadsCostsOnlyItself() throws {
        let (directory, path) = try Self.socketPath()
        _ = directory
        let server = try PeerServerThread(path: path, maximumQueuedReplyBytes: 1 << 20)
        defer { server.stop() }
        let greedy = try UnixSocket.connected(to: path)
        defer { close(greedy) }
        var bytes = Self.authentication()
        for serial in 1...64 {
            bytes += try PeerServerThread.message("Big", [.uint32(1 << 20)]).marshalled(
                serial: UInt32(serial))
        }
        // Written while the socket takes it: the server reads it while it can, then stops
        // reading, and the socket stays full until the deadline.
        var sent = 0
        let deadline = MonotonicClock.milliseconds() + 2_000
        var room = pollfd(fd: greedy, events: Int16(POLLOUT), revents: 0)
        while sent < bytes.count, case let now = MonotonicClock.milliseconds(), now < deadline,
            poll(&room, 1, Int32(deadline - now)) > 0
        {
            let written = bytes.withUnsafeBytes { all in
                send(greedy, all.baseAddress! + sent, all.count - sent, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if written > 0 { sent += written }
        }
        let other = try #require(BusCallLink.openPeer(path: path))
        let started = MonotonicClock.milliseconds()
        let reply = try other.call(
            PeerServerThread.message("Echo", [.string("me")]), timeoutMilliseconds: 10_000)
        #expect(try reply.readValues() == [.string("me")])
        #expect(MonotonicClock.milliseconds() - started < 2_000)
    }

    /// libdbus verifies another user's EXTERNAL claim (answering `OK`), then refuses that
    /// user at `BEGIN`: the connection closes and its call is never answered.
    @Test func anotherUserIsRefused() throws {
        let directory = try TemporaryDirectory(prefix: "bus-server-open")
        // Reachable by everyone, so that only the credentials decide.
        chmod(directory.path, 0o755)
        let path = directory.appending("peer")
        let server = try PeerServerThread(path: path)
        defer { server.stop() }
        chmod(path, 0o777)
        let user = try SessionUser.forTests()
        try #require(user.uid != geteuid(), "this test needs root, to speak as another user (nobody)")
        let call = try PeerServerThread.message("Echo", [.string("let me in")]).marshalled(serial: 1)
        // Prints the authentication's answer, then what came after it and whether the
        // server closed the connection within 5 s.
        let script = """
            import socket, sys, os
            s = socket.socket(socket.AF_UNIX)
            s.settimeout(5)
            s.connect(sys.argv[1])
            uid = str(os.geteuid()).encode().hex().encode()
            s.sendall(b"\\0AUTH EXTERNAL " + uid + b"\\r\\nBEGIN\\r\\n" + bytes.fromhex(sys.argv[2]))
            data = b""
            try:
                while True:
                    chunk = s.recv(4096)
                    if not chunk:
                        print("closed", end=" ")
                        break
                    data += chunk
            except socket.timeout:
                print("open", end=" ")
            line, _, rest = data.partition(b"\\r\\n")
            print(line.split(b" ")[0].decode(), len(rest))
            """
        let hex = call.map { String(format: "%02x", $0) }.joined()
        let command = user.commandPrefix + ["/usr/bin/python3", "-c", script, path, hex]
        let result = try ChildProcess.run(command[0], Array(command.dropFirst()), timeoutMilliseconds: 20_000)
        #expect(result.termination == .exited(0), "\(result.errorText)")
        #expect(result.outputText == "closed OK 0\n", "the server answered \(result.outputText)")
        #expect(ServerThread.wait { server.gone == [":peer.1"] })
    }

    @Test func listeningReplacesAStaleSocketAndClosingRemovesIt() throws {
        let (directory, path) = try Self.socketPath()
        _ = directory
        // A socket left by a daemon that was killed: bound, nobody listening.
        let stale = try UnixSocket.bound(at: path)
        close(stale)
        #expect(BusCallLink.openPeer(path: path) == nil)
        let server = try PeerServerThread(path: path)
        let link = try #require(BusCallLink.openPeer(path: path))
        _ = try link.call(PeerServerThread.message("Echo", [.string("new")]), timeoutMilliseconds: 10_000)
        server.stop()
        #expect(access(path, F_OK) != 0)
        #expect(BusCallLink.openPeer(path: path) == nil)
        // Not a socket: left alone, and the server says why it cannot listen.
        FileManager.default.createFile(atPath: path, contents: Data("keep".utf8))
        #expect(throws: FixtureError.self) { try PeerServerThread(path: path) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep")
    }

    // MARK: - A link that prefers the daemon's socket

    /// The link goes to the socket the bus's key names, and stays there once accepted.
    @Test func theLinkPrefersTheDaemonsSocket() throws {
        let (directory, path) = try Self.socketPath()
        _ = directory
        let fixture = try EchoFixture()
        let server = try PeerServerThread(path: path)
        defer { server.stop() }
        let key = try #require(try BusCallLink.busKey(ofAddress: fixture.bus.address))
        var asked: [String] = []
        let link = try #require(
            try BusCallLink.open(address: fixture.bus.address) { key in
                asked.append(key)
                return path
            })
        #expect(asked == [key])
        let reply = try link.call(PeerServerThread.message("Sender"), timeoutMilliseconds: 10_000)
        #expect(try reply.readValues() == [.string(":peer.1")])
        #expect(link.uniqueName == nil)
    }

    /// A daemon that closes the link unheard (here: full) served nothing, so its calls go
    /// to the bus, in their order, after `Hello`.
    @Test func aDaemonThatTurnsTheLinkAwaySendsItToTheBus() throws {
        let (directory, path) = try Self.socketPath()
        _ = directory
        let fixture = try EchoFixture()
        let server = try PeerServerThread(path: path, maximumPeers: 0)
        defer { server.stop() }
        let link = try #require(try BusCallLink.open(address: fixture.bus.address) { _ in path })
        let outcomes = try link.callAll(
            [
                fixture.message("EchoString", [.string("first")]),
                fixture.message("EchoString", [.string("second")]),
            ], timeoutMilliseconds: 10_000)
        #expect(try outcomes.map { try $0.get().readValues() } == [[.string("first")], [.string("second")]])
        #expect(link.uniqueName?.hasPrefix(":") == true)
        let again = try link.call(
            fixture.message("EchoString", [.string("third")]), timeoutMilliseconds: 10_000)
        #expect(try again.readValues() == [.string("third")])
    }

    /// A socket nobody listens at any more (a daemon killed) is passed over at connect.
    @Test func aStaleSocketIsPassedOver() throws {
        let (directory, path) = try Self.socketPath()
        _ = directory
        let fixture = try EchoFixture()
        close(try UnixSocket.bound(at: path))
        let link = try #require(try BusCallLink.open(address: fixture.bus.address) { _ in path })
        let reply = try link.call(
            fixture.message("EchoString", [.string("bus")]), timeoutMilliseconds: 10_000)
        #expect(try reply.readValues() == [.string("bus")])
        #expect(link.uniqueName?.hasPrefix(":") == true)
    }

    /// The key names the bus's socket alone: the same for the address libdbus gives the
    /// programs it starts (with `guid=`), another for another socket, none for TCP.
    @Test func theBusKeyNamesTheSocket() throws {
        let plain = try #require(try BusCallLink.busKey(ofAddress: "unix:path=/run/user/1000/bus"))
        #expect(plain.count == 16)
        #expect(plain.allSatisfy { $0.isHexDigit })
        #expect(
            try BusCallLink.busKey(
                ofAddress: "unix:path=/run/user/1000/bus,guid=0123456789abcdef0123456789abcdef") == plain)
        #expect(try BusCallLink.busKey(ofAddress: "unix:path=/run/user/1001/bus") != plain)
        #expect(try BusCallLink.busKey(ofAddress: "unix:abstract=/run/user/1000/bus") != plain)
        #expect(try BusCallLink.busKey(ofAddress: "tcp:host=localhost,port=4000") == nil)
    }

    // MARK: - Helpers

    /// The authentication the link writes, as bytes.
    static func authentication() -> [UInt8] {
        [0]
            + Array(
                "AUTH EXTERNAL \(Array(String(geteuid()).utf8).map { String($0, radix: 16) }.joined())\r\nBEGIN\r\n"
                    .utf8)
    }
}
