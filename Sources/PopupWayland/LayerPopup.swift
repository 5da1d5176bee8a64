// SPDX-License-Identifier: MIT
import CWaylandPopup
import Glibc
import Posix

/// The connection to a Wayland compositor and the popup's overlay surface on it.
///
/// The overlay is a `zwlr_layer_shell_v1` surface that holds the keyboard exclusively, drawn
/// through `wl_shm` buffers; the seat's keys are read through libxkbcommon. The one owner of the C handle: closing it (or the
/// process ending) gives the compositor back everything, the keyboard included.
public final class LayerPopup {
    private let handle: OpaquePointer
    /// The seat's keys, read from the keyboard's events as they are taken.
    private let keyboard = PopupKeyboard()

    private init(handle: OpaquePointer) { self.handle = handle }

    /// Connects to the compositor `WAYLAND_DISPLAY` names and reads what it offers.
    public static func connect() throws(LayerPopupError) -> LayerPopup {
        var message = [CChar](repeating: 0, count: 256)
        guard let handle = CWP_connect(&message, message.count) else {
            throw LayerPopupError(
                String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return LayerPopup(handle: handle)
    }

    deinit { CWP_disconnect(handle) }

    /// True when the compositor offers layer-shell, which alone lets a popup take the keyboard.
    public var hasLayerShell: Bool { CWP_has_layer_shell(handle) != 0 }

    /// True when the seat has a keyboard (known once the overlay is shown: the seat says it
    /// with the overlay's first configure, not at `connect`).
    public var hasKeyboard: Bool { CWP_has_keyboard(handle) != 0 }

    /// The one place a C failure becomes a Swift error.
    private func check(_ status: Int32) throws(LayerPopupError) {
        if status < 0 { throw LayerPopupError(String(cString: CWP_error(handle))) }
    }

    /// Shows the overlay over the whole focused output, taking the keyboard, and waits until
    /// the compositor has sized it.
    public func show(namespace: String) throws(LayerPopupError) {
        try check(CWP_show(handle, namespace))
    }

    /// Removes the overlay (the keyboard goes back to the window that had it) and waits until
    /// the compositor has done so.
    public func hide() throws(LayerPopupError) { try check(CWP_hide(handle)) }

    /// True while the overlay is shown.
    public var isShown: Bool { CWP_is_shown(handle) != 0 }

    /// The overlay's size in logical pixels, and its output's scale.
    public var size: (width: Int, height: Int, scale: Int) {
        var width: Int32 = 0
        var height: Int32 = 0
        var scale: Int32 = 1
        CWP_size(handle, &width, &height, &scale)
        return (Int(width), Int(height), Int(scale))
    }

    /// Where the pointer is on the overlay, once the compositor has said.
    public var pointer: (x: Int, y: Int)? {
        var x: Int32 = 0
        var y: Int32 = 0
        CWP_pointer(handle, &x, &y)
        return x < 0 ? nil : (Int(x), Int(y))
    }

    /// Gives `draw` a free buffer for the menu's box of `width` × `height` logical pixels
    /// (pixels, width, height, stride in device pixels, and whether it is new, so all
    /// transparent), then shows it with its corner at `x`, `y` on the overlay.
    ///
    /// The rest of the overlay stays transparent and is never drawn: a box costs its own
    /// pixels, not the output's.
    public func frame(
        width boxWidth: Int, height boxHeight: Int, x: Int, y: Int,
        _ draw: (UnsafeMutableRawPointer, Int, Int, Int, Bool) throws -> Void
    ) throws {
        var width: Int32 = 0
        var height: Int32 = 0
        var stride: Int32 = 0
        guard
            let pixels = CWP_begin_frame(
                handle, Int32(clamping: boxWidth), Int32(clamping: boxHeight), &width, &height, &stride)
        else {
            throw LayerPopupError(String(cString: CWP_error(handle)))
        }
        try draw(pixels, Int(width), Int(height), Int(stride), CWP_frame_is_fresh(handle) != 0)
        try check(CWP_end_frame(handle, Int32(clamping: x), Int32(clamping: y)))
    }

    /// Before poll(): the descriptor to poll for reading, after the queued requests are sent.
    public func prepareToPoll() throws(LayerPopupError) -> Int32 {
        let fd = CWP_before_poll(handle)
        try check(fd)
        return fd
    }

    /// After poll(): reads what came (when `readable`) and queues it as events.
    public func finishPoll(readable: Bool) throws(LayerPopupError) {
        try check(CWP_after_poll(handle, readable ? 1 : 0))
    }

    /// Compiles the keymap and the compose table now: after the first frame, so that neither
    /// delays it (else they are compiled at the first key).
    public func loadInput() { keyboard.load() }

    /// Milliseconds until a held key repeats, nil when none is held.
    public var repeatTimeout: Int32? { keyboard.repeatTimeout(now: MonotonicClock.milliseconds()) }

    /// The oldest event not taken yet (a held key's repeat when it is due).
    public func nextEvent() -> LayerPopupEvent? {
        var event = CWP_event()
        while CWP_next_event(handle, &event) != 0 {
            switch event.kind {
            case CWP_EVENT_KEY_CODE:
                let now = MonotonicClock.milliseconds()
                if let key = keyboard.key(event.values.0, pressed: event.values.1 != 0, now: now) {
                    return key
                }
            case CWP_EVENT_KEYMAP:
                if let text = Self.keymap(event.fd, size: Int(event.values.0)) { keyboard.keymapSent(text) }
            case CWP_EVENT_MODIFIERS:
                keyboard.modifiersSent((event.values.0, event.values.1, event.values.2, event.values.3))
            case CWP_EVENT_REPEAT_INFO:
                keyboard.repeatSent(rate: event.values.0, delay: event.values.1)
            case CWP_EVENT_KEYBOARD_LEFT: keyboard.left()
            case CWP_EVENT_MOTION: return .pointer(x: Int(event.x), y: Int(event.y))
            case CWP_EVENT_BUTTON: return .button(Int(event.button), x: Int(event.x), y: Int(event.y))
            case CWP_EVENT_SCROLL: return .scroll(Int(event.axis))
            case CWP_EVENT_CLOSED: return .closed
            default: return .redraw
            }
        }
        return keyboard.repeatDue(now: MonotonicClock.milliseconds())
    }

    /// The keymap text the compositor sent in `fd` (closed here), `size` bytes.
    private static func keymap(_ fd: Int32, size: Int) -> String? {
        defer { close(fd) }
        guard size > 0, let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), mapped != MAP_FAILED
        else {
            return nil
        }
        defer { munmap(mapped, size) }
        // The text ends at its NUL (the size counts it).
        let bytes = UnsafeRawBufferPointer(start: mapped, count: size)
        return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
}
