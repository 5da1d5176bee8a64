// SPDX-License-Identifier: MIT
import CX11
import Glibc

/// The keyboard and focus requests of the paste keystroke: XTEST, XKB state, the keymap,
/// the input focus and the window tree.
extension DisplayConnection {
    /// True when the server has the extension `name` (asked silently: libXtst would print
    /// `extension "XTEST" missing` on stderr when called without it).
    func hasExtension(_ name: String) -> Bool {
        guard !isBroken else { return false }
        var opcode: Int32 = 0
        var event: Int32 = 0
        var error: Int32 = 0
        return withUnsafeHandle { XQueryExtension($0, name, &opcode, &event, &error) } != 0
    }

    /// The window with the input focus: `.none`, `.pointerRoot`, or a window.
    func inputFocus() -> WindowID {
        guard !isBroken else { return .none }
        var focus: UInt = 0
        var revert: Int32 = 0
        _ = withUnsafeHandle { XGetInputFocus($0, &focus, &revert) }
        return WindowID(rawValue: focus)
    }

    /// The default screen's root window.
    var rootWindow: WindowID {
        isBroken ? .none : WindowID(rawValue: withUnsafeHandle { XDefaultRootWindow($0) })
    }

    /// The child of the root window under the pointer (`.none` when over the root itself).
    func topLevelUnderPointer() -> WindowID {
        guard !isBroken else { return .none }
        var root: UInt = 0
        var child: UInt = 0
        var rootX: Int32 = 0
        var rootY: Int32 = 0
        var x: Int32 = 0
        var y: Int32 = 0
        var mask: UInt32 = 0
        _ = withUnsafeHandle {
            XQueryPointer($0, rootWindow.rawValue, &root, &child, &rootX, &rootY, &x, &y, &mask)
        }
        return WindowID(rawValue: child)
    }

    /// The parent and children of `window`, or nil when it does not exist (any more).
    func tree(of window: WindowID) -> (parent: WindowID, children: [WindowID])? {
        guard !isBroken else { return nil }
        var root: UInt = 0
        var parent: UInt = 0
        var children: UnsafeMutablePointer<UInt>?
        var count: UInt32 = 0
        guard withUnsafeHandle({ XQueryTree($0, window.rawValue, &root, &parent, &children, &count) }) != 0
        else { return nil }
        defer { if let children { XFree(children) } }
        let list = children.map { Array(UnsafeBufferPointer(start: $0, count: Int(count))) } ?? []
        return (WindowID(rawValue: parent), list.map(WindowID.init(rawValue:)))
    }

    /// `WM_CLASS` of `window` as (instance name, class name), or nil when it has none.
    func classHint(of window: WindowID) -> (name: String, className: String)? {
        guard !isBroken else { return nil }
        var hint = XClassHint()
        guard withUnsafeHandle({ XGetClassHint($0, window.rawValue, &hint) }) != 0 else { return nil }
        defer {
            if let name = hint.res_name { XFree(name) }
            if let className = hint.res_class { XFree(className) }
        }
        return (
            hint.res_name.map { String(cString: $0) } ?? "", hint.res_class.map { String(cString: $0) } ?? ""
        )
    }

    /// The bits of a resource id that a client chooses; the others name the client.
    var resourceMask: UInt { isBroken ? 0 : withUnsafeHandle { cliptab_resource_mask($0) } }

    /// The keycode that produces `keysym` in some group and level, 0 when none does.
    func keycode(for keysym: UInt) -> UInt8 {
        guard !isBroken else { return 0 }
        return withUnsafeHandle { XKeysymToKeycode($0, keysym) }
    }

    /// The keysym at `keycode` in `group`, level 0.
    func keysym(at keycode: UInt8, group: Int) -> UInt {
        guard !isBroken else { return 0 }
        return withUnsafeHandle { XkbKeycodeToKeysym($0, keycode, Int32(group), 0) }
    }

    /// The core keyboard's locked group and locked modifiers.
    func keyboardLocks() -> (group: Int, lockedModifiers: UInt32) {
        guard !isBroken else { return (0, 0) }
        var state = XkbStateRec()
        _ = withUnsafeHandle { XkbGetState($0, UInt32(XkbUseCoreKbd), &state) }
        return (Int(state.locked_group), UInt32(state.locked_mods))
    }

    /// Locks the core keyboard's group (applied in order with the requests around it).
    func lockGroup(_ group: Int) {
        guard !isBroken else { return }
        _ = withUnsafeHandle { XkbLockGroup($0, UInt32(XkbUseCoreKbd), UInt32(group)) }
    }

    /// Locks (`on`) or unlocks the modifiers in `mask` of the core keyboard.
    func lockModifiers(_ mask: UInt32, on: Bool) {
        guard !isBroken else { return }
        _ = withUnsafeHandle { XkbLockModifiers($0, UInt32(XkbUseCoreKbd), mask, on ? mask : 0) }
    }

    /// The keycodes that are down on the core keyboard now.
    func keysDown() -> [UInt8] {
        guard !isBroken else { return [] }
        var map = [CChar](repeating: 0, count: 32)
        _ = withUnsafeHandle { XQueryKeymap($0, &map) }
        var down: [UInt8] = []
        for (index, byte) in map.enumerated() where byte != 0 {
            for bit in 0..<8 where UInt8(bitPattern: byte) & (1 << bit) != 0 {
                down.append(UInt8(index * 8 + bit))
            }
        }
        return down
    }

    /// The keycodes bound to modifiers (Shift, Lock, Control, Mod1–Mod5).
    func modifierKeycodes() -> Set<UInt8> {
        guard !isBroken, let map = withUnsafeHandle({ XGetModifierMapping($0) }) else { return [] }
        defer { XFreeModifiermap(map) }
        let count = Int(map.pointee.max_keypermod) * 8
        return Set(UnsafeBufferPointer(start: map.pointee.modifiermap, count: count).filter { $0 != 0 })
    }

    /// Queues an XTEST key press or release with no delay (a delay would make the server
    /// put this whole client to sleep, selection answers included).
    func fakeKey(_ keycode: UInt8, press: Bool) {
        guard !isBroken else { return }
        _ = withUnsafeHandle { XTestFakeKeyEvent($0, UInt32(keycode), press ? True : False, 0) }
    }

    /// Waits until the server has processed every request sent so far.
    func sync() {
        guard !isBroken else { return }
        _ = withUnsafeHandle { XSync($0, False) }
    }
}
