// SPDX-License-Identifier: MIT

/// The two X selections that carry text between programs.
public enum SelectionName: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// `CLIPBOARD`: explicit copy and paste.
    case clipboard
    /// `PRIMARY`: the current selection, pasted with the middle button.
    case primary

    /// The X atom name, `CLIPBOARD` or `PRIMARY`.
    public var description: String {
        switch self {
        case .clipboard: return "CLIPBOARD"
        case .primary: return "PRIMARY"
        }
    }
}

/// Why reading a selection gave no text.
///
/// Each case carries a message a person can act on.
public enum SelectionReadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing to paste: no owner, no text target offered, or the owner refused.
    case empty(String)
    /// The owner did not deliver the text within the timeout.
    case timedOut(String)
    /// The text is larger than the caller's limit.
    case tooLarge(String)
    /// The X display is gone (or was never reachable).
    case unavailable(String)

    /// The message alone.
    public var message: String {
        switch self {
        case .empty(let message), .timedOut(let message), .tooLarge(let message),
            .unavailable(let message):
            return message
        }
    }

    /// The message alone.
    public var description: String { message }
}

/// Why connecting or taking ownership failed.
///
/// The description says what to do about it.
public enum SelectionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No display name was given and `DISPLAY` is unset or empty.
    case noDisplay
    /// The X server named `display` could not be reached.
    case cannotConnect(display: String)
    /// The connection to the X server was lost; the service cannot be used again.
    case connectionLost(display: String)
    /// The server did not report a timestamp within the bound (it did not answer).
    case noTimestamp(milliseconds: Int)
    /// `XSetSelectionOwner` did not make this client the owner.
    case notOwner(SelectionName)
    /// The text to own is not valid UTF-8.
    case invalidText

    /// A sentence for a person.
    public var description: String {
        switch self {
        case .noDisplay:
            return "no X display: DISPLAY is not set (start from an X session or set DISPLAY)"
        case .cannotConnect(let display):
            return "cannot connect to X display \(display) (is the X server running, and is access allowed?)"
        case .connectionLost(let display):
            return "the connection to X display \(display) was lost; restart to use the new X server"
        case .noTimestamp(let milliseconds):
            return "the X server did not answer within \(milliseconds) ms; the selection was not taken"
        case .notOwner(let selection):
            return "the X server did not make this program the owner of \(selection)"
                + " (another program took it at the same moment); try again"
        case .invalidText:
            return "the text is not valid UTF-8"
        }
    }
}

/// Tunables of a `SelectionService`; the defaults suit a desktop daemon.
public struct SelectionConfiguration: Sendable, Equatable {
    /// How long an incremental (INCR) transfer to a requestor may stall before it is dropped.
    public var incrementalTimeoutMilliseconds: Int
    /// The largest chunk of an INCR transfer, and the size above which INCR is used; capped
    /// by the server's maximum request size.
    public var incrementalChunkBytes: Int
    /// The bound on waiting for the server timestamp when taking ownership.
    public var timestampTimeoutMilliseconds: Int
    /// The most X events one `processEvents(now:)` handles before returning to the loop.
    public var maximumEventsPerCall: Int

    /// Makes a configuration; every value has a default.
    public init(
        incrementalTimeoutMilliseconds: Int = 5000, incrementalChunkBytes: Int = 262_144,
        timestampTimeoutMilliseconds: Int = 1000, maximumEventsPerCall: Int = 256
    ) {
        self.incrementalTimeoutMilliseconds = incrementalTimeoutMilliseconds
        self.incrementalChunkBytes = incrementalChunkBytes
        self.timestampTimeoutMilliseconds = timestampTimeoutMilliseconds
        self.maximumEventsPerCall = maximumEventsPerCall
    }
}
