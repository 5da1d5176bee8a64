// SPDX-License-Identifier: MIT
import CWayland
import Glibc
import Posix

/// A `zwp_virtual_keyboard_v1` on a selection service's connection: types a chord into
/// whichever window has the keyboard focus.
///
/// It carries a whole keymap of the person's layout (`WaylandKeymap`), uploaded once when
/// it is made: the seat gives it to every client once this keyboard types. Made early (when
/// the daemon connects), so that windows have bound the seat's keyboard before the first
/// chord; the first key of a keyboard made at that moment is lost on some clients.
///
/// Sharing the selection service's connection is what lets the service tell the reads a
/// chord caused from those before it (`WaylandSelectionService.markKeystroke()`).
public final class VirtualKeyboard {
    /// The keymap it carries.
    public let keymap: WaylandKeymap
    private let manager: ProtocolObject
    private let keyboard: ProtocolObject
    private let display: DisplayConnection
    private unowned let service: WaylandSelectionService

    init(
        manager: ProtocolObject, keyboard: ProtocolObject, keymap: WaylandKeymap, display: DisplayConnection,
        service: WaylandSelectionService
    ) {
        self.service = service
        self.manager = manager
        self.keyboard = keyboard
        self.keymap = keymap
        self.display = display
        CWayland_virtual_keyboard_keymap(keyboard.handle, keymap.fileDescriptor, UInt32(keymap.byteCount))
    }

    /// Presses and releases `keysym` with the modifiers `modifierKeysyms` held (Control_L,
    /// Shift_L, Alt_L, Super_L), and the layout and Shift its key needs, then lets the
    /// modifiers go; returns the keystroke mark that the reads it causes will carry.
    ///
    /// The keys and the mark (`WaylandSelectionService.markKeystroke()`) leave in one write,
    /// so the compositor handles them in one go: had the keys gone first, the target could
    /// answer them (its read reaching the compositor) before the mark was handled, and its
    /// read would be taken for an earlier one. The modifiers go as this keyboard's modifier
    /// state, not as key presses: the seat keeps each keyboard's state apart, so a modifier
    /// the person holds on theirs does not mix in, and none is left pressed if the daemon
    /// stops mid-chord.
    @discardableResult
    public func type(_ keysym: UInt32, modifierKeysyms: [UInt32]) throws(KeyboardError) -> UInt64 {
        if let failure = display.failure { throw .connection(failure) }
        let place = try keymap.place(of: keysym)
        var mask: UInt32 = place.shifted ? keymap.shiftMask : 0
        for modifier in modifierKeysyms { mask |= try keymap.modifierMask(of: modifier) }
        let time = UInt32(truncatingIfNeeded: MonotonicClock.milliseconds())
        CWayland_virtual_keyboard_modifiers(keyboard.handle, mask, 0, 0, place.layout)
        CWayland_virtual_keyboard_key(keyboard.handle, time, place.code, 1)
        CWayland_virtual_keyboard_key(keyboard.handle, time, place.code, 0)
        CWayland_virtual_keyboard_modifiers(keyboard.handle, 0, 0, 0, 0)
        do throws(WaylandError) {
            return try service.markKeystroke()
        } catch {
            throw .connection(error)
        }
    }
}
