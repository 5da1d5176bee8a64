// SPDX-License-Identifier: MIT
import CliptabClient
import DBus
import DaemonTestSupport
import Foundation
import Posix
import TestSupport
import Testing

/// An X server that stops answering (SIGSTOP by pid, as a frozen or unreachable display
/// would): no X call may wait for it longer than the daemon's server deadline (0.9 s), the
/// tables keep being served, clipboard calls answer `ClipboardUnavailable`, and after
/// SIGCONT the clipboard works again.
@Suite(.serialized)
struct StoppedServerTests {
    /// `ClipboardSettings.serverTimeoutMilliseconds`.
    static let deadline = 900.0
    /// Room for a debug build on a loaded machine; still far below "forever".
    static let slack = 2500.0
    static let table = "t"

    /// Milliseconds `body` took, and its result.
    static func timed<T>(_ body: () throws -> T) rethrows -> (Double, T) {
        let start = MonotonicClock.nanoseconds()
        let result = try body()
        return (Double(MonotonicClock.nanoseconds() - start) / 1e6, result)
    }

    /// Fills the table and checks the clipboard works (nobody owns it yet).
    static func prepare(_ daemon: DaemonProcess) throws {
        try daemon.call("CreateTable", [s(table)])
        try daemon.call("InsertRows", [s(table), i(0), i(0), strings(["first", "second"])])
    }

    /// Copies row 1 until it works (the daemon reconnects), at most `milliseconds`; then
    /// `xclip` must read it from the daemon.
    static func clipboardComesBack(_ daemon: DaemonProcess, display: String, milliseconds: UInt64 = 20_000)
        throws
    {
        let deadline = MonotonicClock.milliseconds() + milliseconds
        var lastError: String? = "not tried"
        while MonotonicClock.milliseconds() < deadline {
            lastError = daemon.errorName("Copy", [s(table), i(0), i(1)])
            if lastError == nil { break }
            usleep(20_000)
        }
        #expect(lastError == nil, "Copy still failed after SIGCONT: \(lastError ?? "")")
        let read = try ChildProcess.run(
            "xclip", ["-selection", "clipboard", "-o"],
            environment: [
                "DISPLAY": display, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            ], timeoutMilliseconds: 10_000)
        #expect(read.outputText == "second")
    }

    @Test("a server stopped during calls costs each call at most the deadline")
    func stoppedDuringCalls() throws {
        let display = try VirtualDisplay()
        defer {
            display.process.signal(SIGCONT)
            display.stop()
        }
        let daemon = try DaemonProcess(environment: ["DISPLAY": display.display])
        defer { daemon.stop() }
        try Self.prepare(daemon)
        // The connection works: nobody owns the clipboard.
        #expect(daemon.errorName("GetClipboard").map(Cliptab.short) == "ClipboardEmpty")

        display.process.signal(SIGSTOP)
        var resumed = false
        defer { if !resumed { display.process.signal(SIGCONT) } }
        // Nothing asks the server yet: tables are answered at once.
        let (idle, _) = try Self.timed { try daemon.call("GetCell", [s(Self.table), i(0), i(0)]) }
        #expect(idle < Self.slack)

        // A clipboard read asks the server who owns the clipboard; meanwhile a table call
        // on another connection waits for the single-threaded daemon at most the deadline.
        let other = try daemon.connect()
        let serial = try other.send(CliptabClient.message("GetClipboard"))
        other.flush()
        usleep(100_000)
        let (during, cell) = try Self.timed { try daemon.call("GetCell", [s(Self.table), i(0), i(0)]) }
        #expect(cell.first == .string("first"))
        #expect(during < Self.deadline + Self.slack, "a table call waited \(during) ms")
        var reply: BusMessage?
        let waitEnd = MonotonicClock.milliseconds() + 10_000
        while reply == nil && MonotonicClock.milliseconds() < waitEnd {
            if let message = other.readMessage(timeoutMilliseconds: 1000), message.replySerial == serial {
                reply = message
            }
        }
        #expect(reply?.errorName.map(Cliptab.short) == "ClipboardUnavailable")

        // The connection is dropped; clipboard calls fail within the deadline (a reconnect
        // attempt waits for the stopped server at most that long), tables go on.
        for _ in 0..<3 {
            let (copyTime, copyError) = Self.timed { daemon.errorName("Copy", [s(Self.table), i(0), i(0)]) }
            #expect(copyError.map(Cliptab.short) == "ClipboardUnavailable")
            #expect(copyTime < Self.deadline + Self.slack, "Copy took \(copyTime) ms")
            let (readTime, readError) = Self.timed { daemon.errorName("GetClipboard") }
            #expect(readError.map(Cliptab.short) == "ClipboardUnavailable")
            #expect(readTime < Self.deadline + Self.slack, "GetClipboard took \(readTime) ms")
            let (cellTime, _) = try Self.timed { try daemon.call("GetCell", [s(Self.table), i(0), i(1)]) }
            #expect(cellTime < Self.deadline + Self.slack)
        }
        #expect(daemon.process.isRunning)

        display.process.signal(SIGCONT)
        resumed = true
        try Self.clipboardComesBack(daemon, display: display.display)
    }

    @Test("a server stopped at start-up does not keep the daemon from serving tables")
    func stoppedAtStartUp() throws {
        let display = try VirtualDisplay()
        defer {
            display.process.signal(SIGCONT)
            display.stop()
        }
        display.process.signal(SIGSTOP)
        var resumed = false
        defer { if !resumed { display.process.signal(SIGCONT) } }
        // The fixture waits until the daemon answers on the bus (it would give up at 20 s).
        let (start, daemon) = try Self.timed { try DaemonProcess(environment: ["DISPLAY": display.display]) }
        defer { daemon.stop() }
        #expect(start < Self.deadline + 2 * Self.slack, "the daemon took \(start) ms to serve")
        try Self.prepare(daemon)
        for _ in 0..<3 {
            let (copyTime, copyError) = Self.timed { daemon.errorName("Copy", [s(Self.table), i(0), i(0)]) }
            #expect(copyError.map(Cliptab.short) == "ClipboardUnavailable")
            #expect(copyTime < Self.deadline + Self.slack, "Copy took \(copyTime) ms")
            let (cellTime, _) = try Self.timed { try daemon.call("GetCell", [s(Self.table), i(0), i(1)]) }
            #expect(cellTime < Self.deadline + Self.slack)
        }
        display.process.signal(SIGCONT)
        resumed = true
        try Self.clipboardComesBack(daemon, display: display.display)
    }
}
