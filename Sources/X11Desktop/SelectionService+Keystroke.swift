// SPDX-License-Identifier: MIT
import CX11
import KeyChords

/// The paste keystroke: real key events (XTEST) to the focused window, sent on the same
/// connection that owns the selection, so the owner sees the target's request that follows.
extension SelectionService {
    /// True when the X server has XTEST.
    public var canSendKeystrokes: Bool { connection.hasExtension("XTEST") }

    /// Throws when no keystroke can be sent: the server lacks XTEST, or is gone.
    public func checkKeystrokes() throws(KeystrokeError) {
        guard !connection.isBroken else { throw .connectionLost(display: connection.name) }
        guard canSendKeystrokes else { throw .noExtension(display: connection.name) }
    }

    /// The window that has the input focus now and its client window, or nil when the
    /// focus is None (keys would be discarded).
    ///
    /// Where a window manager sets `_NET_ACTIVE_WINDOW` and the focus belongs to the same X
    /// client, that window is the client. Otherwise the client window is the nearest
    /// ancestor with `WM_CLASS`, else the first descendant that has one (a window manager's
    /// frame holds the client inside). With the focus following the pointer (PointerRoot,
    /// as a bare X server starts) the top-level window under the pointer stands for it,
    /// never the active window alone: any client may set that property. The search is bounded (`FocusSearch`): a few levels each way
    /// and at most 48 round trips in all, however deep a client nests its windows.
    public func focusedWindow() -> FocusedWindow? {
        var search = FocusSearch(connection: connection, atoms: atoms)
        return search.run()
    }

    /// True when windows `first` and `second` were made by the same X client (the ids share
    /// the client's base; a client's hidden selection window pairs with its focus window).
    public func sameClient(_ first: WindowID, _ second: WindowID) -> Bool {
        let mask = connection.resourceMask
        return first.rawValue & ~mask == second.rawValue & ~mask
    }

    /// Sends `chord` as real key events to wherever the keyboard input goes now.
    ///
    /// Keys still held (the Super and V of a Super+V shortcut) are released first through
    /// XTEST, so the target sees exactly the chord: a held modifier would change it, and a
    /// held V would make the server drop the injected press. With `repressModifiers`, the
    /// held modifiers are pressed again afterwards; that press stays on the XTEST device
    /// after the person lets go of the real key, so it is off by default in cliptabd.
    /// A locked CapsLock is unlocked around the chord (st sees `v`, not `V`, under it),
    /// and when the active group has no key for the chord's key at level 0, the group that
    /// has it is locked around the chord. Everything goes out in one batch, flushed.
    public func sendKeystroke(_ chord: KeyChord, repressModifiers: Bool) throws(KeystrokeError) {
        try checkKeystrokes()
        func code(_ keysym: UInt) throws(KeystrokeError) -> UInt8 {
            let keycode = connection.keycode(for: keysym)
            guard keycode != 0 else {
                let name =
                    XKeysymToString(keysym).map { String(cString: $0) }
                    ?? "keysym 0x\(String(keysym, radix: 16))"
                throw .unmappedKey(name)
            }
            return keycode
        }
        let key = try code(chord.key)
        var modifiers: [UInt8] = []
        for keysym in chord.modifiers { modifiers.append(try code(keysym)) }

        let locks = connection.keyboardLocks()
        var group: Int?
        if connection.keysym(at: key, group: locks.group) != chord.key {
            group = (0..<4).first { connection.keysym(at: key, group: $0) == chord.key }
        }
        let capsLocked = locks.lockedModifiers & UInt32(LockMask) != 0
        if let group { connection.lockGroup(group) }
        if capsLocked { connection.lockModifiers(UInt32(LockMask), on: false) }

        let held = connection.keysDown()
        let modifierCodes = connection.modifierKeycodes()
        for keycode in held { connection.fakeKey(keycode, press: false) }
        for keycode in modifiers { connection.fakeKey(keycode, press: true) }
        connection.fakeKey(key, press: true)
        connection.fakeKey(key, press: false)
        for keycode in modifiers.reversed() { connection.fakeKey(keycode, press: false) }
        if repressModifiers {
            for keycode in held where modifierCodes.contains(keycode) {
                connection.fakeKey(keycode, press: true)
            }
        }

        if capsLocked { connection.lockModifiers(UInt32(LockMask), on: true) }
        if group != nil { connection.lockGroup(locks.group) }
        connection.flush()
        if connection.isBroken { throw .connectionLost(display: connection.name) }
    }
}
