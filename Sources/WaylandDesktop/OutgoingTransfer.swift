// SPDX-License-Identifier: MIT
import CWayland
import Glibc

/// The data of one `send`, written into the reader's pipe without blocking, a chunk at a
/// time, under a deadline that restarts whenever the reader takes bytes.
final class OutgoingTransfer {
    /// The pipe's write end (owned: closed when the transfer is released).
    let fileDescriptor: Int32
    /// The selection read.
    let selection: WaylandSelectionName
    /// The type asked for.
    let mimeType: String
    /// The keystroke marks answered when it was asked for.
    let keystrokesBefore: UInt64
    /// When it was asked for (monotonic milliseconds).
    let startedAt: UInt64
    private let bytes: [UInt8]
    private(set) var written = 0
    /// When the transfer is dropped unless the reader takes more.
    private(set) var deadline: UInt64

    /// Takes `fileDescriptor` (already non-blocking) to write `bytes` into.
    init(
        fileDescriptor: Int32, selection: WaylandSelectionName, mimeType: String, bytes: [UInt8],
        deadline: UInt64, keystrokesBefore: UInt64, startedAt: UInt64
    ) {
        self.keystrokesBefore = keystrokesBefore
        self.startedAt = startedAt
        self.fileDescriptor = fileDescriptor
        self.selection = selection
        self.mimeType = mimeType
        self.bytes = bytes
        self.deadline = deadline
    }

    deinit { close(fileDescriptor) }

    /// Writes what the pipe takes now, at most `chunk` bytes per write; returns the outcome
    /// once the transfer is over (complete, or the reader gone), nil while it goes on.
    func write(chunk: Int, now: UInt64, timeout: UInt64) -> WaylandTransfer.Outcome? {
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                CWayland_write_nosignal(
                    fileDescriptor, raw.baseAddress! + written, min(chunk, raw.count - written))
            }
            if count > 0 {
                written += count
                deadline = now + timeout
                continue
            }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return nil }
            return count < 0 && errno == EPIPE ? .readerClosed : .writeFailed(count < 0 ? errno : EIO)
        }
        return .complete
    }

    /// The report of the transfer ending with `outcome`.
    func report(_ outcome: WaylandTransfer.Outcome) -> WaylandTransfer {
        WaylandTransfer(
            selection: selection, mimeType: mimeType, bytesWritten: written, byteCount: bytes.count,
            outcome: outcome, keystrokesBefore: keystrokesBefore, startedAt: startedAt)
    }
}
