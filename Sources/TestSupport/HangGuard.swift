// SPDX-License-Identifier: MIT
import Foundation

/// A time limit of its own for a test that can block in a call nothing can cancel (a round
/// trip to a stopped X server when the bound on it is broken): after `milliseconds` it runs
/// `rescue`, which must unblock the call (continue the server), and remembers that it did,
/// so that a bug fails the test instead of stalling CI.
public final class HangGuard: @unchecked Sendable {
    private let condition = NSCondition()
    private var finished = false
    private var didFire = false

    /// Starts the guard; `disarm()` stops it.
    public init(milliseconds: Int, rescue: @escaping @Sendable () -> Void) {
        let deadline = Date(timeIntervalSinceNow: Double(milliseconds) / 1000)
        let thread = Thread { [self] in
            condition.lock()
            while !finished && condition.wait(until: deadline) {}
            let late = !finished
            if late { didFire = true }
            condition.unlock()
            if late { rescue() }
        }
        thread.start()
    }

    /// True when the time ran out and `rescue` ran.
    public var fired: Bool {
        condition.lock()
        defer { condition.unlock() }
        return didFire
    }

    /// Stops the guard (its thread ends at once).
    public func disarm() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }
}
