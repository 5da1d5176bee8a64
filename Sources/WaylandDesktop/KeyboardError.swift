// SPDX-License-Identifier: MIT

/// Why the paste keyboard could not be made or could not type a chord.
///
/// The failures of libxkbcommon and of the virtual-keyboard requests become these in
/// `WaylandKeymap` and `VirtualKeyboard`, and nowhere else.
public enum KeyboardError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The compositor offers no `zwp_virtual_keyboard_manager_v1` (GNOME, KDE, Weston, a
    /// sandbox that filters it): nothing can type through Wayland.
    case noVirtualKeyboard
    /// libxkbcommon could not make the keymap of these names, failing at this step
    /// (`size`, `map`, `format`, `context`, `compile`, `text`, `memfd`), with `errno` where it
    /// tells more (`size`, `map`, `memfd`).
    case keymapFailed(names: String, stage: String, code: Int32)
    /// No key of the keymap gives this keysym (by its name or number).
    case keyNotInKeymap(String)
    /// The chord names a modifier keysym the keymap has no modifier for.
    case unknownModifier(String)
    /// The connection to the compositor failed.
    case connection(WaylandError)

    /// A sentence for logs and D-Bus error messages.
    public var description: String {
        switch self {
        case .noVirtualKeyboard:
            return "the Wayland compositor offers no virtual keyboard (zwp_virtual_keyboard_manager_v1)"
        case .keymapFailed(let names, let stage, let code):
            let detail = ["memfd", "map", "size"].contains(stage) ? ": \(errorText(code))" : ""
            return "libxkbcommon could not make the keymap \(names) (at \(stage)\(detail))"
        case .keyNotInKeymap(let key):
            return "no key of the paste keyboard's keymap types \(key)"
        case .unknownModifier(let key):
            return "the paste keyboard's keymap has no modifier for \(key)"
        case .connection(let error):
            return error.description
        }
    }
}
