// SPDX-License-Identifier: MIT
import CPosix
import Glibc

/// How a child process ended.
public enum Termination: Equatable, Sendable, CustomStringConvertible {
    /// Exited with this status.
    case exited(Int32)
    /// Ended by this signal.
    case signaled(Int32)

    init(waitStatus: Int32) {
        // WIFEXITED/WEXITSTATUS/WTERMSIG are macros that Swift cannot import.
        let signal = waitStatus & 0x7f
        self = signal == 0 ? .exited((waitStatus >> 8) & 0xff) : .signaled(signal)
    }

    /// "exit 3" or "signal 9".
    public var description: String {
        switch self {
        case .exited(let status): return "exit \(status)"
        case .signaled(let signal): return "signal \(signal)"
        }
    }
}

/// What a finished command printed and how it ended.
public struct CommandResult: Sendable {
    /// How the command ended (`.signaled(SIGKILL)` when it ran past its timeout).
    public let termination: Termination
    /// Everything written to standard output.
    public let standardOutput: [UInt8]
    /// Everything written to standard error.
    public let standardError: [UInt8]
    /// True when the command was killed because it ran past its timeout.
    public let timedOut: Bool

    /// Standard output decoded as UTF-8 (invalid bytes repaired).
    public var outputText: String { String(decoding: standardOutput, as: UTF8.self) }
    /// Standard error decoded as UTF-8 (invalid bytes repaired).
    public var errorText: String { String(decoding: standardError, as: UTF8.self) }
}

/// A child process started with `posix_spawn`, with an empty signal mask and default signal
/// dispositions, and no descriptors but its standard three.
///
/// Foundation's `Process` copies the calling thread's signal mask into the child; from a
/// Swift Testing worker thread that mask blocks SIGTERM, so children could not be stopped.
public final class ChildProcess {
    /// Where one of the child's standard streams goes.
    public enum Stream: Sendable {
        /// The parent's own descriptor.
        case inherit
        /// `/dev/null`.
        case null
        /// A pipe that the parent reads from or writes to.
        case pipe
    }

    /// The child's process id.
    public let pid: pid_t
    /// The parent's end of the child's standard input pipe, or -1.
    public private(set) var standardInput: Int32
    /// The parent's end of the child's standard output pipe, or -1.
    public private(set) var standardOutput: Int32
    /// The parent's end of the child's standard error pipe, or -1.
    public private(set) var standardError: Int32
    private var termination: Termination?
    private var lineBuffer: [UInt8] = []
    /// The pidfd `exitDescriptor` opened, or -1.
    private var pidDescriptor: Int32 = -1

    private init(pid: pid_t, stdin: Int32, stdout: Int32, stderr: Int32) {
        self.pid = pid
        self.standardInput = stdin
        self.standardOutput = stdout
        self.standardError = stderr
    }

    /// Starts `executable` (looked up in `PATH` when it has no slash) with `arguments`.
    ///
    /// `environment` nil inherits the parent's; otherwise exactly those variables.
    public static func spawn(
        _ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
        stdin: Stream = .null, stdout: Stream = .pipe, stderr: Stream = .pipe
    ) throws -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        // A new process group, so that a test can stop the child and anything it forks.
        posix_spawnattr_setpgroup(&attributes, 0)
        let flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP
        posix_spawnattr_setflags(&attributes, Int16(flags))

        var parentEnds: [Int32] = [-1, -1, -1]
        var childEnds: [Int32] = []
        defer { for fd in childEnds { close(fd) } }
        for (index, stream) in [stdin, stdout, stderr].enumerated() {
            switch stream {
            case .inherit:
                break
            case .null:
                posix_spawn_file_actions_addopen(
                    &actions, Int32(index), "/dev/null", index == 0 ? O_RDONLY : O_WRONLY, 0)
            case .pipe:
                var fds: [Int32] = [-1, -1]
                guard CPosix_pipe_cloexec(&fds) == 0 else {
                    for fd in parentEnds where fd >= 0 { close(fd) }
                    throw SystemCallError.current("pipe2")
                }
                let (parentEnd, childEnd) = index == 0 ? (fds[1], fds[0]) : (fds[0], fds[1])
                parentEnds[index] = parentEnd
                childEnds.append(childEnd)
                posix_spawn_file_actions_adddup2(&actions, childEnd, Int32(index))
            }
        }
        CPosix_spawn_addclosefrom(&actions, 3)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let environmentList =
            environment.map { $0.map { "\($0.key)=\($0.value)" }.sorted() }
            ?? currentEnvironment()
        let envp = environmentList.map { strdup($0) } + [nil]
        defer { for pointer in envp { free(pointer) } }

        var pid: pid_t = 0
        let status = posix_spawnp(&pid, executable, &actions, &attributes, argv, envp)
        guard status == 0 else {
            for fd in parentEnds where fd >= 0 { close(fd) }
            throw SystemCallError("posix_spawn \(executable)", code: status)
        }
        return ChildProcess(pid: pid, stdin: parentEnds[0], stdout: parentEnds[1], stderr: parentEnds[2])
    }

    /// Runs a command to its end, feeding `input` to its standard input and collecting its
    /// output; kills it (SIGKILL) after `timeoutMilliseconds`.
    public static func run(
        _ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
        input: [UInt8]? = nil, timeoutMilliseconds: Int = 30_000
    ) throws -> CommandResult {
        let child = try spawn(
            executable, arguments, environment: environment,
            stdin: input == nil ? .null : .pipe, stdout: .pipe, stderr: .pipe)
        let deadline = MonotonicClock.milliseconds() + UInt64(timeoutMilliseconds)
        var pendingInput = input ?? []
        var written = 0
        var output: [UInt8] = []
        var errors: [UInt8] = []
        if input != nil && pendingInput.isEmpty { child.closeStandardInput() }
        var timedOut = false
        while child.standardOutput >= 0 || child.standardError >= 0 || child.standardInput >= 0 {
            let now = MonotonicClock.milliseconds()
            if now >= deadline {
                timedOut = true
                break
            }
            var fds: [pollfd] = []
            if child.standardInput >= 0 {
                fds.append(pollfd(fd: child.standardInput, events: Int16(POLLOUT), revents: 0))
            }
            if child.standardOutput >= 0 {
                fds.append(pollfd(fd: child.standardOutput, events: Int16(POLLIN), revents: 0))
            }
            if child.standardError >= 0 {
                fds.append(pollfd(fd: child.standardError, events: Int16(POLLIN), revents: 0))
            }
            let ready = poll(&fds, nfds_t(fds.count), Int32(min(deadline - now, 1000)))
            if ready < 0 && errno != EINTR { throw SystemCallError.current("poll") }
            for entry in fds where entry.revents != 0 {
                if entry.fd == child.standardInput {
                    let count = pendingInput.withUnsafeBytes { raw in
                        Glibc.write(entry.fd, raw.baseAddress! + written, min(raw.count - written, 65536))
                    }
                    if count > 0 { written += count }
                    if count < 0 && errno != EAGAIN && errno != EINTR || written == pendingInput.count {
                        child.closeStandardInput()
                        pendingInput = []
                    }
                } else if entry.fd == child.standardOutput {
                    if !child.drain(entry.fd, into: &output) { child.closeStandardOutput() }
                } else if entry.fd == child.standardError {
                    if !child.drain(entry.fd, into: &errors) { child.closeStandardError() }
                }
            }
        }
        if timedOut { child.signal(SIGKILL) }
        let termination = child.waitForExit()
        return CommandResult(
            termination: termination, standardOutput: output, standardError: errors, timedOut: timedOut)
    }

    /// Reads what is available from `fd` into `buffer`; false at end of file or on error.
    private func drain(_ fd: Int32, into buffer: inout [UInt8]) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count > 0 {
            buffer.append(contentsOf: chunk[0..<count])
            return true
        }
        return count < 0 && (errno == EINTR || errno == EAGAIN)
    }

    /// Reads one line (without its newline) from standard output, waiting at most
    /// `timeoutMilliseconds`; nil at end of file or timeout.
    public func readLine(timeoutMilliseconds: Int) -> String? {
        let deadline = MonotonicClock.milliseconds() + UInt64(timeoutMilliseconds)
        while true {
            if let newline = lineBuffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: lineBuffer[..<newline], as: UTF8.self)
                lineBuffer.removeSubrange(...newline)
                return line
            }
            let now = MonotonicClock.milliseconds()
            guard standardOutput >= 0, now < deadline else { return nil }
            var entry = pollfd(fd: standardOutput, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, Int32(deadline - now))
            if ready <= 0 { continue }
            if !drain(standardOutput, into: &lineBuffer) {
                closeStandardOutput()
            }
        }
    }

    /// Writes all of `bytes` to the child's standard input.
    public func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                Glibc.write(standardInput, raw.baseAddress! + offset, raw.count - offset)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw SystemCallError.current("write")
            }
            offset += count
        }
    }

    /// Closes the parent's end of the standard input pipe (the child sees end of file).
    public func closeStandardInput() {
        if standardInput >= 0 { close(standardInput) }
        standardInput = -1
    }

    /// Closes the parent's end of the standard output pipe.
    public func closeStandardOutput() {
        if standardOutput >= 0 { close(standardOutput) }
        standardOutput = -1
    }

    /// Closes the parent's end of the standard error pipe.
    public func closeStandardError() {
        if standardError >= 0 { close(standardError) }
        standardError = -1
    }

    /// Sends `signal` to the child.
    public func signal(_ signal: Int32) {
        if termination == nil { kill(pid, signal) }
    }

    /// How the child ended, without waiting; nil while it runs.
    public func exitStatusIfEnded() -> Termination? {
        if let termination { return termination }
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        if result == pid { termination = Termination(waitStatus: status) }
        return termination
    }

    /// True while the child has not ended.
    public var isRunning: Bool { exitStatusIfEnded() == nil }

    /// A descriptor that turns readable when the child ends (a pidfd).
    ///
    /// A `poll()` loop notices the end with it, without a timer. Opened at the first use and
    /// closed with this object; nil where the kernel has none (before Linux 5.3) or a filter denies it.
    public var exitDescriptor: Int32? {
        if pidDescriptor < 0 && termination == nil { pidDescriptor = CPosix_pidfd_open(pid) }
        return pidDescriptor >= 0 ? pidDescriptor : nil
    }

    /// Waits until the child ends, at most `timeoutMilliseconds` (nil: forever).
    @discardableResult
    public func waitForExit(timeoutMilliseconds: Int? = nil) -> Termination? {
        guard let timeoutMilliseconds else {
            if let termination { return termination }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            termination = Termination(waitStatus: status)
            return termination
        }
        let deadline = MonotonicClock.milliseconds() + UInt64(timeoutMilliseconds)
        while MonotonicClock.milliseconds() < deadline {
            if let ended = exitStatusIfEnded() { return ended }
            usleep(2000)
        }
        return exitStatusIfEnded()
    }

    /// Non-optional form of `waitForExit()` for callers that wait forever.
    public func waitForExit() -> Termination {
        waitForExit(timeoutMilliseconds: nil) ?? .signaled(SIGKILL)
    }

    /// Stops the child: SIGTERM, then SIGKILL after `graceMilliseconds`.
    @discardableResult
    public func terminate(graceMilliseconds: Int = 3000) -> Termination {
        signal(SIGTERM)
        if let ended = waitForExit(timeoutMilliseconds: graceMilliseconds) { return ended }
        signal(SIGKILL)
        return waitForExit()
    }

    deinit {
        if exitStatusIfEnded() == nil {
            kill(pid, SIGKILL)
            _ = waitForExit()
        }
        closeStandardInput()
        closeStandardOutput()
        closeStandardError()
        if pidDescriptor >= 0 { close(pidDescriptor) }
    }
}

/// The calling process's environment as `NAME=value` strings.
private func currentEnvironment() -> [String] {
    var result: [String] = []
    var pointer = environ
    while let entry = pointer.pointee {
        result.append(String(cString: entry))
        pointer += 1
    }
    return result
}
