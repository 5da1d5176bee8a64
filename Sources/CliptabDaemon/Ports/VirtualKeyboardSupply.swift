// SPDX-License-Identifier: MIT
import WaylandSelection

/// The virtual keyboard of the Wayland connection: made by the selection backend with each
/// connection (the first one too), used by the key injector to type.
///
/// Made as soon as the backend connects, so that windows have bound the seat's keyboard
/// before the first chord (GTK ignores a Ctrl+V that is a new keyboard's first key). Given to
/// both at their `init`.
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

    /// The names of the keymap in words, for the log.
    func keymapSummary(environment: [String: String]) -> String {
        keymapNames.summary(environment: environment)
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
            if let compiled = self.keymap {
                keymap = compiled
            } else {
                keymap = try WaylandKeymap(keymapNames)
            }
            self.keymap = keymap
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
