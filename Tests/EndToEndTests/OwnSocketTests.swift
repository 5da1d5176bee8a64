// SPDX-License-Identifier: MIT
import CliptabContract
import DaemonTestSupport
import Foundation
import Glibc
import Posix
import TestSupport
import Testing

/// cliptabd's own socket, as the built CLI meets it: calls that skip the bus, a socket left
/// by a killed daemon, one handed on by `--replace`, and a runtime directory that is not the
/// user's alone.
///
/// A call over the socket is told from one over the bus by stopping the bus daemon
/// (SIGSTOP): only a call that does not need it is answered.
@Suite struct OwnSocketTests {
    /// Runs `body` while the bus daemon of `fixture` is stopped.
    static func withBusStopped<T>(_ fixture: CLIFixture, _ body: () throws -> T) rethrows -> T {
        kill(fixture.bus.process.pid, SIGSTOP)
        defer { kill(fixture.bus.process.pid, SIGCONT) }
        return try body()
    }

    @Test func theCLIReachesTheDaemonWithoutTheBus() throws {
        let fixture = try CLIFixture()
        defer { fixture.stop() }
        #expect(try fixture.run("create", "T") == Outcome(0, ""))
        #expect(try fixture.run("add", "T", "héllo\nwörld") == Outcome(0, "#1\n"))
        var status = stat()
        #expect(lstat(fixture.session.ownSocketPath, &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFSOCK)
        let directory = CliptabBus.peerSocketDirectory(
            runtimeDirectory: DaemonProcess.runtimeDirectory(of: fixture.data))
        #expect(lstat(directory, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o700)
        try Self.withBusStopped(fixture) { () throws in
            #expect(try fixture.run("get", "T", "0:0") == Outcome(0, "héllo\nwörld"))
            #expect(try fixture.run("add", "T", "while the bus slept") == Outcome(0, "#2\n"))
            #expect(try fixture.run("get", "T", "0:1") == Outcome(0, "while the bus slept"))
        }
        // The same store, seen through the bus.
        #expect(try fixture.call("GetCell", [s("T"), i(0), i(1)]) == [s("while the bus slept")])
    }

    /// The daemon going away while it serves a call from its socket is reported as through
    /// the bus: stopped before it answered.
    ///
    /// Not a timeout: the call waits in the daemon for a clipboard owner that says when it is
    /// asked and never answers, and the daemon is killed then.
    @Test func daemonExitsDuringACallOnItsSocket() throws {
        let display = try VirtualDisplay()
        let fixture = try CLIFixture(display: display.display)
        defer { fixture.stop() }
        let owner = try ChildProcess.spawn(
            "/usr/bin/python3", ["-c", Self.stallingOwner], environment: fixture.environment, stdout: .pipe,
            stderr: .null)
        defer { owner.terminate() }
        var ownerOutput: [UInt8] = []
        #expect(
            readLine(from: owner.standardOutput, buffer: &ownerOutput, timeoutMilliseconds: 10_000) == "ready"
        )
        let client = try ChildProcess.spawn(cliptabPath, ["clip"], environment: fixture.environment)
        // Asked for the text: the daemon took the call, from its socket since the bus is
        // stopped, and waits for the owner.
        try Self.withBusStopped(fixture) { () throws in
            #expect(
                readLine(from: owner.standardOutput, buffer: &ownerOutput, timeoutMilliseconds: 10_000)
                    == "asked")
        }
        _ = fixture.session.kill(SIGKILL)
        #expect(client.waitForExit(timeoutMilliseconds: 5000) == .exited(69))
        var buffer: [UInt8] = []
        #expect(
            readLine(from: client.standardError, buffer: &buffer)?.hasPrefix(
                "cliptab: cliptabd stopped before it answered: ") == true)
    }

    /// A Tk program that owns CLIPBOARD, prints `ready`, and when asked for its text prints
    /// `asked` and never answers.
    static let stallingOwner = """
        import tkinter
        root = tkinter.Tk()
        root.withdraw()
        root.tk.eval('proc cliptab_stall {offset length} { puts asked; flush stdout; after 60000; return x }')
        root.tk.eval('selection handle -selection CLIPBOARD -type UTF8_STRING . cliptab_stall')
        root.tk.eval('selection handle -selection CLIPBOARD -type STRING . cliptab_stall')
        root.tk.eval('selection own -selection CLIPBOARD .')
        root.update()
        print('ready', flush=True)
        root.mainloop()
        """

    /// Bytes that are no D-Bus message, or a header announcing more than the protocol's
    /// 128 MiB, close that connection alone: the daemon goes on serving the CLI.
    @Test(
        arguments: [
            Array("garbage that is no message header at all\r\n".utf8),
            // Little-endian method call, version 1, body length 0x0C000000 (192 MiB).
            [0x6c, 0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x0c, 0x01, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00],
        ] as [[UInt8]])
    func aBrokenStreamClosesOnlyItsConnection(bytes: [UInt8]) throws {
        let fixture = try CLIFixture()
        defer { fixture.stop() }
        #expect(try fixture.run("create", "T") == Outcome(0, ""))
        let fd = try UnixSocket.connected(to: fixture.session.ownSocketPath)
        defer { close(fd) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let uid = Array(String(geteuid()).utf8).map { String($0, radix: 16) }.joined()
        let stream = [0] + Array("AUTH EXTERNAL \(uid)\r\nBEGIN\r\n".utf8) + bytes
        #expect(send(fd, stream, stream.count, Int32(MSG_NOSIGNAL)) == stream.count)
        // The authentication's answer, then the end: nothing else.
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count <= 0 {
                #expect(count == 0, "the connection was not closed within 10 s")
                break
            }
            received += chunk[..<count]
        }
        let text = String(decoding: received, as: UTF8.self)
        #expect(
            text.hasPrefix("OK ") && text.hasSuffix("\r\n") && received.count == 37,
            "\(text.debugDescription)")
        #expect(try fixture.run("tables") == Outcome(0, "T\n"))
        #expect(fixture.daemon.isRunning)
    }

    /// A killed daemon leaves its socket; the CLI passes over it to the bus (which names no
    /// daemon here, so it says so at once), and the next daemon takes the path over.
    @Test func aKilledDaemonsSocketIsPassedOver() throws {
        let fixture = try CLIFixture()
        defer { fixture.stop() }
        #expect(try fixture.run("create", "T") == Outcome(0, ""))
        let path = fixture.session.ownSocketPath
        _ = fixture.session.kill(SIGKILL)
        #expect(access(path, F_OK) == 0)
        let started = MonotonicClock.milliseconds()
        let outcome = try fixture.run("tables")
        #expect(outcome.status == 69)
        #expect(outcome.err.hasPrefix("cliptab: cannot reach cliptabd:"), "\(outcome)")
        #expect(MonotonicClock.milliseconds() - started < 4_000)
        try fixture.session.start()
        try Self.withBusStopped(fixture) { () throws in
            #expect(try fixture.run("tables") == Outcome(0, "T\n"))
        }
    }

    /// `--replace`: the daemon that stops removes its socket before it lets the store go,
    /// and the one that takes over listens at the same path (the first has exited, so only
    /// the second can answer there).
    @Test func aReplacementListensAtTheSamePath() throws {
        let fixture = try CLIFixture()
        defer { fixture.stop() }
        #expect(try fixture.run("create", "T") == Outcome(0, ""))
        let replacement = try fixture.session.spawnOther(arguments: ["--replace"])
        defer { replacement.terminate(graceMilliseconds: 2_000) }
        #expect(fixture.daemon.waitForExit(timeoutMilliseconds: 10_000) == .exited(0))
        try fixture.session.waitUntilServingBy(replacement)
        try Self.withBusStopped(fixture) { () throws in
            #expect(try fixture.run("tables") == Outcome(0, "T\n"))
        }
    }

    /// A socket directory others may enter is not used: the daemon says why, makes no
    /// socket, and the CLI calls through the bus.
    @Test func aSharedSocketDirectoryIsRefused() throws {
        let session = try DaemonProcess(homePrefix: "cliptab-e2e") { home in
            let directory = CliptabBus.peerSocketDirectory(
                runtimeDirectory: DaemonProcess.runtimeDirectory(of: home))
            guard mkdir(directory, 0o755) == 0, chmod(directory, 0o755) == 0 else {
                throw FixtureError("cannot make \(directory)")
            }
        }
        defer { session.stop() }
        #expect(session.log.contains("mode 755 lets others in; it must be 0700"), "\(session.log)")
        #expect(session.log.contains("it calls through the bus"), "\(session.log)")
        let directory = CliptabBus.peerSocketDirectory(
            runtimeDirectory: DaemonProcess.runtimeDirectory(of: session.home))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
        let outcome = try runCliptab(
            ["tables"], environment: CLIFixture.environment(bus: session.bus.address, home: session.home.path)
        )
        #expect(outcome == Outcome(0, ""))
    }
}
