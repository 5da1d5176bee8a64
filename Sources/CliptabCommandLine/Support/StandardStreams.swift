// SPDX-License-Identifier: MIT
import Glibc

/// Standard output, buffered in memory and written with `write(2)`.
///
/// Cell text goes out byte for byte (no newline added, nothing escaped). When the reader
/// has gone away (`EPIPE`), writing throws `CLIFailure.outputClosed`, which ends the command
/// quietly with status 0: the reader chose to stop reading.
final class Output {
    private var buffer: [UInt8] = []
    private let descriptor: Int32
    /// Bytes kept before a write: big listings go out in pieces.
    private let threshold = 1 << 16

    /// Makes a buffer in front of `descriptor`.
    init(descriptor: Int32 = 1) {
        self.descriptor = descriptor
    }

    /// Appends `text` as is.
    func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= threshold { try flush() }
    }

    /// Appends `text` and a newline.
    func line(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= threshold { try flush() }
    }

    /// Appends `bytes` as they are.
    func write(bytes: [UInt8]) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= threshold { try flush() }
    }

    /// Writes everything buffered.
    func flush() throws {
        defer { buffer.removeAll(keepingCapacity: true) }
        try writeAll(buffer, to: descriptor)
    }
}

/// Writes every byte of `bytes` to `descriptor`, retrying interrupted and partial writes.
func writeAll(_ bytes: [UInt8], to descriptor: Int32) throws {
    var offset = 0
    while offset < bytes.count {
        let count = bytes.withUnsafeBytes { raw in
            Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
        }
        if count >= 0 {
            offset += count
            continue
        }
        let code = errno
        if code == EINTR || code == EAGAIN { continue }
        if code == EPIPE { throw CLIFailure.outputClosed }
        throw CLIFailure.local("cannot write to standard output: \(describe(errno: code))")
    }
}

/// Writes `text` to standard error, ignoring failures (there is nowhere left to report them).
func writeToStandardError(_ text: String) {
    _ = try? writeAll(Array(text.utf8), to: 2)
}

/// The C library's words for an `errno` value.
func describe(errno code: Int32) -> String {
    String(cString: strerror(code))
}
