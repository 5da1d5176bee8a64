// SPDX-License-Identifier: MIT
import Foundation
import Posix
import Synchronization

/// A third client on its own thread: reads the CLIPBOARD with `xclip -o` over and over,
/// recording the longest read and any read that did not return the expected size.
public final class ClipboardProbe: Sendable {
    /// What the reads gave so far.
    private struct State {
        var worstMilliseconds: UInt64 = 0
        var reads = 0
        var failures: [String] = []
        var stopping = false
        var finished = false
    }
    private let state = Mutex(State())

    /// Starts reading on `display`, expecting `expectedBytes` each time.
    public init(environment: [String: String], expectedBytes: Int) {
        Thread.detachNewThread { [self] in
            run(environment: environment, expectedBytes: expectedBytes)
        }
    }

    /// The reads, on their own thread; at least one, however soon the probe is stopped.
    private func run(environment: [String: String], expectedBytes: Int) {
        defer { state.withLock { $0.finished = true } }
        repeat {
            let start = MonotonicClock.milliseconds()
            var failure: String?
            do {
                let result = try ChildProcess.run(
                    "xclip", ["-o", "-selection", "clipboard"], environment: environment,
                    timeoutMilliseconds: 20_000)
                if result.timedOut {
                    failure = "xclip -o ran 20 s and was killed"
                } else if result.standardOutput.count != expectedBytes {
                    failure =
                        "xclip -o gave \(result.standardOutput.count) bytes, not \(expectedBytes) "
                        + "(\(result.termination)): \(result.errorText.prefix(200))"
                }
            } catch {
                failure = "xclip: \(error)"
            }
            let took = MonotonicClock.milliseconds() - start
            state.withLock {
                $0.worstMilliseconds = max($0.worstMilliseconds, took)
                $0.reads += 1
                if let failure { $0.failures.append(failure) }
            }
            usleep(20_000)
        } while !state.withLock({ $0.stopping })
    }

    /// Waits until `count` more reads than now have ended, or the probe stopped, or the
    /// generous hang guard of `guardMilliseconds` passed.
    public func awaitReads(_ count: Int, guardMilliseconds: UInt64 = 60_000) {
        let goal = state.withLock { $0.reads } + count
        let deadline = MonotonicClock.milliseconds() + guardMilliseconds
        while state.withLock({ $0.reads < goal && !$0.finished }) && MonotonicClock.milliseconds() < deadline
        {
            usleep(5000)
        }
    }

    /// Stops after the read in progress and returns the longest read (ms), the number of
    /// reads and the failures.
    public func stop() -> (worstMilliseconds: UInt64, reads: Int, failures: [String]) {
        state.withLock { $0.stopping = true }
        while !state.withLock({ $0.finished }) { usleep(5000) }
        return state.withLock { ($0.worstMilliseconds, $0.reads, $0.failures) }
    }
}
