// SPDX-License-Identifier: MIT
import Foundation
import Glibc
import Posix
import Synchronization

/// A listening Unix socket that plays a bus for one client: it records what the client writes
/// and answers only as the test says, on a thread of its own.
public final class StandInBus: @unchecked Sendable {
    /// What the stand-in does once the test's predicate is met.
    public enum Answer {
        /// Writes these bytes and keeps the socket open until the test ends.
        case send(Data)
        /// Closes the client's socket.
        case close
    }

    /// The address to connect to.
    public let address: String
    private let listener: Int32
    private let directory: TemporaryDirectory
    /// What the serving thread shares with the test's.
    private final class Shared: Sendable {
        let bytes = Mutex(Data())
        let stop = Mutex(false)
        let done = DispatchSemaphore(value: 0)
    }
    private let shared = Shared()
    private var started = false

    /// Listens at a path in a temporary directory, or at an abstract name.
    public init(abstract: Bool = false) throws {
        directory = try TemporaryDirectory()
        let name =
            abstract ? "cliptab-test-\(getpid())-\(MonotonicClock.nanoseconds())" : directory.appending("bus")
        address = abstract ? "unix:abstract=\(name)" : "unix:path=\(name)"
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else { throw FixtureError("socket failed") }
        var socketAddress = sockaddr_un()
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        let path = (abstract ? [0] : []) + Array(name.utf8) + (abstract ? [] : [0])
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { $0.copyBytes(from: path) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + path.count)
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
        }
        guard bound == 0, listen(listener, 4) == 0 else { throw FixtureError("bind or listen failed") }
    }

    deinit {
        shared.stop.withLock { $0 = true }
        if started { shared.done.wait() }
        close(listener)
    }

    /// Serves one client: records what it writes; `decide` sees everything received so far
    /// after each read and returns the answer once it should come (nil: keep reading).
    public func respond(_ decide: @escaping @Sendable (Data) -> Answer?) {
        started = true
        let listener = self.listener
        let thread = Thread { [shared] in
            defer { shared.done.signal() }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            defer { close(client) }
            var buffer = [UInt8](repeating: 0, count: 4096)
            var answered = false
            while !shared.stop.withLock({ $0 }) {
                var entry = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
                guard poll(&entry, 1, 20) > 0 else { continue }
                let count = read(client, &buffer, buffer.count)
                guard count > 0 else { return }
                let all = shared.bytes.withLock { data in
                    data.append(contentsOf: buffer[..<count])
                    return data
                }
                guard !answered, let answer = decide(all) else { continue }
                answered = true
                switch answer {
                case .close: return
                case .send(let reply):
                    _ = reply.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
                }
            }
        }
        thread.start()
    }

    /// Everything the client wrote so far.
    public func received() -> Data {
        shared.bytes.withLock { $0 }
    }
}
