// SPDX-License-Identifier: MIT

/// A source of events that the loop polls besides the bus and the signals: the X
/// connection of the clipboard, for one.
public protocol PollSource: AnyObject {
    /// The descriptor to poll for input, or nil when the source has none now.
    var pollDescriptor: Int32? { get }
    /// Handles whatever is pending (called before every poll, and after the descriptor
    /// became readable), `now` in monotonic milliseconds.
    func process(now: UInt64)
    /// The next monotonic millisecond at which the source needs `process` called, if any.
    func nextDeadline() -> UInt64?
}
