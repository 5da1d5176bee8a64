// SPDX-License-Identifier: MIT
import CliptabCore
import Glibc
import KeyChords
import WaylandDesktop

/// The key injector of a Wayland session's own windows: the chord through a
/// `zwp_virtual_keyboard_v1` on the selection backend's connection, with a whole keymap of
/// the person's layout, and the focused window named by its app id where the compositor
/// says it (`zwlr_foreign_toplevel_manager_v1`).
///
/// The keyboard comes from the `VirtualKeyboardSupply` the backend fills on each connection
/// (see there why at once). Where the
/// compositor offers no virtual keyboard (GNOME, KDE, Weston, a sandbox), every paste is
/// refused at once with the reason and what to do, and the policy leaves the text on the
/// clipboard for a paste by hand.
public final class VirtualKeyboardInjector: KeyInjector {
    /// The refusal where the compositor offers no virtual keyboard.
    public static let noKeyboardReason =
        "the Wayland compositor offers no virtual keyboard (zwp_virtual_keyboard_manager_v1; GNOME, KDE and "
        + "Weston have none), so cliptabd cannot type into the focused window: press Ctrl+V (Ctrl+Shift+V "
        + "in a terminal) yourself"

    private let backend: WaylandSelectionBackend
    private let keyboards: VirtualKeyboardSupply

    /// Makes the injector over `backend`'s connection, typing with the keyboard `keyboards`
    /// makes on it (the same supply the backend was made with).
    public init(backend: WaylandSelectionBackend, keyboards: VirtualKeyboardSupply) {
        self.backend = backend
        self.keyboards = keyboards
    }

    /// None where the compositor offers no virtual keyboard (the portal may type then),
    /// else the focused window.
    public var reach: KeyReach {
        guard let service = backend.liveService(), keyboards.keyboard(on: service) == nil,
            keyboards.failure == .noVirtualKeyboard || keyboards.failure == nil
        else { return .focusedWindow }
        return .none(NoPasteTarget(Self.noKeyboardReason))
    }

    /// The keyboard in words, for the log: its keymap, or why there is none.
    public var summary: String {
        if let keyboard = keyboards.current {
            return
                "virtual keyboard with \(keyboards.keymapSummary(environment: Self.environment)) "
                + "(\(keyboard.keymap.keyCount) keys, \(keyboard.keymap.layoutCount) layouts)"
        }
        return "no virtual keyboard: \(keyboards.failure.map { "\($0)" } ?? "not connected")"
    }

    /// The focused window by its app id (or unnamed), and the keystroke mark its reads
    /// will carry.
    public func focusedTarget() throws -> PasteTarget {
        let service = try liveService()
        _ = try liveKeyboard(service)
        let target = PasteTarget(
            names: service.activatedAppID.map { [$0] } ?? [], reader: service.nextKeystrokeMark)
        Log.line("paste chord through the virtual keyboard to the window \(target.names)", level: .debug)
        return target
    }

    /// Types `chord` and marks the keystroke.
    ///
    /// The person's held modifiers are not pressed again: the seat keeps each keyboard's
    /// modifiers apart, so theirs never mixed in.
    public func send(_ chord: KeyChord, repressModifiers: Bool) throws {
        let service = try liveService()
        let keyboard = try liveKeyboard(service)
        do {
            // The keystroke mark goes with the keys.
            try keyboard.type(UInt32(chord.key), modifierKeysyms: chord.modifiers.map { UInt32($0) })
        } catch {
            throw CliptabError(.clipboardUnavailable, "the paste chord \(chord) was not typed: \(error)")
        }
    }

    /// None: a Wayland client cannot name other clients' windows.
    public func currentFocus() -> UInt64? { nil }

    /// Throws: a Wayland client cannot give the focus to another client's window.
    public func refocus(_ window: UInt64) throws {
        throw NoPasteTarget("a Wayland program cannot give the input focus back to another window")
    }

    /// Notes on `service` that a chord was just sent (by this keyboard or by XTEST).
    func markKeystroke(on service: WaylandSelectionService) throws {
        do {
            _ = try service.markKeystroke()
        } catch {
            throw CliptabError(
                .clipboardUnavailable, "the Wayland connection failed after the chord: \(error)")
        }
    }

    /// The backend's live connection, or `ClipboardUnavailable`.
    func liveService() throws -> WaylandSelectionService {
        guard let service = backend.liveService() else {
            throw CliptabError(
                .clipboardUnavailable, "the Wayland display is not reachable, so nothing was typed")
        }
        return service
    }

    private func liveKeyboard(_ service: WaylandSelectionService) throws -> VirtualKeyboard {
        if let keyboard = keyboards.keyboard(on: service) { return keyboard }
        let failure = keyboards.failure
        if failure == .noVirtualKeyboard || failure == nil { throw NoPasteTarget(Self.noKeyboardReason) }
        throw NoPasteTarget("cliptabd has no keyboard to type with: \(failure.map { "\($0)" } ?? "")")
    }

    private static var environment: [String: String] {
        var values: [String: String] = [:]
        for name in [
            "XKB_DEFAULT_RULES", "XKB_DEFAULT_MODEL", "XKB_DEFAULT_LAYOUT", "XKB_DEFAULT_VARIANT",
            "XKB_DEFAULT_OPTIONS",
        ] {
            if let value = getenv(name) { values[name] = String(cString: value) }
        }
        return values
    }
}
