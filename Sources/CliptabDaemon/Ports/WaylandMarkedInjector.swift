// SPDX-License-Identifier: MIT
import KeyChords

/// A way of typing in a Wayland session other than its virtual keyboard (XTEST, the
/// portal), whose chord is marked on the Wayland connection first.
///
/// The target's reads come through the compositor to the Wayland selection backend either
/// way, so the reads asked for before the compositor handled the mark (clipboard managers,
/// the compositor's own) do not count as the target's. The mark is sent at once and not
/// waited for: the target's read goes from the X server (or the portal) to the compositor,
/// which by then has handled the mark that reached it first. Marked after the keys, the
/// target's read could beat the mark (1 paste in 3 runs of the tests), and it would not
/// count.
public final class WaylandMarkedInjector: KeyInjector {
    private let inner: KeyInjector
    private let wayland: VirtualKeyboardInjector

    /// Marks `inner`'s chords on the connection of `wayland`.
    public init(_ inner: KeyInjector, wayland: VirtualKeyboardInjector) {
        self.inner = inner
        self.wayland = wayland
    }

    /// `inner`'s.
    public var reach: KeyReach { inner.reach }

    /// `inner`'s.
    public var summary: String { inner.summary }

    /// `inner`'s target, named by the compositor where `inner` cannot name it, read by the
    /// next keystroke mark.
    public func focusedTarget() throws -> PasteTarget {
        let service = try wayland.liveService()
        let target = try inner.focusedTarget()
        return PasteTarget(
            names: target.names.isEmpty ? service.activatedAppID.map { [$0] } ?? [] : target.names,
            reader: service.nextKeystrokeMark)
    }

    /// `inner`'s.
    public func prepare(_ ready: @escaping (NoPasteTarget?) -> Void) { inner.prepare(ready) }

    /// Marks the keystroke, then sends `chord` through `inner`.
    public func send(_ chord: KeyChord, repressModifiers: Bool) throws {
        try wayland.markKeystroke(on: try wayland.liveService())
        try inner.send(chord, repressModifiers: repressModifiers)
    }

    /// `inner`'s.
    public func currentFocus() -> UInt64? { inner.currentFocus() }

    /// `inner`'s.
    public func refocus(_ window: UInt64) throws { try inner.refocus(window) }
}
