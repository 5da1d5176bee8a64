// SPDX-License-Identifier: MIT

/// Which reads of a sequence's row are pastes by a window, and which are a clipboard
/// manager saving the new owner: a pure rule over the reads a backend reports, driven by
/// the time those reads began, so a test plays any order of reads on a virtual clock.
///
/// Only complete reads of the text reach it (TARGETS and other metadata never do). A read
/// is no paste when:
/// - it comes from the program that owns `CLIPBOARD_MANAGER` (X11 names it);
/// - it began within `offerGraceMilliseconds` of the row's offer: managers (a Tk manager,
///   `xclip -o` in a watch loop, `wl-paste --watch`, cliphist) read every new owner at once,
///   while a person's next Ctrl+V comes later. The price: a paste less than that after the
///   offer pastes the same row again;
/// - the same named reader (X11: one client) pasted less than `samePasteMilliseconds` before
///   it: programs that read twice make one paste. Wayland's readers are anonymous, so there
///   a window's second read is kept within the row by the settle time and the grace instead.
public struct SequencePasteRule: Equatable, Sendable {
    /// How long after a row is offered reads do not count, in milliseconds.
    public static let offerGraceMilliseconds: UInt64 = 100
    /// How long after a named reader's paste its further reads are the same paste, in
    /// milliseconds.
    public static let samePasteMilliseconds: UInt64 = 300

    /// One complete read of the text, as the backend reported it.
    public struct Read: Equatable, Sendable {
        /// The reading program, where the backend names it (X11: the requestor's client);
        /// nil where readers are anonymous (Wayland).
        public var reader: UInt64?
        /// True when the reader owns `CLIPBOARD_MANAGER`.
        public var isClipboardManager: Bool
        /// When the read began (monotonic milliseconds).
        public var startedAt: UInt64

        /// Makes a read.
        public init(reader: UInt64?, isClipboardManager: Bool = false, startedAt: UInt64) {
            self.reader = reader
            self.isClipboardManager = isClipboardManager
            self.startedAt = startedAt
        }
    }

    /// When the row now on the clipboard was offered.
    public private(set) var offeredAt: UInt64
    /// The last paste of a named reader, and when it began.
    private var lastPaste: (reader: UInt64, at: UInt64)?

    /// A rule for a row offered at `offeredAt`.
    public init(offeredAt: UInt64) { self.offeredAt = offeredAt }

    /// The next row was offered at `time`.
    public mutating func offered(at time: UInt64) { offeredAt = time }

    /// True when `read` is a paste by a window; remembers it so that the same reader's
    /// next reads within `samePasteMilliseconds` are not another.
    public mutating func isPaste(_ read: Read) -> Bool {
        guard !read.isClipboardManager, read.startedAt >= offeredAt + Self.offerGraceMilliseconds else {
            return false
        }
        if let last = lastPaste, read.reader == last.reader,
            read.startedAt < last.at + Self.samePasteMilliseconds
        {
            return false
        }
        if let reader = read.reader { lastPaste = (reader, read.startedAt) }
        return true
    }

    /// Equal when they would judge every read alike.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.offeredAt == rhs.offeredAt && lhs.lastPaste?.reader == rhs.lastPaste?.reader
            && lhs.lastPaste?.at == rhs.lastPaste?.at
    }
}
