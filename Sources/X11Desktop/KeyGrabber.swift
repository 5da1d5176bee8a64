// SPDX-License-Identifier: MIT
import CX11

/// Keys grabbed on the root window (passive `XGrabKey` grabs) on a connection of its own,
/// and their presses and releases, for a single-threaded program's one `poll()` loop.
///
/// Each key is grabbed once per combination of the lock modifiers (Caps Lock, Num Lock and
/// Scroll Lock, wherever the keymap puts the last two), so that a lock left on does not
/// hide the key. A key another client grabbed already is `BadAccess`: reported, the key
/// left ungrabbed. Autorepeat is made detectable (XKB), so a held key repeats presses
/// without the releases between them.
public final class KeyGrabber {
    /// What became of a grab.
    public enum Outcome: Equatable, Sendable {
        /// The key is grabbed with every combination of the locks.
        case grabbed
        /// No key of the keyboard makes the keysym.
        case unmapped
        /// Another client holds the key with these modifiers (`BadAccess`).
        case heldByAnotherClient
    }

    /// The modifiers of a grab, by the keys that make them.
    public enum Modifier: Sendable {
        /// Shift.
        case shift
        /// Control.
        case control
        /// The modifier Alt_L is mapped to (Mod1 in the usual keymaps).
        case alt
        /// The modifier Super_L is mapped to (Mod4 in the usual keymaps).
        case superKey
    }

    /// A press or release of a grabbed key, by the tag it was grabbed with.
    public struct Event: Equatable, Sendable {
        /// The grab's tag.
        public let tag: String
        /// True for the press, false for the release.
        public let isPress: Bool
    }

    private struct Grab {
        let tag: String
        let keycode: UInt8
        let modifiers: UInt32
    }

    private let connection: DisplayConnection
    private var grabs: [Grab] = []
    /// The grab each keycode down now was pressed for: its release belongs to it, whatever
    /// modifiers were let go first.
    private var down: [UInt8: String] = [:]

    private init(connection: DisplayConnection) {
        self.connection = connection
        var supported: Int32 = 0
        _ = connection.withUnsafeHandle { XkbSetDetectableAutoRepeat($0, True, &supported) }
    }

    /// Connects to `display` (nil: `$DISPLAY`), waiting at most `timeoutMilliseconds`.
    public static func connect(display: String?, timeoutMilliseconds: Int = 5000) throws(SelectionError)
        -> KeyGrabber
    {
        let connection = try DisplayConnection.open(display, timeoutMilliseconds: timeoutMilliseconds)
        return KeyGrabber(connection: connection)
    }

    deinit { ungrabAll() }

    /// The connection's socket, for `poll()` with `POLLIN`.
    public var fileDescriptor: Int32 { connection.fileDescriptor }

    /// True once the X server connection was lost.
    public var isBroken: Bool { connection.isBroken }

    /// The display's name, for messages.
    public var displayName: String { connection.name }

    /// Grabs `keysym` with `modifiers` on the root window, reported as `tag`.
    public func grab(_ tag: String, keysym: UInt, modifiers: [Modifier]) -> Outcome {
        guard !connection.isBroken else { return .unmapped }
        let keycode = connection.keycode(for: keysym)
        guard keycode != 0 else { return .unmapped }
        let map = ModifierMap(connection)
        let mask = modifiers.reduce(UInt32(0)) { $0 | map.mask(of: $1) }
        let root = connection.rootWindow.rawValue
        let combinations = map.lockCombinations
        do {
            try connection.checked {
                for locks in combinations {
                    _ = connection.withUnsafeHandle {
                        XGrabKey($0, Int32(keycode), mask | locks, root, False, GrabModeAsync, GrabModeAsync)
                    }
                }
            }
        } catch {
            // Some combinations may have been granted: give them back, the key is not ours.
            for locks in combinations {
                _ = connection.withUnsafeHandle { XUngrabKey($0, Int32(keycode), mask | locks, root) }
            }
            connection.flush()
            return .heldByAnotherClient
        }
        grabs.append(Grab(tag: tag, keycode: keycode, modifiers: mask))
        return .grabbed
    }

    /// Gives back every grab.
    public func ungrabAll() {
        guard !connection.isBroken, !grabs.isEmpty else {
            grabs = []
            return
        }
        let root = connection.rootWindow.rawValue
        let combinations = ModifierMap(connection).lockCombinations
        for grab in grabs {
            for locks in combinations {
                _ = connection.withUnsafeHandle {
                    XUngrabKey($0, Int32(grab.keycode), grab.modifiers | locks, root)
                }
            }
        }
        grabs = []
        down = [:]
        connection.sync()
        connection.discardUncheckedErrors()
    }

    /// The presses and releases of grabbed keys queued since the last call.
    ///
    /// Reads what the socket holds; other events are dropped; at most 256 per call.
    public func takeEvents() -> [Event] {
        var events: [Event] = []
        var budget = 256
        let map = grabs.isEmpty ? nil : ModifierMap(connection)
        while budget > 0, !connection.isBroken, connection.pendingEventCount() > 0 {
            budget -= 1
            guard case .key(let keycode, let state, let isPress) = connection.nextEvent(), let map else {
                continue
            }
            if isPress {
                let modifiers = state & map.significant
                guard let grab = grabs.first(where: { $0.keycode == keycode && $0.modifiers == modifiers })
                else {
                    continue
                }
                // A detectable repeat: a press of a key already down.
                if down[keycode] != nil { continue }
                down[keycode] = grab.tag
                events.append(Event(tag: grab.tag, isPress: true))
            } else if let tag = down.removeValue(forKey: keycode) {
                events.append(Event(tag: tag, isPress: false))
            }
        }
        connection.discardUncheckedErrors()
        return events
    }

    /// True when events wait in Xlib's queue, where `poll` cannot see them.
    public var hasQueuedEvents: Bool { connection.queuedEventCount() > 0 }
}

/// Which modifier bits the keymap gives Alt, Super and the locks.
private struct ModifierMap {
    /// The bit of each modifier key's keysym.
    private var bits: [UInt: UInt32] = [:]

    init(_ connection: DisplayConnection) {
        guard !connection.isBroken, let map = connection.withUnsafeHandle({ XGetModifierMapping($0) }) else {
            return
        }
        defer { XFreeModifiermap(map) }
        let perModifier = Int(map.pointee.max_keypermod)
        let codes = UnsafeBufferPointer(start: map.pointee.modifiermap, count: perModifier * 8)
        for index in 0..<8 {
            for keycode in codes[(index * perModifier)..<((index + 1) * perModifier)] where keycode != 0 {
                let keysym = connection.keysym(at: keycode, group: 0)
                if bits[keysym] == nil { bits[keysym] = UInt32(1) << UInt32(index) }
            }
        }
    }

    func mask(of modifier: KeyGrabber.Modifier) -> UInt32 {
        switch modifier {
        case .shift: UInt32(ShiftMask)
        case .control: UInt32(ControlMask)
        case .alt: bits[UInt(XK_Alt_L)] ?? UInt32(Mod1Mask)
        case .superKey: bits[UInt(XK_Super_L)] ?? UInt32(Mod4Mask)
        }
    }

    /// The lock bits: Caps Lock's, and Num Lock's and Scroll Lock's where mapped.
    var locks: [UInt32] {
        var locks = [UInt32(LockMask)]
        for keysym in [XK_Num_Lock, XK_Scroll_Lock] {
            if let bit = bits[UInt(keysym)], !locks.contains(bit) { locks.append(bit) }
        }
        return locks
    }

    /// Every combination of the lock bits, none included.
    var lockCombinations: [UInt32] {
        locks.reduce([UInt32(0)]) { combinations, lock in combinations + combinations.map { $0 | lock } }
    }

    /// The modifier bits that tell bindings apart: all but the locks.
    var significant: UInt32 {
        let all = UInt32(ShiftMask | ControlMask | Mod1Mask | Mod2Mask | Mod3Mask | Mod4Mask | Mod5Mask)
        return locks.reduce(all) { $0 & ~$1 }
    }
}
