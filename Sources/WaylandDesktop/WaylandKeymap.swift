// SPDX-License-Identifier: MIT
import CWayland
import Glibc

/// A whole XKB keymap compiled by libxkbcommon, in a sealed memfd, as a virtual keyboard
/// uploads it; and where its keys are.
///
/// Whole, never a few keys: the seat hands a virtual keyboard's keymap to every client,
/// XWayland too, once that keyboard types, so a keymap of only the chord's keys would take
/// every other key from the person's X11 programs.
public final class WaylandKeymap {
    let handle: OpaquePointer
    /// The names it was made from; nil for the seat's keymap.
    public let names: KeymapNames?

    /// Compiles the keymap of `names`.
    public init(_ names: KeymapNames = KeymapNames()) throws(KeyboardError) {
        var stage: UnsafePointer<CChar>?
        let made = CWayland_keymap_new(
            names.rules, names.model, names.layout, names.variant, names.options, &stage)
        guard let made else {
            let code = errno
            throw .keymapFailed(
                names: names.summary(), stage: stage.map { String(cString: $0) } ?? "compile", code: code)
        }
        handle = made
        self.names = names
    }

    /// Compiles the keymap a compositor sent (wl_keyboard.keymap): `size` bytes of XKB text
    /// in `fileDescriptor`, which stays open.
    public init(compositorKeymap fileDescriptor: Int32, size: UInt32) throws(KeyboardError) {
        var stage: UnsafePointer<CChar>?
        guard let made = CWayland_keymap_new_from_fd(fileDescriptor, size, &stage) else {
            let code = errno
            throw .keymapFailed(
                names: "the seat's keymap (\(size) bytes)",
                stage: stage.map { String(cString: $0) } ?? "compile",
                code: code)
        }
        handle = made
        names = nil
    }

    deinit { CWayland_keymap_free(handle) }

    /// Which keymap this is, for the log: `the seat's keymap`, or `the keymap layout=de`.
    public func origin(environment: [String: String]) -> String {
        names.map { "the keymap \($0.summary(environment: environment))" } ?? "the seat's keymap"
    }

    /// The memfd with the keymap's text (its NUL included); owned by the keymap.
    var fileDescriptor: Int32 { CWayland_keymap_fd(handle) }
    /// The bytes of the keymap's text with its NUL.
    public var byteCount: Int { Int(CWayland_keymap_size(handle)) }
    /// How many keys give a keysym: about a hundred for a full layout.
    public var keyCount: Int { Int(CWayland_keymap_key_count(handle)) }
    /// How many layouts (groups) the keymap has.
    public var layoutCount: Int { Int(CWayland_keymap_layout_count(handle)) }

    /// Where a keysym is: the evdev key code, whether Shift is needed (level 2), the layout.
    public struct KeyPlace: Equatable, Sendable {
        /// The evdev code (the XKB keycode minus 8).
        public let code: UInt32
        /// True when the keysym is on level 2 (Shift).
        public let shifted: Bool
        /// The layout (XKB group) that has it.
        public let layout: UInt32

        /// Makes a place.
        public init(code: UInt32, shifted: Bool, layout: UInt32) {
            self.code = code
            self.shifted = shifted
            self.layout = layout
        }
    }

    /// The key that types `keysym` (level 1 before level 2, the first layout first).
    public func place(of keysym: UInt32) throws(KeyboardError) -> KeyPlace {
        var level: Int32 = 0
        var layout: UInt32 = 0
        let code = CWayland_keymap_key_for(handle, keysym, &level, &layout)
        guard code >= 0 else { throw .keyNotInKeymap(Self.name(keysym)) }
        return KeyPlace(code: UInt32(code), shifted: level == 1, layout: layout)
    }

    /// The modifier mask of a modifier keysym (Control, Shift, Alt/Meta as Mod1, Super as
    /// Mod4, left or right).
    public func modifierMask(of keysym: UInt32) throws(KeyboardError) -> UInt32 {
        let name: String
        switch keysym {
        case 0xffe3, 0xffe4: name = "Control"
        case 0xffe1, 0xffe2: name = "Shift"
        case 0xffe9, 0xffea, 0xffe7, 0xffe8: name = "Mod1"
        case 0xffeb, 0xffec: name = "Mod4"
        default: throw .unknownModifier(Self.name(keysym))
        }
        let mask = CWayland_keymap_mod_mask(handle, name)
        guard mask != 0 else { throw .unknownModifier(Self.name(keysym)) }
        return mask
    }

    /// The mask of Shift.
    var shiftMask: UInt32 { CWayland_keymap_mod_mask(handle, "Shift") }

    private static func name(_ keysym: UInt32) -> String { "keysym 0x\(String(keysym, radix: 16))" }
}
