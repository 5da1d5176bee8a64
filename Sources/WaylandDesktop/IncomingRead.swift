// SPDX-License-Identifier: MIT
import Glibc

/// One read of another program's selection through a pipe: non-blocking, bounded in bytes
/// and by a deadline.
final class IncomingRead {
    /// The pipe's read end (owned: closed when the read is released).
    let fileDescriptor: Int32
    /// When the read fails unless the owner has finished.
    let deadline: UInt64
    /// Called once with the outcome.
    let completion: (Result<[UInt8], WaylandReadError>) -> Void
    private let maximumBytes: Int
    private var buffer: [UInt8] = []

    /// Takes `fileDescriptor` (non-blocking) to read at most `maximumBytes` from.
    init(
        fileDescriptor: Int32, maximumBytes: Int, deadline: UInt64,
        completion: @escaping (Result<[UInt8], WaylandReadError>) -> Void
    ) {
        self.fileDescriptor = fileDescriptor
        self.maximumBytes = maximumBytes
        self.deadline = deadline
        self.completion = completion
    }

    deinit { close(fileDescriptor) }

    /// Reads what the pipe has; returns the outcome once the read is over (end of file, too
    /// much, or an error), nil while it goes on.
    func read() -> Result<[UInt8], WaylandReadError>? {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fileDescriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                guard buffer.count + count <= maximumBytes else {
                    return .failure(.tooLarge(limit: maximumBytes))
                }
                buffer.append(contentsOf: chunk[0..<count])
                continue
            }
            if count == 0 { return .success(buffer) }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return nil }
            return .failure(.systemCall("read", code: errno))
        }
    }
}
