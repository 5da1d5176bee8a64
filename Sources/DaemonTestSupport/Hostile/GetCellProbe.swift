// SPDX-License-Identifier: MIT
import CliptabClient
import DBus
import Foundation
import Posix
import Synchronization

/// A second client on its own thread and connection: `GetCell` every 50 ms, recording the
/// longest wait, until stopped.
public final class GetCellProbe: Sendable {
    /// What the probe saw so far.
    private struct State {
        var worstMilliseconds: UInt64 = 0
        var calls = 0
        var failures: [String] = []
        var stopping = false
        var finished = false
    }
    private let state = Mutex(State())

    /// Starts probing cell (0, 0) of `table` through the bus at `address`.
    public init(address: String, table: String) {
        Thread.detachNewThread { [self] in
            run(address: address, table: table)
        }
    }

    /// The probe's loop, on its own thread.
    private func run(address: String, table: String) {
        defer { state.withLock { $0.finished = true } }
        let connection: BusConnection
        do {
            connection = try BusConnection.connect(address: address)
        } catch {
            state.withLock { $0.failures.append("connect: \(error)") }
            return
        }
        while !state.withLock({ $0.stopping }) {
            let start = MonotonicClock.milliseconds()
            var failure: String?
            do {
                try CliptabClient.call(connection, "GetCell", [s(table), i(0), i(0)], timeout: 20_000)
            } catch {
                failure = "\(error)"
            }
            let waited = MonotonicClock.milliseconds() - start
            state.withLock {
                $0.worstMilliseconds = max($0.worstMilliseconds, waited)
                $0.calls += 1
                if let failure { $0.failures.append(failure) }
            }
            let next = start + 50
            let now = MonotonicClock.milliseconds()
            if next > now { usleep(useconds_t((next - now) * 1000)) }
        }
    }

    /// The calls made so far.
    public var calls: Int { state.withLock { $0.calls } }

    /// Waits until the probe has made `count` calls more than now, or it stopped, or the
    /// generous hang guard of `guardMilliseconds` passed.
    public func awaitCalls(_ count: Int, guardMilliseconds: UInt64 = 60_000) {
        let goal = calls + count
        let deadline = MonotonicClock.milliseconds() + guardMilliseconds
        while calls < goal && !state.withLock({ $0.finished }) && MonotonicClock.milliseconds() < deadline {
            usleep(5000)
        }
    }

    /// Stops the probe after its call in flight and returns the longest wait (ms), the
    /// number of calls and the failures.
    public func stop() -> (worstMilliseconds: UInt64, calls: Int, failures: [String]) {
        state.withLock { $0.stopping = true }
        while !state.withLock({ $0.finished }) { usleep(5000) }
        return state.withLock { ($0.worstMilliseconds, $0.calls, $0.failures) }
    }
}
