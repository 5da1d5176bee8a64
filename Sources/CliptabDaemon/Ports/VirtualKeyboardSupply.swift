// SPDX-License-Identifier: MIT
import WaylandDesktop

/// The virtual keyboard of the Wayland connection: made by the selection backend with each
/// connection (the first one too), used by the key injector to type.
///
/// Made as soon as the backend connects, so that windows have bound the seat's keyboard
/// before the first chord (GTK ignores a Ctrl+V that is a new keyboard's first key). Given to
/// both at their `init`.
///
/// Its keymap is the seat's own where the seat has a keyboard that can type the chords: the
/// seat hands the keymap of the keyboard that typed last to every program, XWayland too, so
/// a keyboard of another layout would change the person's keys until they type again.
/// Elsewhere (no keyboard yet, or a layout without Latin letters) it is the keymap of the
/// names given, `XKB_DEFAULT_*` or libxkbcommon's default.
public final class VirtualKeyboardSupply {
    private let keymapNames: KeymapNames
    private var keymap: WaylandKeymap?
    private var keyboard: VirtualKeyboard?
    /// The connection the keyboard belongs to.
    private weak var keyboardService: WaylandSelectionService?
    /// Why no keyboard could be made.
    private(set) var failure: KeyboardError?

    /// Makes a supply that compiles the keymap of `keymapNames` (nil names: `XKB_DEFAULT_*`,
    /// then libxkbcommon's defaults) once, for every connection.
    public init(keymapNames: KeymapNames = KeymapNames()) {
        self.keymapNames = keymapNames
    }

    /// Which keymap the current keyboard carries (`the seat's keymap`, `the keymap layout=de`),
    /// for the log.
    func keymapSummary(environment: [String: String]) -> String {
        keyboard?.keymap.origin(environment: environment)
            ?? "the keymap \(keymapNames.summary(environment: environment))"
    }

    /// True when `keymap` has the keys of every paste chord: the letters of Ctrl+V and
    /// Shift+Insert, Control and Shift.
    private static func typesChords(_ keymap: WaylandKeymap) -> Bool {
        // v, Insert, Control_L, Shift_L.
        (try? keymap.place(of: 0x76)) != nil && (try? keymap.place(of: 0xff63)) != nil
            && (try? keymap.modifierMask(of: 0xffe3)) != nil && (try? keymap.modifierMask(of: 0xffe1)) != nil
    }

    /// Makes the keyboard on a new connection (the backend calls this on each connect).
    func connected(_ service: WaylandSelectionService) {
        keyboard = nil
        keyboardService = service
        guard service.offersVirtualKeyboard else {
            failure = .noVirtualKeyboard
            return
        }
        do throws(KeyboardError) {
            let keymap: WaylandKeymap
            if case .success(let seats)? = service.seatKeymap, Self.typesChords(seats) {
                keymap = seats
            } else if let compiled = self.keymap {
                keymap = compiled
            } else {
                keymap = try WaylandKeymap(keymapNames)
                self.keymap = keymap
            }
            keyboard = try service.makeVirtualKeyboard(keymap: keymap)
            failure = nil
        } catch {
            failure = error
        }
    }

    /// The keyboard of `service`, made now if that connection has none yet; nil with
    /// `failure` saying why.
    func keyboard(on service: WaylandSelectionService) -> VirtualKeyboard? {
        if keyboardService !== service || keyboard == nil { connected(service) }
        return keyboard
    }

    /// The keyboard made last, if any.
    var current: VirtualKeyboard? { keyboard }
}
