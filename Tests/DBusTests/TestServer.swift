// SPDX-License-Identifier: MIT
import DBus
import Foundation
import Glibc
import Posix
import Synchronization
import TestSupport

/// What a server thread tells the test thread.
final class ServerReport: Sendable {
    /// Set once the server's loop saw its connection drop.
    let disconnected = Mutex(false)
    /// Set once the server's loop returned.
    let finished = Mutex(false)
    /// Things the handlers noted, in order.
    let notes = Mutex<[String]>([])

    /// Appends a note.
    func note(_ text: String) { notes.withLock { $0.append(text) } }
}

/// Hooks a server's setup can install into its loop (used only on the server thread).
final class ServerLoop {
    /// Called after every dispatch, on the server thread.
    var afterDispatch: [() -> Void] = []
}

/// A `BusConnection` served by the documented `poll()` loop on its own thread, as the daemon
/// runs it: one connection per thread, every wrapper confined to that thread.
final class ServerThread: Sendable {
    /// The server connection's unique name.
    let uniqueName: String
    /// What the server reported.
    let report = ServerReport()
    /// The write end of the pipe that wakes the loop to stop it.
    private let wakeWrite: Int32
    /// The read end of that pipe.
    private let wakeRead: Int32
    /// Signalled when the thread ends.
    private let done = DispatchSemaphore(value: 0)

    /// Starts a thread that connects to `address`, runs `setup` on the connection, asks for
    /// `name` when given, then serves until `stop()` or until the bus goes away.
    ///
    /// The connection is made with the per-sender queue cap `maximumQueuedBytesPerSender`.
    init(
        address: String, name: String? = nil,
        maximumQueuedBytesPerSender: Int = BusConnection.defaultMaximumQueuedBytesPerSender,
        setup: @escaping @Sendable (BusConnection, ServerLoop, ServerReport) throws -> Void
    ) throws {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw FixtureError("pipe failed") }
        wakeRead = fds[0]
        wakeWrite = fds[1]
        let started = Mutex<Result<String, BusError>?>(nil)
        let ready = DispatchSemaphore(value: 0)
        let report = self.report
        let wakeRead = self.wakeRead
        let done = self.done
        let thread = Thread {
            defer { done.signal() }
            let connection: BusConnection
            let loop = ServerLoop()
            do {
                connection = try BusConnection.connect(
                    address: address, maximumQueuedBytesPerSender: maximumQueuedBytesPerSender)
                try setup(connection, loop, report)
                if let name {
                    _ = try connection.requestName(name, doNotQueue: true)
                }
            } catch {
                started.withLock { $0 = .failure(error as? BusError ?? BusError.failed("\(error)")) }
                ready.signal()
                return
            }
            started.withLock { $0 = .success(connection.uniqueName) }
            ready.signal()
            ServerThread.serve(connection, loop: loop, wakeRead: wakeRead, report: report)
            connection.close()
            report.finished.withLock { $0 = true }
        }
        thread.stackSize = 16 << 20
        thread.start()
        ready.wait()
        switch started.withLock({ $0 }) {
        case .success(let name)?:
            uniqueName = name
        case .failure(let error)?:
            done.wait()
            close(wakeRead)
            close(wakeWrite)
            throw error
        case nil:
            throw FixtureError("the server thread reported nothing")
        }
    }

    /// The loop of the `BusConnection` documentation, plus the stop pipe.
    private static func serve(
        _ connection: BusConnection, loop: ServerLoop, wakeRead: Int32, report: ServerReport
    ) {
        while true {
            // One call per client per turn, as the daemon serves them.
            connection.dispatchRound()
            for hook in loop.afterDispatch { hook() }
            guard connection.isConnected else {
                report.disconnected.withLock { $0 = true }
                return
            }
            var fds = connection.pollDescriptors() + [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            // Wake at least every 10 ms so that the hooks can answer deferred calls; at once
            // while calls wait.
            let timeout =
                connection.hasMessagesToDispatch ? 0 : min(connection.nextTimeoutMilliseconds() ?? 10, 10)
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 && errno != EINTR { return }
            if fds[fds.count - 1].revents != 0 { return }
            connection.handle(fds)
            connection.handleExpiredTimeouts()
        }
    }

    /// Stops the loop and waits for the thread to end.
    func stop() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        done.wait()
        close(wakeRead)
        close(wakeWrite)
    }

    /// Waits up to `milliseconds` for `condition` to hold, checking every 5 ms.
    static func wait(milliseconds: Int = 5000, until condition: () -> Bool) -> Bool {
        let deadline = MonotonicClock.milliseconds() + UInt64(milliseconds)
        while MonotonicClock.milliseconds() < deadline {
            if condition() { return true }
            usleep(5000)
        }
        return condition()
    }
}
