// SPDX-License-Identifier: MIT

/// How the daemon uses the clipboard, through the X11 or the Wayland backend.
public struct ClipboardSettings: Equatable, Sendable {
    /// Also take PRIMARY (middle-click paste) on copy.
    public var ownPrimary = false
    /// How long a secret copy stays on the clipboard, in milliseconds.
    public var secretClearMilliseconds = 30_000
    /// The longest wait for another program's clipboard text, in milliseconds.
    public var readTimeoutMilliseconds = 2_000
    /// The largest clipboard text a paste accepts, in bytes.
    public var maxReadBytes = 16 << 20
    /// The longest any one request may wait for the X server or the Wayland compositor, in
    /// milliseconds.
    ///
    /// Connecting included. Past it the connection is dropped (clipboard calls answer
    /// `ClipboardUnavailable`, tables are served meanwhile) and retried every
    /// `reconnectMilliseconds`. Not in the configuration file: well above any answer a
    /// working server gives, even a remote one, and short enough for a table call to wait:
    /// under the second that another client's call may wait at most. The wait for the
    /// server's timestamp when taking the clipboard has the same bound.
    public var serverTimeoutMilliseconds = 900
    /// How often an unreachable display is tried again, in milliseconds.
    public var reconnectMilliseconds = 5_000
    /// The longest wait for a clipboard manager to take the text at exit, in milliseconds.
    public var handOverMilliseconds = 2_000
    /// The largest property written in one X11 request; larger texts go by INCR in chunks of
    /// this size.
    ///
    /// Measured with `cliptab-bench clipboard` (10 MiB read by xclip, against an xclip owner):
    /// one 10 MiB property 1.5-1.6x, 256 KiB chunks about 1.08x, 512 KiB about 1.05-1.11x,
    /// 1 MiB 1.15x, 2 MiB 1.27x; with chunks written unchecked, 512 KiB: 0.71-0.84x. INCR lets
    /// the requestor read one chunk while the next is written, so it beats a single huge
    /// property; very small chunks pay a round trip each. Tk 8.6 reads at most 100000 longs
    /// (400000 bytes) of a property and fails a larger one with "selection property too
    /// large" (tkUnixSelect.c, MAX_PROP_WORDS), so no single property may exceed that: 256 KiB.
    public var incrementalChunkBytes = 1 << 18
    /// How long an INCR transfer (X11) or a pipe transfer (Wayland) may wait for its
    /// requestor, in milliseconds.
    public var incrementalTimeoutMilliseconds = 5_000
    /// How `PasteToFocus` pastes.
    public var focusPaste = FocusPasteSettings()
    /// How long a sequence left alone runs before it ends and puts the clipboard back, in
    /// milliseconds (`[sequence] idle_ms`).
    public var sequenceIdleMilliseconds = 120_000

    /// The defaults.
    public init() {}
}
