// SPDX-License-Identifier: MIT
import X11Selection

/// The key injector of a session where cliptabd cannot type: every paste is told why, and
/// the policy leaves the text on the clipboard for a paste by hand.
public final class UnavailableInjector: KeyInjector {
    private let reason: String

    /// Makes an injector that refuses with `reason`.
    public init(reason: String) { self.reason = reason }

    /// Throws `NoPasteTarget` with the reason.
    public func focusedTarget() throws -> PasteTarget { throw NoPasteTarget(reason) }

    /// None: no window can be named.
    public func currentFocus() -> UInt64? { nil }

    /// Throws `NoPasteTarget` with the reason.
    public func refocus(_ window: UInt64) throws { throw NoPasteTarget(reason) }

    /// Throws `NoPasteTarget` with the reason.
    public func send(_ chord: KeyChord, repressModifiers: Bool) throws { throw NoPasteTarget(reason) }
}
