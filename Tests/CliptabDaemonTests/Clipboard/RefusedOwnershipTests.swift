// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabContract
import DBus
import DaemonTestSupport
import Foundation
import Glibc
import Posix
import TestSupport
import Testing

/// A copy whose ownership the X server refuses is a failure, never reported as done: a real
/// X client steals CLIPBOARD while cliptabd takes it.
///
/// The steal is made certain, not a race: the stealer grabs the server, so cliptabd's
/// timestamp request waits; once cliptabd waits for its timestamp (it polls its X socket
/// alone), the stealer appends to cliptabd's timestamp property (a PropertyNotify older than
/// what follows), takes CLIPBOARD 10 ms later and lets the server go. cliptabd asks to own
/// the selection with the older time, which the server ignores (ICCCM §2.1).
@Suite(.serialized)
struct RefusedOwnershipTests {
    /// The stealer: prints `ready DAEMON_WINDOW`, then on `grab` grabs the server (`grabbed`)
    /// and on `steal` makes the older PropertyNotify, takes CLIPBOARD and ungrabs (`stolen`).
    static let stealer =
        xlibPythonPrelude + HelperPrograms.source("selection_stealer.py")

    /// True when process `pid`'s main thread is in poll(2)/ppoll(2) on exactly one
    /// descriptor: cliptabd waiting on its X socket alone (its loop polls several).
    static func pollsOneDescriptor(_ pid: pid_t) -> Bool {
        guard let line = try? String(contentsOfFile: "/proc/\(pid)/syscall", encoding: .utf8) else {
            return false
        }
        let fields = line.split(separator: " ")
        return fields.count > 2 && (fields[0] == "7" || fields[0] == "271") && fields[2] == "0x1"
    }

    @Test func copyRefusedByTheServerIsAFailure() throws {
        let display = try VirtualDisplay()
        let daemon = try DaemonProcess(environment: ["DISPLAY": display.display])
        try daemon.call("CreateTable", [s("t")])
        try daemon.call("InsertRows", [s("t"), i(0), i(0), strings(["first", "second"])])
        // cliptabd owns CLIPBOARD first, so that the stealer finds its window.
        #expect(try daemon.call("Copy", [s("t"), i(0), i(0)]) == [s("first")])
        let stealer = try ChildProcess.spawn(
            "python3", ["-c", Self.stealer], environment: daemon.environment, stdin: .pipe, stdout: .pipe,
            stderr: .null)
        defer { stealer.terminate(graceMilliseconds: 1000) }
        let ready = try #require(stealer.readLine(timeoutMilliseconds: 20_000))
        #expect(ready.hasPrefix("ready ") && ready != "ready 0", "\(ready)")
        try stealer.write(Array("grab\n".utf8))
        #expect(stealer.readLine(timeoutMilliseconds: 20_000) == "grabbed")

        let caller = try daemon.connect()
        let serial = try caller.send(CliptabClient.message("Copy", [s("t"), i(0), i(1)]))
        // Until cliptabd waits for its timestamp (its X requests wait behind the grab).
        let deadline = MonotonicClock.milliseconds() + 5_000
        while !Self.pollsOneDescriptor(daemon.process.pid) && MonotonicClock.milliseconds() < deadline {
            usleep(1_000)
        }
        #expect(Self.pollsOneDescriptor(daemon.process.pid), "cliptabd never waited on its X socket")
        try stealer.write(Array("steal\n".utf8))
        #expect(stealer.readLine(timeoutMilliseconds: 20_000) == "stolen")

        var reply: BusMessage?
        while reply == nil, let message = caller.readMessage(timeoutMilliseconds: 20_000) {
            if message.replySerial == serial { reply = message }
        }
        let answer = try #require(reply, "no reply to Copy")
        #expect(
            answer.errorName == CliptabBus.errorPrefix + "ClipboardUnavailable",
            "Copy answered \(answer.errorName ?? "success: \((try? answer.readValues()) ?? [])")")
        #expect(daemon.process.isRunning)
    }
}
