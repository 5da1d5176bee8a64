// SPDX-License-Identifier: MIT

/// One `send` the service served from a selection it owns: readers are anonymous on
/// Wayland, so it says what was asked for and how far it went, not who asked.
public struct WaylandTransfer: Equatable, Sendable {
    /// How a transfer ended.
    public enum Outcome: Equatable, Sendable {
        /// Every byte was written and the descriptor closed.
        case complete
        /// The reader closed its end before the last byte.
        case readerClosed
        /// The reader read nothing for the transfer timeout.
        case timedOut
        /// `maximumTransfers` were in flight: the request was closed unanswered.
        case tooManyTransfers
        /// The type asked for is not one of those offered.
        case typeNotOffered
        /// The service broke (or was closed) with the transfer in flight.
        case abandoned
        /// A write failed with this `errno`.
        case writeFailed(Int32)
    }

    /// The selection that was read.
    public let selection: WaylandSelectionName
    /// The MIME type asked for.
    public let mimeType: String
    /// How many bytes were written.
    public let bytesWritten: Int
    /// How many bytes the type has.
    public let byteCount: Int
    /// How it ended.
    public let outcome: Outcome
    /// The keystroke marks the compositor had answered when it asked for this transfer
    /// (`WaylandSelectionService.markKeystroke()`): a read asked for before mark N was
    /// answered carries less than N, so it did not come from mark N's chord.
    public let keystrokesBefore: UInt64
    /// When the compositor asked for it (monotonic milliseconds; 0 when not known): a
    /// sequence tells a clipboard manager's read at once after an offer by it.
    public let startedAt: UInt64

    /// True when the reader got every byte.
    public var isComplete: Bool { outcome == .complete }

    /// Makes a report.
    public init(
        selection: WaylandSelectionName, mimeType: String, bytesWritten: Int, byteCount: Int,
        outcome: Outcome,
        keystrokesBefore: UInt64 = 0, startedAt: UInt64 = 0
    ) {
        self.keystrokesBefore = keystrokesBefore
        self.startedAt = startedAt
        self.selection = selection
        self.mimeType = mimeType
        self.bytesWritten = bytesWritten
        self.byteCount = byteCount
        self.outcome = outcome
    }
}
