// SPDX-License-Identifier: MIT
import KeyChords

/// XTEST into X11 windows under XWayland, for a session whose clipboard is Wayland's: its
/// X11 connection is made at the first paste (connecting starts XWayland where the
/// compositor starts it on demand).
///
/// That connection is a source of the daemon's loop: its events (a server gone, for one) are
/// handled as they come, not on the next paste.
public final class XWaylandKeyInjector: KeyInjector, PollSource {
    private let display: String
    private let settings: ClipboardSettings
    private let clock: () -> UInt64
    private var x11: (backend: X11SelectionBackend, injector: X11KeyInjector)?

    /// Makes the injector for XWayland's `display`, retrying a lost server on `clock`
    /// (monotonic milliseconds).
    public init(display: String, settings: ClipboardSettings, clock: @escaping () -> UInt64) {
        self.display = display
        self.settings = settings
        self.clock = clock
    }

    /// X11 windows only.
    public var reach: KeyReach { .x11Windows }

    /// The display in words, for the log.
    public var summary: String { "XTEST for X11 windows on \(display)" }

    /// The focused X11 window, or why there is none.
    public func focusedTarget() throws -> PasteTarget {
        let target = try connection().injector.focusedTarget()
        Log.line("paste chord through XTEST to the X11 window \(target.names)", level: .debug)
        return target
    }

    /// Sends `chord` through XTEST.
    public func send(_ chord: KeyChord, repressModifiers: Bool) throws {
        try connection().injector.send(chord, repressModifiers: repressModifiers)
    }

    /// None, as the Wayland backend has always answered (`GetFocusedWindow` 0): on a
    /// Wayland session the compositor gives the focus back to the window a launcher
    /// covered, and asking XWayland would start it where the compositor starts it on
    /// demand.
    public func currentFocus() -> UInt64? { nil }

    /// Throws: no window was named (`currentFocus` is nil).
    public func refocus(_ window: UInt64) throws {
        throw NoPasteTarget("a Wayland program cannot give the input focus back to another window")
    }

    private func connection() -> (backend: X11SelectionBackend, injector: X11KeyInjector) {
        if let x11 { return x11 }
        let backend = X11SelectionBackend(
            display: display, settings: settings, waylandNote: "for XTEST into X11 windows only", clock: clock
        )
        let made = (backend, X11KeyInjector(backend: backend, waylandDisplay: nil))
        x11 = made
        return made
    }

    // MARK: - PollSource

    /// The X connection's descriptor, once the first paste made it.
    public var pollDescriptor: Int32? { x11?.backend.pollDescriptor }

    /// Handles the X events (it owns no selection: nothing to report) and retries a lost server.
    public func process(now: UInt64) { _ = x11?.backend.process(now: now) }

    /// The X connection's next deadline or retry.
    public func nextDeadline() -> UInt64? { x11?.backend.nextDeadline() }
}
