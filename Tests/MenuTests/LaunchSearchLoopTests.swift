// SPDX-License-Identifier: MIT
import CliptabContract
import DBus
import DaemonTestSupport
import Foundation
import Glibc
import Posix
import Synchronization
import TestSupport
import Testing

/// A program of the session calling `LaunchSearch` in a loop, as fast as the daemon answers:
/// each menu it opens grabs the keyboard, and the user, who closes each with Escape, gets
/// the keyboard back all the same.
@Suite(.serialized)
struct LaunchSearchLoopTests {
    /// The looping caller, on a thread and a connection of its own.
    final class LoopingCaller: Sendable {
        /// What it got so far.
        struct Tally {
            var calls = 0
            var refused = 0
            var failures: [String] = []
            var stopping = false
        }
        let tally = Mutex(Tally())
        /// Signalled when the thread has made its last call.
        private let finished = DispatchSemaphore(value: 0)

        /// Starts calling `LaunchSearch(terms, 0)` through the bus at `address`.
        init(address: String, terms: [String]) {
            Thread.detachNewThread { [self] in run(address: address, terms: terms) }
        }

        private func run(address: String, terms: [String]) {
            defer { finished.signal() }
            guard let connection = try? BusConnection.connect(address: address) else {
                tally.withLock { $0.failures.append("cannot connect") }
                return
            }
            while !tally.withLock({ $0.stopping }) {
                var refused = false
                var failure: String?
                do {
                    let message = try BusMessage.methodCall(
                        destination: CliptabBus.name, path: DesktopSearchBus.searchProviderPath,
                        interface: DesktopSearchBus.searchProviderInterface, member: "LaunchSearch")
                    try message.append([.array(elementSignature: "s", terms.map { .string($0) }), .uint32(0)])
                    _ = try connection.call(message, timeoutMilliseconds: 20_000)
                } catch let error as BusError where error.name == CliptabBus.errorPrefix + "LimitExceeded" {
                    refused = true
                } catch {
                    failure = "\(error)"
                }
                tally.withLock {
                    $0.calls += 1
                    if refused { $0.refused += 1 }
                    if let failure { $0.failures.append(failure) }
                }
            }
        }

        /// Stops after the call in flight; a second call returns at once.
        func stop() {
            let first = tally.withLock { tally in
                defer { tally.stopping = true }
                return !tally.stopping
            }
            guard first else { return }
            finished.wait()
        }
    }

    /// Waits (at most 15 s) until a menu window is shown (`shown`) or none is; true when it
    /// came to that.
    static func waitForMenu(_ fixture: MenuFixture, shown: Bool) throws -> Bool {
        try eventually(within: 15_000) {
            let found = try fixture.tool(
                "xdotool", "search", "--onlyvisible", "--classname", "^cliptab-menu$")
            return found.split(separator: "\n").isEmpty != shown
        }
    }

    /// Three times: the caller's menu is open and holds the keyboard; the user presses
    /// Escape; right after the menu is gone another client grabs the keyboard, and the
    /// caller's next calls are refused with `LimitExceeded` until the pause is over.
    @Test func aCallerInALoopCannotKeepTheKeyboard() throws {
        let fixture = try MenuFixture()
        try fixture.makeSampleTable()
        let grabber = try ChildProcess.spawn(
            "python3", ["-c", xlibPythonPrelude + HelperPrograms.source("input_grab_probe.py"), "lines"],
            environment: fixture.environment, stdin: .pipe,
            stdout: .pipe,
            stderr: .null)
        defer { grabber.terminate(graceMilliseconds: 1000) }
        #expect(grabber.readLine(timeoutMilliseconds: 20_000) == "ready")
        func grab() throws -> String? {
            try grabber.write(Array("grab\n".utf8))
            return grabber.readLine(timeoutMilliseconds: 20_000)
        }
        let caller = LoopingCaller(address: fixture.session.bus.address, terms: ["git"])
        defer { caller.stop() }
        for round in 1...3 {
            #expect(try Self.waitForMenu(fixture, shown: true), "round \(round): no menu opened")
            // 1 is AlreadyGrabbed: the menu holds the keyboard (the grabber can tell).
            #expect(try grab() == "1", "round \(round): the menu does not hold the keyboard")
            let refusedBefore = caller.tally.withLock { $0.refused }
            try fixture.tool("xdotool", "key", "Escape")
            #expect(try Self.waitForMenu(fixture, shown: false), "round \(round): Escape left the menu open")
            #expect(try grab() == "0", "round \(round): the keyboard was not the user's after Escape")
            #expect(
                eventually(within: 15_000, every: 10) {
                    caller.tally.withLock { $0.refused } > refusedBefore
                },
                "round \(round): the caller was never refused after the menu closed")
        }
        caller.stop()
        let tally = caller.tally.withLock { $0 }
        print("LaunchSearch loop: \(tally.calls) calls, \(tally.refused) refused")
        #expect(tally.failures.isEmpty, "\(tally.failures.prefix(3))")
    }
}
