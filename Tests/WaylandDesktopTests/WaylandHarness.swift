// SPDX-License-Identifier: MIT
import Glibc
import Posix
import TestSupport
import WaylandDesktop

/// Nil when `got` equals `expected`, else where they part: for large byte arrays, since
/// `#expect(a == b)` on megabytes that differ makes Swift Testing compute their difference,
/// which does not end in any useful time.
func byteDifference(_ got: [UInt8], _ expected: [UInt8]) -> String? {
    if got == expected { return nil }
    let first =
        zip(got, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        ?? min(got.count, expected.count)
    return "got \(got.count) bytes, expected \(expected.count); they differ from byte \(first)"
}

/// How a program run against the service ended and what it printed.
struct ReaderResult {
    /// How it ended (nil when still running at the hang guard).
    let termination: Termination?
    /// Its standard output.
    let output: [UInt8]
    /// Its standard error, decoded.
    let errorText: String

    /// Standard output decoded as UTF-8.
    var outputText: String { String(decoding: output, as: UTF8.self) }
}

/// A headless sway with a `WaylandSelectionService` connected to it (as the test's own
/// user, through the socket's path), and the loop that drives the service while real
/// Wayland clients run in the session.
final class WaylandHarness {
    /// The desktop.
    let sway: HeadlessCompositor
    /// The service under test.
    let service: WaylandSelectionService
    /// The losses reported, in order.
    private(set) var losses: [(selection: WaylandSelectionName, token: WaylandOwnershipToken)] = []
    /// The transfer reports, in order.
    private(set) var transfers: [WaylandTransfer] = []

    /// Starts sway and connects a service to it.
    init(configuration: WaylandSelectionConfiguration = WaylandSelectionConfiguration()) throws {
        sway = try HeadlessCompositor(.sway())
        service = try WaylandSelectionService.connect(display: sway.socketPath, configuration: configuration)
    }

    /// A second service on the same desktop (another program, as far as sway knows).
    func connectAnother() throws -> WaylandSelectionService {
        try WaylandSelectionService.connect(display: sway.socketPath)
    }

    /// Takes the service's notices into `losses` and `transfers`.
    private func takeNotices() {
        for notice in service.takeNotices() {
            switch notice {
            case .lost(let selection, let token): losses.append((selection, token))
            case .transfer(let transfer): transfers.append(transfer)
            }
        }
    }

    /// One loop iteration as the daemon runs it: `processEvents`, then `poll`.
    ///
    /// Polls the service's descriptor (and `extra`, and the `others` services') until its
    /// deadline or `milliseconds`. Returns the entries of `extra` with their `revents`.
    @discardableResult
    func step(milliseconds: Int = 10, extra: [pollfd] = [], others: [WaylandSelectionService] = [])
        -> [pollfd]
    {
        var timeout = milliseconds
        var fds = extra
        for each in [service] + others {
            each.processEvents(now: MonotonicClock.milliseconds())
            if each === service { takeNotices() }
            if let deadline = each.nextDeadline() {
                let now = MonotonicClock.milliseconds()
                timeout = min(timeout, deadline > now ? Int(deadline - now) : 0)
            }
            if !each.isBroken {
                fds.append(pollfd(fd: each.fileDescriptor, events: Int16(POLLIN), revents: 0))
            }
        }
        _ = poll(&fds, nfds_t(fds.count), Int32(timeout))
        return Array(fds.prefix(extra.count))
    }

    /// Drives the service until `condition` holds or `milliseconds` pass (the hang guard);
    /// returns the final value of `condition`.
    @discardableResult
    func pump(milliseconds: Int = 10_000, others: [WaylandSelectionService] = [], until condition: () -> Bool)
        -> Bool
    {
        let deadline = MonotonicClock.milliseconds() + UInt64(milliseconds)
        while !condition() {
            if MonotonicClock.milliseconds() >= deadline { return condition() }
            step(others: others)
        }
        return true
    }

    /// Starts a program in the session with its output on pipes.
    func spawn(_ executable: String, _ arguments: [String]) throws -> ChildProcess {
        try sway.spawn(executable, arguments)
    }

    /// Drives the service until `child` ends (at most `milliseconds`), collecting its output;
    /// with `pace`, reads its output at most `pace.bytes` at a time, `pace.milliseconds` apart
    /// (a slow but steady reader).
    func finish(
        _ child: ChildProcess, milliseconds: Int = 20_000, others: [WaylandSelectionService] = [],
        pace: (bytes: Int, milliseconds: Int)? = nil
    ) -> ReaderResult {
        var output: [UInt8] = []
        var errors: [UInt8] = []
        let deadline = MonotonicClock.milliseconds() + UInt64(milliseconds)
        while child.standardOutput >= 0 || child.standardError >= 0 {
            if MonotonicClock.milliseconds() >= deadline { break }
            var extra: [pollfd] = []
            for fd in [child.standardOutput, child.standardError] where fd >= 0 {
                extra.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
            }
            for entry in step(extra: extra, others: others) where entry.revents != 0 {
                if entry.fd == child.standardOutput {
                    if !drain(entry.fd, into: &output, at: pace?.bytes ?? 65536) {
                        child.closeStandardOutput()
                    }
                    if let pace {
                        let resume = MonotonicClock.milliseconds() + UInt64(pace.milliseconds)
                        while MonotonicClock.milliseconds() < resume {
                            step(milliseconds: pace.milliseconds, others: others)
                        }
                    }
                } else if !drain(entry.fd, into: &errors) {
                    child.closeStandardError()
                }
            }
        }
        var termination: Termination?
        while termination == nil && MonotonicClock.milliseconds() < deadline {
            termination = child.exitStatusIfEnded()
            if termination == nil { step(milliseconds: 5, others: others) }
        }
        return ReaderResult(
            termination: termination, output: output, errorText: String(decoding: errors, as: UTF8.self))
    }

    /// Runs `wl-paste ARGUMENTS` in the session while driving the service.
    func paste(_ arguments: [String], others: [WaylandSelectionService] = []) throws -> ReaderResult {
        finish(try spawn("wl-paste", arguments), others: others)
    }

    /// Reads `selection` as `mimeType` with the service, driving it until the read ends.
    func read(
        _ selection: WaylandSelectionName, mimeType: String, maxBytes: Int = 1 << 24,
        timeoutMilliseconds: Int = 5000
    ) -> Result<[UInt8], WaylandReadError>? {
        var result: Result<[UInt8], WaylandReadError>?
        service.read(
            selection, mimeType: mimeType, timeoutMilliseconds: timeoutMilliseconds, maxBytes: maxBytes
        ) {
            result = $0
        }
        pump { result != nil }
        return result
    }

    /// Reads the text of `selection` with the service, driving it (and `others`) until the read ends.
    func readText(_ selection: WaylandSelectionName, others: [WaylandSelectionService] = [])
        -> Result<WaylandText, WaylandReadError>?
    {
        var result: Result<WaylandText, WaylandReadError>?
        service.readText(selection, timeoutMilliseconds: 5000, maxBytes: 1 << 24) { result = $0 }
        pump(others: others) { result != nil }
        return result
    }

    private func drain(_ fd: Int32, into buffer: inout [UInt8], at most: Int = 65536) -> Bool {
        var chunk = [UInt8](repeating: 0, count: most)
        let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if count > 0 {
            buffer.append(contentsOf: chunk[0..<count])
            return true
        }
        return count < 0 && (errno == EINTR || errno == EAGAIN)
    }
}
