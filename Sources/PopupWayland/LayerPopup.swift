// SPDX-License-Identifier: MIT
import CWaylandPopup
import Glibc
import Posix

/// The connection to a Wayland compositor and the popup's overlay surface on it.
///
/// The overlay is a `zwlr_layer_shell_v1` surface over the whole output that holds the
/// keyboard exclusively and is never drawn (transparent); the menu's box is a subsurface of
/// it, drawn through `wl_shm` buffers, so a frame costs the box's pixels, not the output's.
/// The seat's keys are read by `PopupKeyboard`. The one owner of the connection and of every
/// object made on it: closing it (or the process ending) gives the compositor back
/// everything, the keyboard included.
public final class LayerPopup {
    private let display: OpaquePointer
    private var registry: PopupProxy?
    private var compositor: PopupProxy?
    private var subcompositor: PopupProxy?
    private var shm: PopupProxy?
    private var seat: PopupProxy?
    private var layerShell: PopupProxy?
    private var outputs: [(proxy: PopupProxy, scale: Int)] = []
    private var keyboardProxy: PopupProxy?
    private var pointerProxy: PopupProxy?
    private var capabilities: UInt32 = 0
    private let keyboard = PopupKeyboard()

    /// The overlay (all output, transparent, holding the keyboard and catching the pointer).
    private var surface: PopupProxy?
    private var layer: PopupProxy?
    /// The menu's box on the overlay, a synchronized subsurface.
    private var box: PopupProxy?
    private var subsurface: PopupProxy?
    private var overlayBuffer: ShmBuffer?
    private var buffers: [ShmBuffer?] = [nil, nil]
    private var boxPosition = (x: 0, y: 0)
    private var isConfigured = false
    private var isClosed = false
    private var configureSerial: UInt32 = 0
    private var acknowledged = false
    private var overlaySize = (width: 0, height: 0)
    private var scale = 1
    /// The surface the pointer is on, and where on the overlay (-1 until it has entered).
    private var pointerSurface: OpaquePointer?
    private var pointerAt = (x: -1, y: -1)
    private var pointerSeen = false
    /// Events not taken yet, in order.
    private var queue: [Queued] = []

    /// What the listeners queue: the popup's own events, and the keyboard's raw ones, read
    /// when taken (so that a key is read with the modifiers sent before it).
    enum Queued {
        case event(LayerPopupEvent)
        case keymap(fd: Int32, size: Int)
        case key(UInt32, pressed: Bool)
        case modifiers(UInt32, UInt32, UInt32, UInt32)
        case repeatInfo(rate: Int32, delay: Int32)
        case left
    }

    /// The most events kept: a flood of input keeps the oldest and drops the newest.
    private static let queueLimit = 256
    /// The most outputs followed for their scales.
    private static let outputLimit = 8

    private init(display: OpaquePointer) { self.display = display }

    /// Connects to the compositor `WAYLAND_DISPLAY` names and reads what it offers.
    public static func connect() throws(LayerPopupError) -> LayerPopup {
        guard let display = wl_display_connect(nil) else {
            throw LayerPopupError.errno("cannot connect to the Wayland compositor")
        }
        let popup = LayerPopup(display: display)
        popup.registry = PopupProxy(wl_display_get_registry(display)) { wl_registry_destroy($0) }
        guard let registry = popup.registry else { throw LayerPopupError.connectionBroke }
        wl_registry_add_listener(registry.pointer, PopupListeners.registry, popup.opaque)
        // The globals alone: what the bound ones say at once (seat capabilities, output
        // scales) comes with the overlay's first configure, in `show`, without a round trip
        // of its own. The keymap comes later and is compiled only when needed.
        guard wl_display_roundtrip(display) >= 0 else { throw LayerPopupError.connectionBroke }
        guard popup.compositor != nil, popup.shm != nil, popup.subcompositor != nil else {
            throw LayerPopupError(
                "the Wayland compositor offers no wl_compositor 4, wl_subcompositor or wl_shm")
        }
        return popup
    }

    deinit {
        hideSurface()
        keyboardProxy = nil
        pointerProxy = nil
        seat = nil
        outputs = []
        layerShell = nil
        shm = nil
        subcompositor = nil
        compositor = nil
        registry = nil
        for case .keymap(let fd, _) in queue { close(fd) }
        wl_display_flush(display)
        wl_display_disconnect(display)
    }

    private var opaque: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// True when the compositor offers layer-shell, which alone lets a popup take the keyboard.
    public var hasLayerShell: Bool { layerShell != nil }

    /// True when the seat has a keyboard (known once the overlay is shown: the seat says it
    /// with the overlay's first configure, not at `connect`).
    public var hasKeyboard: Bool { capabilities & WL_SEAT_CAPABILITY_KEYBOARD.rawValue != 0 }

    /// Shows the overlay over the whole focused output, taking the keyboard, and waits until
    /// the compositor has sized it.
    public func show(namespace: String) throws(LayerPopupError) {
        guard let layerShell, let compositor, let subcompositor else {
            throw LayerPopupError("the Wayland compositor offers no zwlr_layer_shell_v1")
        }
        hideSurface()
        isConfigured = false
        isClosed = false
        let surface = PopupProxy(wl_compositor_create_surface(compositor.pointer)) { wl_surface_destroy($0) }
        guard let surface else { throw LayerPopupError.connectionBroke }
        self.surface = surface
        wl_surface_add_listener(surface.pointer, PopupListeners.surface, opaque)
        layer = PopupProxy(
            zwlr_layer_shell_v1_get_layer_surface(
                layerShell.pointer, surface.pointer, nil, ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY.rawValue,
                namespace)
        ) { zwlr_layer_surface_v1_destroy($0) }
        guard let layer else { throw LayerPopupError.connectionBroke }
        zwlr_layer_surface_v1_add_listener(layer.pointer, PopupListeners.layerSurface, opaque)
        let anchors: [zwlr_layer_surface_v1_anchor] = [
            ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP, ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM,
            ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT, ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT,
        ]
        zwlr_layer_surface_v1_set_anchor(layer.pointer, anchors.reduce(0) { $0 | $1.rawValue })
        zwlr_layer_surface_v1_set_size(layer.pointer, 0, 0)
        zwlr_layer_surface_v1_set_exclusive_zone(layer.pointer, -1)
        zwlr_layer_surface_v1_set_keyboard_interactivity(
            layer.pointer, ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_EXCLUSIVE.rawValue)
        wl_surface_commit(surface.pointer)
        box = PopupProxy(wl_compositor_create_surface(compositor.pointer)) { wl_surface_destroy($0) }
        guard let box else { throw LayerPopupError.connectionBroke }
        wl_surface_add_listener(box.pointer, PopupListeners.surface, opaque)
        subsurface = PopupProxy(
            wl_subcompositor_get_subsurface(subcompositor.pointer, box.pointer, surface.pointer)
        ) { wl_subsurface_destroy($0) }
        while !isConfigured && !isClosed {
            guard wl_display_dispatch(display) >= 0 else { throw LayerPopupError.connectionBroke }
        }
        // Until the surface enters an output, the largest scale: never blurry, at worst too
        // fine. (The outputs said theirs before this configure came.)
        scale = outputs.map(\.scale).max().map { max(1, $0) } ?? 1
        guard !isClosed, overlaySize.width > 0, overlaySize.height > 0 else {
            throw LayerPopupError("the Wayland compositor closed the popup before showing it")
        }
    }

    /// Removes the overlay (the keyboard goes back to the window that had it) and waits until
    /// the compositor has done so.
    public func hide() throws(LayerPopupError) {
        guard surface != nil else { return }
        hideSurface()
        guard wl_display_roundtrip(display) >= 0 else { throw LayerPopupError.connectionBroke }
    }

    /// Destroys the box, the overlay and their buffers (children first).
    private func hideSurface() {
        subsurface = nil
        box = nil
        pointerSurface = nil
        layer = nil
        surface = nil
        if keyboardProxy != nil { enqueue(.left) }
        buffers = [nil, nil]
        overlayBuffer = nil
    }

    /// True while the overlay is shown.
    public var isShown: Bool { surface != nil }

    /// The overlay's size in logical pixels, and its output's scale.
    public var size: (width: Int, height: Int, scale: Int) { (overlaySize.width, overlaySize.height, scale) }

    /// Where the pointer is on the overlay, once the compositor has said.
    public var pointer: (x: Int, y: Int)? { pointerSeen ? pointerAt : nil }

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
        guard let surface, let box, let subsurface, let layer, let shm else {
            throw LayerPopupError("no popup is shown")
        }
        let (width, height) = (max(1, boxWidth) * scale, max(1, boxHeight) * scale)
        // Both buffers still the compositor's: wait until it gives one back.
        while buffers.allSatisfy({ $0?.busy ?? false }) {
            guard wl_display_dispatch(display) >= 0 else { throw LayerPopupError.connectionBroke }
        }
        let slot = buffers.firstIndex { !($0?.busy ?? false) } ?? 0
        if let old = buffers[slot], old.width != width || old.height != height { buffers[slot] = nil }
        let buffer =
            try buffers[slot] ?? ShmBuffer.make(shm: shm.pointer, width: width, height: height, mapped: true)
        buffers[slot] = buffer
        guard let pixels = buffer.pixels else { throw LayerPopupError("the box's buffer is not mapped") }
        let fresh = buffer.fresh
        buffer.fresh = false
        try draw(pixels, width, height, width * 4, fresh)
        // The overlay's own buffer is never drawn: all zeros, transparent, untouched here
        // (the compositor alone reads it). It changes only with the overlay's size.
        let resized =
            overlayBuffer.map { $0.width != overlaySize.width || $0.height != overlaySize.height } ?? true
        if resized {
            overlayBuffer = nil
            overlayBuffer = try ShmBuffer.make(
                shm: shm.pointer, width: overlaySize.width, height: overlaySize.height, mapped: false)
        }
        if !acknowledged {
            zwlr_layer_surface_v1_ack_configure(layer.pointer, configureSerial)
            acknowledged = true
        }
        // The box's state is applied with the overlay's commit (a synchronized subsurface).
        wl_surface_set_buffer_scale(box.pointer, Int32(scale))
        wl_surface_attach(box.pointer, buffer.proxy, 0, 0)
        wl_surface_damage_buffer(box.pointer, 0, 0, Int32(width), Int32(height))
        wl_surface_commit(box.pointer)
        wl_subsurface_set_position(subsurface.pointer, Int32(clamping: x), Int32(clamping: y))
        boxPosition = (x, y)
        if resized, let overlay = overlayBuffer {
            wl_surface_attach(surface.pointer, overlay.proxy, 0, 0)
            wl_surface_damage_buffer(surface.pointer, 0, 0, Int32(overlay.width), Int32(overlay.height))
        }
        wl_surface_commit(surface.pointer)
        buffer.busy = true
        guard wl_display_flush(display) >= 0 || errno == EAGAIN else { throw LayerPopupError.connectionBroke }
    }

    /// Before poll(): the descriptor to poll for reading, after the queued requests are sent.
    public func prepareToPoll() throws(LayerPopupError) -> Int32 {
        while wl_display_prepare_read(display) != 0 {
            guard wl_display_dispatch_pending(display) >= 0 else { throw LayerPopupError.connectionBroke }
        }
        guard wl_display_flush(display) >= 0 || errno == EAGAIN else {
            let error = LayerPopupError.connectionBroke
            wl_display_cancel_read(display)
            throw error
        }
        return wl_display_get_fd(display)
    }

    /// After poll(): reads what came (when `readable`) and queues it as events.
    public func finishPoll(readable: Bool) throws(LayerPopupError) {
        if readable {
            guard wl_display_read_events(display) >= 0 else { throw LayerPopupError.connectionBroke }
        } else {
            wl_display_cancel_read(display)
        }
        guard wl_display_dispatch_pending(display) >= 0 else { throw LayerPopupError.connectionBroke }
    }

    /// Compiles the keymap and the compose table now: after the first frame, so that neither
    /// delays it (else they are compiled at the first key).
    public func loadInput() { keyboard.load() }

    /// Milliseconds until a held key repeats, nil when none is held.
    public var repeatTimeout: Int32? { keyboard.repeatTimeout(now: MonotonicClock.milliseconds()) }

    /// The oldest event not taken yet (a held key's repeat when it is due).
    public func nextEvent() -> LayerPopupEvent? {
        while !queue.isEmpty {
            switch queue.removeFirst() {
            case .event(let event): return event
            case .key(let code, let pressed):
                if let key = keyboard.key(code, pressed: pressed, now: MonotonicClock.milliseconds()) {
                    return key
                }
            case .keymap(let fd, let size):
                if let text = Self.keymap(fd, size: size) { keyboard.keymapSent(text) }
            case .modifiers(let depressed, let latched, let locked, let group):
                keyboard.modifiersSent((depressed, latched, locked, group))
            case .repeatInfo(let rate, let delay):
                keyboard.repeatSent(rate: UInt32(max(0, rate)), delay: UInt32(max(0, delay)))
            case .left: keyboard.left()
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

    /// Queues what a listener was told, unless the queue is full.
    func enqueue(_ queued: Queued) {
        guard queue.count < Self.queueLimit else {
            if case .keymap(let fd, _) = queued { close(fd) }
            return
        }
        queue.append(queued)
    }
}

/// The listeners' side: what each event changes, and what it queues.
extension LayerPopup {
    func announced(name: UInt32, interface: String, version: UInt32) {
        guard let registry, let known = CWaylandPopup_interface(interface) else { return }
        func bind(_ wanted: UInt32, _ destroy: @escaping (OpaquePointer) -> Void) -> PopupProxy? {
            PopupProxy(bound: wl_registry_bind(registry.pointer, name, known, wanted), destroy: destroy)
        }
        switch interface {
        case "wl_compositor" where version >= 4: compositor = bind(4) { wl_compositor_destroy($0) }
        case "wl_subcompositor": subcompositor = bind(1) { wl_subcompositor_destroy($0) }
        case "wl_shm": shm = bind(1) { wl_shm_destroy($0) }
        case "wl_seat" where seat == nil:
            seat = bind(min(version, 5)) { wl_seat_destroy($0) }
            if let seat { wl_seat_add_listener(seat.pointer, PopupListeners.seat, opaque) }
        case "wl_output" where version >= 2 && outputs.count < Self.outputLimit:
            if let output = bind(2, { wl_output_destroy($0) }) {
                outputs.append((output, 1))
                wl_output_add_listener(output.pointer, PopupListeners.output, opaque)
            }
        case "zwlr_layer_shell_v1": layerShell = bind(min(version, 4)) { zwlr_layer_shell_v1_destroy($0) }
        default: break
        }
    }

    func outputScaled(_ output: OpaquePointer, factor: Int) {
        if let index = outputs.firstIndex(where: { $0.proxy.pointer == output }) {
            outputs[index].scale = max(1, factor)
        }
    }

    /// A keyboard or pointer that went away makes its proxy inert (wlroots): it is let go, and
    /// a new one taken when the seat has one again (a keyboard plugged in, a virtual one).
    func seatCapabilities(_ capabilities: UInt32) {
        self.capabilities = capabilities
        let hasKeyboard = capabilities & WL_SEAT_CAPABILITY_KEYBOARD.rawValue != 0
        let hasPointer = capabilities & WL_SEAT_CAPABILITY_POINTER.rawValue != 0
        if !hasKeyboard && keyboardProxy != nil {
            keyboardProxy = nil
            enqueue(.left)
        }
        if !hasPointer { pointerProxy = nil }
        if hasKeyboard, keyboardProxy == nil, let seat {
            keyboardProxy = PopupProxy(wl_seat_get_keyboard(seat.pointer)) {
                if wl_keyboard_get_version($0) >= 3 {
                    wl_keyboard_release($0)
                } else {
                    wl_keyboard_destroy($0)
                }
            }
            if let keyboardProxy {
                wl_keyboard_add_listener(keyboardProxy.pointer, PopupListeners.keyboard, opaque)
            }
        }
        if hasPointer, pointerProxy == nil, let seat {
            pointerProxy = PopupProxy(wl_seat_get_pointer(seat.pointer)) {
                if wl_pointer_get_version($0) >= 3 { wl_pointer_release($0) } else { wl_pointer_destroy($0) }
            }
            if let pointerProxy {
                wl_pointer_add_listener(pointerProxy.pointer, PopupListeners.pointer, opaque)
            }
        }
    }

    /// Where the pointer is on the overlay: the box's own coordinates start at its corner.
    private func pointer(x: Int32, y: Int32) {
        let onBox = pointerSurface != nil && pointerSurface == box?.pointer
        pointerAt = (Int(x) + (onBox ? boxPosition.x : 0), Int(y) + (onBox ? boxPosition.y : 0))
    }

    func pointerEntered(_ surface: OpaquePointer?, x: Int32, y: Int32) {
        pointerSurface = surface
        pointer(x: x, y: y)
        pointerSeen = true
        enqueue(.event(.pointer(x: pointerAt.x, y: pointerAt.y)))
    }

    func pointerLeft(_ surface: OpaquePointer?) {
        if pointerSurface == surface { pointerSurface = nil }
    }

    func pointerMoved(x: Int32, y: Int32) {
        pointer(x: x, y: y)
        enqueue(.event(.pointer(x: pointerAt.x, y: pointerAt.y)))
    }

    func pointerPressed(_ button: UInt32) {
        // linux/input-event-codes.h: BTN_LEFT 0x110, BTN_RIGHT 0x111, BTN_MIDDLE 0x112.
        let numbers: [UInt32: Int] = [0x110: 1, 0x111: 3, 0x112: 2]
        guard let number = numbers[button] else { return }
        enqueue(.event(.button(number, x: pointerAt.x, y: pointerAt.y)))
    }

    func pointerScrolled(_ step: Int) { enqueue(.event(.scroll(step))) }

    func configured(serial: UInt32, width: Int, height: Int) {
        configureSerial = serial
        acknowledged = false
        if isConfigured && (width, height) != overlaySize { enqueue(.event(.redraw)) }
        overlaySize = (width, height)
        isConfigured = true
    }

    func closedByCompositor() {
        isClosed = true
        enqueue(.event(.closed))
    }

    func surface(_ entered: OpaquePointer, entered output: OpaquePointer) {
        guard entered == surface?.pointer else { return }
        if let known = outputs.first(where: { $0.proxy.pointer == output }), known.scale != scale {
            scale = known.scale
            enqueue(.event(.redraw))
        }
    }
}
