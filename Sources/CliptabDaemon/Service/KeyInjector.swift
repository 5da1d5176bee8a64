// SPDX-License-Identifier: MIT
import KeyChords

/// The window a paste chord goes to, as the injector found it.
public struct PasteTarget: Equatable, Sendable {
    /// Names that choose the chord (X11 `WM_CLASS` instance and class; a Wayland app id).
    public var names: [String]
    /// The program that will read the clipboard, in the selection backend's numbering of
    /// readers, when it can tell.
    public var reader: UInt64?

    /// Makes a target.
    public init(names: [String], reader: UInt64?) {
        self.names = names
        self.reader = reader
    }
}

/// Sends a key chord to the focused window, or says why it cannot.
///
/// Each refusal is a `CliptabError` whose message names the reason a person can act on: no
/// window has the input focus, the server lacks the extension, the focused window belongs to
/// Wayland.
public protocol KeyInjector: AnyObject {
    /// Which windows the chord reaches now, for the paste router's choice (`PasteRouter`).
    var reach: KeyReach { get }
    /// The injector in words, for the log.
    var summary: String { get }
    /// The window the next chord would reach, or why there is none.
    func focusedTarget() throws -> PasteTarget
    /// Sends `chord` to the focused window; `repressModifiers` presses the modifiers the
    /// person still holds again after it.
    func send(_ chord: KeyChord, repressModifiers: Bool) throws
    /// The window that has the input focus now, as a number `refocus` takes back; nil when
    /// none has it or the injector cannot name windows.
    func currentFocus() -> UInt64?
    /// Gives the input focus back to `window` (from `currentFocus`); throws `NoPasteTarget`
    /// when it is gone.
    func refocus(_ window: UInt64) throws
    /// Calls `ready` once a chord can be sent to the target `focusedTarget` chose: with nil,
    /// or with why nothing can type.
    ///
    /// Most injectors are ready at once and call it before returning; the RemoteDesktop
    /// portal's first paste waits for the desktop's consent. Called from the loop, and
    /// `ready` runs from it; the policy bounds the wait.
    func prepare(_ ready: @escaping (NoPasteTarget?) -> Void)
    /// Puts the paste settings in force (at start and on each reload), for an injector whose
    /// way of typing depends on them.
    func apply(_ settings: FocusPasteSettings)
}

extension KeyInjector {
    /// The focused window, whatever it is.
    public var reach: KeyReach { .focusedWindow }

    /// Unnamed.
    public var summary: String { "keys to the focused window" }

    /// Ready at once: the keys go straight to the display.
    public func prepare(_ ready: @escaping (NoPasteTarget?) -> Void) { ready(nil) }

    /// Nothing to put in force: the keys go straight to the display.
    public func apply(_ settings: FocusPasteSettings) {}
}

/// Why a chord would reach no window now, though keys can be sent.
///
/// No window has the input focus, or the focused window is one the injector cannot type
/// into. A paste then answers "not delivered" with this reason and leaves the clipboard as
/// it was.
public struct NoPasteTarget: Error, Equatable, Sendable {
    /// The reason, in words a person can act on.
    public let reason: String

    /// Makes a refusal.
    public init(_ reason: String) { self.reason = reason }
}

/// Which windows an injector's chord reaches, as the injector declares it: what the paste
/// router chooses by, so that no choice depends on an error's wording.
public enum KeyReach: Equatable, Sendable {
    /// X11 windows only (XTEST): where none has the focus, the next way is tried.
    case x11Windows
    /// Whatever window has the focus: its refusal is the paste's.
    case focusedWindow
    /// None now, for the reason given (a compositor without a virtual keyboard): the next
    /// way is tried, and the reason is the paste's where none is left.
    case none(NoPasteTarget)
}
