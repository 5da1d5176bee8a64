// SPDX-License-Identifier: MIT
import Foundation
import Posix
import TestSupport
import X11Desktop

/// How a client run by the harness ended and what it printed.
struct ClientResult {
    /// How it ended.
    let termination: Termination?
    /// Its standard output.
    let output: [UInt8]
    /// Its standard error, decoded.
    let errorText: String

    /// True when it exited with status 0.
    var succeeded: Bool { termination == .exited(0) }
    /// Standard output decoded as UTF-8.
    var outputText: String { String(decoding: output, as: UTF8.self) }
}

/// A private Xvfb with a `SelectionService` on it, and the loop that drives the service
/// while real X clients run as child processes.
final class Harness {
    /// The X server.
    let display: VirtualDisplay
    /// The service under test.
    let service: SelectionService
    /// Every notice the service gave, oldest first (taken after each `processEvents`).
    private(set) var notices: [SelectionNotice] = []
    /// Called with each notice as it is taken, while the service is as that turn left it.
    var noticed: (SelectionNotice) -> Void = { _ in }

    /// The selections the service lost, oldest first.
    var losses: [SelectionName] {
        notices.compactMap { if case .lost(let name) = $0 { name } else { nil } }
    }

    /// The transfers the service reported, oldest first.
    var transfers: [SelectionTransfer] {
        notices.compactMap { if case .transfer(let transfer) = $0 { transfer } else { nil } }
    }

    /// Forgets the notices taken so far.
    func clearNotices() { notices = [] }

    /// Starts Xvfb and connects a service to it.
    init(configuration: SelectionConfiguration = SelectionConfiguration()) throws {
        display = try VirtualDisplay()
        service = try SelectionService.connect(display: display.display, configuration: configuration)
    }

    /// The environment for clients: ours, on the private display, in a UTF-8 locale.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = display.display
        environment["LC_ALL"] = "C.UTF-8"
        environment.removeValue(forKey: "WAYLAND_DISPLAY")
        return environment
    }

    /// Runs one loop iteration as the daemon will: `processEvents`, then `poll`.
    ///
    /// Polls the X socket and `extra` descriptors for at most `milliseconds` (less when a
    /// service deadline is earlier). Returns the entries of `extra` with their `revents`.
    @discardableResult
    func step(milliseconds: Int = 10, extra: [pollfd] = []) -> [pollfd] {
        service.processEvents(now: MonotonicClock.milliseconds())
        for notice in service.takeNotices() {
            notices.append(notice)
            noticed(notice)
        }
        var timeout = milliseconds
        if let deadline = service.nextDeadline() {
            let now = MonotonicClock.milliseconds()
            timeout = min(timeout, deadline > now ? Int(deadline - now) : 0)
        }
        var fds = extra
        if !service.isBroken {
            fds.append(pollfd(fd: service.fileDescriptor, events: Int16(POLLIN), revents: 0))
        }
        _ = poll(&fds, nfds_t(fds.count), Int32(timeout))
        return Array(fds.prefix(extra.count))
    }

    /// Drives the service until `condition` holds or `milliseconds` pass; returns the final
    /// value of `condition`.
    @discardableResult
    func pump(milliseconds: Int, until condition: () -> Bool = { false }) -> Bool {
        let deadline = MonotonicClock.milliseconds() + UInt64(milliseconds)
        while !condition() {
            if MonotonicClock.milliseconds() >= deadline { return condition() }
            step()
        }
        return true
    }

    /// Starts a client with its standard output and error on pipes.
    func spawn(_ executable: String, _ arguments: [String], stdin: ChildProcess.Stream = .null) throws
        -> ChildProcess
    {
        try ChildProcess.spawn(
            executable, arguments, environment: environment, stdin: stdin, stdout: .pipe, stderr: .pipe)
    }

    /// Runs clients to their end while driving the service, collecting their output; kills
    /// those still running after `timeoutMilliseconds`.
    func run(_ commands: [[String]], timeoutMilliseconds: Int = 30_000) throws -> [ClientResult] {
        let clients = try commands.map { RunningClient(try spawn($0[0], Array($0.dropFirst()))) }
        return finish(clients, timeoutMilliseconds: timeoutMilliseconds)
    }

    /// Runs one client to its end while driving the service.
    func run(_ command: [String], timeoutMilliseconds: Int = 30_000) throws -> ClientResult {
        try run([command], timeoutMilliseconds: timeoutMilliseconds)[0]
    }

    /// Drives the service while `clients` run, until all have ended.
    func finish(_ clients: [RunningClient], timeoutMilliseconds: Int = 30_000) -> [ClientResult] {
        let deadline = MonotonicClock.milliseconds() + UInt64(timeoutMilliseconds)
        while clients.contains(where: { !$0.isDone }) {
            if MonotonicClock.milliseconds() >= deadline {
                for client in clients where !client.isDone { client.process.signal(SIGKILL) }
                break
            }
            let ready = step(extra: clients.flatMap(\.pollDescriptors))
            for entry in ready where entry.revents != 0 {
                for client in clients { client.drain(entry) }
            }
        }
        return clients.map { $0.finish() }
    }

    /// Starts a client that owns a selection with `text` (fed on its standard input), and
    /// waits until it does.
    func startOwner(_ command: [String], text: [UInt8], selection: String = "clipboard") throws
        -> ChildProcess
    {
        let owner = try ChildProcess.spawn(
            command[0], Array(command.dropFirst()), environment: environment, stdin: .pipe, stdout: .null,
            stderr: .null)
        try owner.write(text)
        owner.closeStandardInput()
        let deadline = MonotonicClock.milliseconds() + 10_000
        while MonotonicClock.milliseconds() < deadline {
            let probe = try ChildProcess.run(
                "xclip", ["-selection", selection, "-t", "TARGETS", "-o"], environment: environment,
                timeoutMilliseconds: 5000)
            if probe.termination == .exited(0) && !probe.standardOutput.isEmpty { return owner }
            usleep(20_000)
        }
        owner.terminate()
        throw FixtureError("\(command[0]) did not take the selection within 10 s")
    }

    /// Reads `selection` with the service, driving it until the completion runs.
    func read(
        _ selection: SelectionName = .clipboard, timeoutMilliseconds: Int = 10_000, maxBytes: Int = 64 << 20
    ) -> Result<[UInt8], SelectionReadError>? {
        var result: Result<[UInt8], SelectionReadError>?
        service.readText(selection, timeoutMilliseconds: timeoutMilliseconds, maxBytes: maxBytes) {
            result = $0
        }
        pump(milliseconds: timeoutMilliseconds + 5000) { result != nil }
        return result
    }
}

/// A client process whose output pipes the harness drains while it runs (a client blocked
/// on a full pipe would never finish).
final class RunningClient {
    /// The process.
    let process: ChildProcess
    private var output: [UInt8] = []
    private var errors: [UInt8] = []

    /// Wraps a started process.
    init(_ process: ChildProcess) {
        self.process = process
    }

    /// True once the process ended and both pipes reached end of file.
    var isDone: Bool {
        process.standardOutput < 0 && process.standardError < 0 && !process.isRunning
    }

    /// True when the process has written to its standard output and nothing has read it yet.
    var hasOutput: Bool {
        guard process.standardOutput >= 0 else { return false }
        var entry = pollfd(fd: process.standardOutput, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) == 1 && entry.revents & Int16(POLLIN) != 0
    }

    /// The open pipes, for `poll`.
    var pollDescriptors: [pollfd] {
        [process.standardOutput, process.standardError].filter { $0 >= 0 }.map {
            pollfd(fd: $0, events: Int16(POLLIN), revents: 0)
        }
    }

    /// Reads what `entry` says is ready, if it is one of this client's pipes.
    func drain(_ entry: pollfd) {
        if entry.fd == process.standardOutput && process.standardOutput >= 0 {
            if !read(entry.fd, into: &output) { process.closeStandardOutput() }
        } else if entry.fd == process.standardError && process.standardError >= 0 {
            if !read(entry.fd, into: &errors) { process.closeStandardError() }
        }
    }

    private func read(_ fd: Int32, into buffer: inout [UInt8]) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if count > 0 {
            buffer.append(contentsOf: chunk[0..<count])
            return true
        }
        return count < 0 && errno == EINTR
    }

    /// Closes the pipes, reaps the process and returns what it did.
    func finish() -> ClientResult {
        process.closeStandardOutput()
        process.closeStandardError()
        let termination = process.waitForExit(timeoutMilliseconds: 5000)
        return ClientResult(
            termination: termination, output: output, errorText: String(decoding: errors, as: UTF8.self))
    }
}

/// Texts the tests copy, by name (Swift Testing prints arguments, so tests take names).
enum Sample {
    /// Plain ASCII.
    static let ascii = Array("Hello, clipboard! 0123456789".utf8)
    /// Multi-byte UTF-8: accents, CJK, emoji (outside the BMP), combining marks.
    static let unicode = Array("héllo wörld → 世界 😀👍🏽 e\u{301}".utf8)
    /// Tabs, newlines, carriage returns, trailing newline.
    static let whitespace = Array("a\tb\n\tc\r\nlast line\n".utf8)
    /// Nothing.
    static let empty: [UInt8] = []

    /// `count` bytes of varied, valid UTF-8 text (with multi-byte characters, and emoji
    /// unless `emoji` is false), deterministic.
    static func large(_ count: Int, emoji: Bool = true) -> [UInt8] {
        let line = Array("line of text with ümlauts, 漢字 and \(emoji ? "🙂" : "☺") emoji\t…\n".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + line.count)
        var number = 0
        while bytes.count < count {
            bytes.append(contentsOf: Array(String(number).utf8))
            bytes.append(contentsOf: line)
            number += 1
        }
        // Cut at a character boundary: drop continuation bytes at the cut.
        var end = count
        while end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 }
        return Array(bytes[0..<end])
    }

    /// The text named `name`.
    static func named(_ name: String) -> [UInt8] {
        switch name {
        case "ascii": return ascii
        case "unicode": return unicode
        case "whitespace": return whitespace
        case "empty": return empty
        case "10MiB": return large(10 << 20)
        default: fatalError("no sample named \(name)")
        }
    }
}

/// Nil when `actual` equals `expected`, else a short account of where they differ (never
/// the whole arrays: a 10 MiB mismatch must not flood the log).
func mismatch(_ actual: [UInt8], _ expected: [UInt8]) -> String? {
    if actual == expected { return nil }
    let common = min(actual.count, expected.count)
    let index = (0..<common).first { actual[$0] != expected[$0] } ?? common
    let around = { (bytes: [UInt8]) in Array(bytes[max(index - 4, 0)..<min(index + 8, bytes.count)]) }
    return "got \(actual.count) bytes, expected \(expected.count); first difference at byte \(index):"
        + " got \(around(actual)), expected \(around(expected))"
}
