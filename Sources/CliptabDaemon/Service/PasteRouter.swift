// SPDX-License-Identifier: MIT
import KeyChords

/// The paste chord's one router: the first of its ways (XTEST for an X11 window, the
/// virtual keyboard, the RemoteDesktop portal, in the order the session's plan gives) whose
/// declared reach (`KeyInjector.reach`) covers the focused window types it.
///
/// A way that reaches X11 windows only, and finds none focused, gives the turn to the next;
/// so does a way that reaches nothing now. A way that reaches the focused window answers
/// for the paste, refusal included. With no way left, the last refusal is the paste's.
public final class PasteRouter: KeyInjector {
    private let routes: [KeyInjector]
    /// The way the last `focusedTarget` chose.
    private var chosen: KeyInjector?

    /// Makes the router over `routes`, tried in order (at least one).
    public init(routes: [KeyInjector]) {
        precondition(!routes.isEmpty, "a paste router needs a way to type")
        self.routes = routes
    }

    /// Puts `settings` in force in every way.
    public func apply(_ settings: FocusPasteSettings) {
        for route in routes { route.apply(settings) }
    }

    /// The ways in words, in order, for the log.
    public var summary: String { routes.map(\.summary).joined(separator: "; else ") }

    /// The target of the first way that reaches the focused window.
    public func focusedTarget() throws -> PasteTarget {
        chosen = nil
        var refusal: any Error = NoPasteTarget("no window has the input focus, so no keystroke was sent")
        for route in routes {
            switch route.reach {
            case .none(let reason):
                refusal = reason
            case .x11Windows:
                do {
                    let target = try route.focusedTarget()
                    chosen = route
                    return target
                } catch {
                    refusal = error
                }
            case .focusedWindow:
                let target = try route.focusedTarget()
                chosen = route
                return target
            }
        }
        throw refusal
    }

    /// Waits for the way `focusedTarget` chose.
    public func prepare(_ ready: @escaping (NoPasteTarget?) -> Void) {
        guard let chosen else { return ready(nil) }
        chosen.prepare(ready)
    }

    /// Sends `chord` through the way `focusedTarget` chose (the first before any choice).
    public func send(_ chord: KeyChord, repressModifiers: Bool) throws {
        try (chosen ?? routes[0]).send(chord, repressModifiers: repressModifiers)
    }

    /// The focused window as the first way that can name it names it.
    public func currentFocus() -> UInt64? { routes.lazy.compactMap { $0.currentFocus() }.first }

    /// Gives the focus back through the first way that can; else the first way's refusal.
    public func refocus(_ window: UInt64) throws {
        var first: (any Error)?
        for route in routes {
            do {
                return try route.refocus(window)
            } catch {
                first = first ?? error
            }
        }
        if let first { throw first }
    }
}
