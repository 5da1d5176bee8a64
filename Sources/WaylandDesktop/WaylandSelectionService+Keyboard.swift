// SPDX-License-Identifier: MIT
import CWayland
import Glibc

/// The paste keyboard, the keystroke marks that tell a chord's reads from earlier ones, and
/// the activated window's app id.
extension WaylandSelectionService {
    /// True when the compositor offers virtual keyboards (`zwp_virtual_keyboard_manager_v1`).
    public var offersVirtualKeyboard: Bool { globals[Self.virtualKeyboardManagerName] != nil }

    /// `zwp_virtual_keyboard_manager_v1`, as the glue spells it.
    static var virtualKeyboardManagerName: String {
        String(cString: CWayland_virtual_keyboard_manager_interface()!.pointee.name)
    }

    /// Makes a virtual keyboard on this connection with `keymap`, and waits for the
    /// compositor to take it (a round trip).
    ///
    /// Throws `.noVirtualKeyboard` where the compositor has none.
    public func makeVirtualKeyboard(keymap: WaylandKeymap) throws(KeyboardError) -> VirtualKeyboard {
        let interface = CWayland_virtual_keyboard_manager_interface()
        guard let global = globals[Self.virtualKeyboardManagerName] else { throw .noVirtualKeyboard }
        guard let registry, let seat else { throw .connection(display.failure ?? .missingGlobal("wl_seat")) }
        do throws(WaylandError) {
            let manager = try ProtocolObject.take(
                CWayland_registry_bind(registry.handle, global.name, interface, 1), of: display,
                making: "binding zwp_virtual_keyboard_manager_v1", destructor: { wl_proxy_destroy($0) })
            let keyboard = try ProtocolObject.take(
                CWayland_virtual_keyboard_create(manager.handle, seat.handle), of: display,
                making: "create_virtual_keyboard", destructor: { CWayland_virtual_keyboard_destroy($0) })
            let made = VirtualKeyboard(
                manager: manager, keyboard: keyboard, keymap: keymap, display: display, service: self)
            try roundTrip("making the virtual keyboard")
            return made
        } catch {
            throw .connection(error)
        }
    }

    /// The keymap of the seat's keyboard as the compositor last sent it: the person's layout.
    ///
    /// A virtual keyboard that uploads it changes no key of theirs when it types. nil while
    /// the seat has no keyboard (or sent no keymap); a failure says why the keymap sent could
    /// not be read. Compiled at each call: only the compositor's descriptor is kept, so that
    /// an idle connection holds no compiled keymap it does not use.
    public var seatKeymap: Result<WaylandKeymap, KeyboardError>? {
        switch seatKeymapSource {
        case nil: return nil
        case .unusable(let error): return .failure(error)
        case .file(let file):
            do throws(KeyboardError) {
                return .success(try WaylandKeymap(compositorKeymap: file.fileDescriptor, size: file.size))
            } catch {
                return .failure(error)
            }
        }
    }

    /// The seat's capabilities: once it has a keyboard, that keyboard is got for its keymap.
    func seatCapabilities(_ capabilities: UInt32) {
        guard CWayland_seat_has_keyboard(capabilities) != 0, seatKeyboard == nil, let seat else { return }
        // Inside a dispatch: a failure breaks the connection, which the caller sees next.
        guard
            let keyboard = try? ProtocolObject.take(
                CWayland_seat_get_keyboard(seat.handle), of: display, making: "wl_seat.get_keyboard",
                destructor: { CWayland_keyboard_release($0) })
        else { return }
        seatKeyboard = keyboard
        CWayland_keyboard_add_listener(keyboard.handle, Listeners.keyboard, selfPointer)
    }

    /// The seat keyboard's keymap: its descriptor is kept (the one kept before is closed).
    ///
    /// The compositor sends it again whenever another keyboard becomes the seat's, our own
    /// virtual keyboard included.
    func seatKeymapSent(format: UInt32, fileDescriptor: Int32, size: UInt32) {
        let file = SeatKeymapFile(fileDescriptor: fileDescriptor, size: size)
        guard CWayland_keymap_format_is_xkb_v1(format) != 0 else {
            seatKeymapSource = .unusable(
                .keymapFailed(
                    names: "the seat's keymap (format \(format), not XKB text)", stage: "format", code: 0))
            return
        }
        seatKeymapSource = .file(file)
    }

    /// Notes that a chord was just sent; returns the mark's number, which
    /// `WaylandTransfer.keystrokesBefore` of the reads asked for from now on will carry.
    ///
    /// The chord went on this connection (sent in the same write as the mark) or through
    /// XTEST: the reads the compositor asks for from now on may be the target's.
    /// The mark is a `wl_display.sync` sent after the chord: the compositor answers it once
    /// it has handled the chord, so every `send` that reaches this service before the
    /// answer was asked for before the chord was handled — by a clipboard manager, or the
    /// compositor itself, never by the window the chord went to. Not waited for: the answer
    /// is read with the other events.
    public func markKeystroke() throws(WaylandError) -> UInt64 {
        if let failure = display.failure { throw failure }
        keystrokesSent += 1
        let number = keystrokesSent
        let callback = try SyncCallback.send(on: display) { [weak self] callback in
            guard let self else { return }
            self.keystrokesHandled = max(self.keystrokesHandled, number)
            self.keystrokeMarks.removeAll { $0 === callback }
        }
        keystrokeMarks.append(callback)
        display.flush()
        return number
    }

    /// The number the reads after the next `markKeystroke()` will carry.
    public var nextKeystrokeMark: UInt64 { keystrokesSent + 1 }

    /// True when the compositor names its windows (`zwlr_foreign_toplevel_manager_v1`), so
    /// that `activatedAppID` can say which is active.
    package var followsWindows: Bool { toplevels != nil }

    /// The app id of the activated window (`foot`, `org.gnome.Terminal`), as the
    /// compositor last said; nil when none is activated or the compositor does not say.
    public var activatedAppID: String? {
        guard let toplevels, let id = CWayland_toplevels_activated_app_id(toplevels) else { return nil }
        return String(cString: id)
    }

    /// How many windows the compositor announced (for tests and diagnostics).
    package var windowCount: Int { toplevels.map { Int(CWayland_toplevels_count($0)) } ?? 0 }

    /// Binds the foreign-toplevel manager where the compositor has it; its windows are then
    /// announced with the other events.
    func followWindows() throws(WaylandError) {
        let name = String(cString: CWayland_toplevels_interface_name())
        guard let global = globals[name], let registry else { return }
        guard
            let made = CWayland_toplevels_bind(
                registry.handle, global.name, min(global.version, CWayland_toplevels_version()))
        else {
            display.fail(in: "binding \(name)")
            throw display.failure ?? .connectionLost(call: "binding \(name)", code: 0)
        }
        toplevels = made
    }
}

/// Where the seat's keymap is: the compositor's descriptor, or why it cannot be read.
enum SeatKeymapSource {
    case file(SeatKeymapFile)
    case unusable(KeyboardError)
}

/// A keymap descriptor the compositor sent (wl_keyboard.keymap): owned, closed at the end.
final class SeatKeymapFile {
    /// The descriptor, read with `mmap` (private, read-only) when the keymap is compiled.
    let fileDescriptor: Int32
    /// The keymap's size in bytes, its NUL included.
    let size: UInt32

    /// Takes `fileDescriptor`.
    init(fileDescriptor: Int32, size: UInt32) {
        self.fileDescriptor = fileDescriptor
        self.size = size
    }

    deinit { if fileDescriptor >= 0 { _ = close(fileDescriptor) } }
}
