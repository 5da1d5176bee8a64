// SPDX-License-Identifier: MIT
import CWaylandPopup
import Glibc

/// The event tables given to libwayland for the popup's objects.
///
/// libwayland keeps a pointer to each table for the life of the objects, so they are
/// allocated once and never freed; it aborts on an event whose entry is missing, so every
/// event of the versions bound has one. Every event's `data` is the `LayerPopup` (or, for a
/// buffer, the `ShmBuffer`) that made the object, unretained: it outlives its objects, and
/// events are dispatched only inside its own calls.
enum PopupListeners {
    /// The registry's globals.
    nonisolated(unsafe) static let registry = table(
        wl_registry_listener(
            global: { data, _, name, interface, version in
                guard let data, let interface else { return }
                popup(data).announced(name: name, interface: String(cString: interface), version: version)
            },
            global_remove: { _, _, _ in }))

    /// An output's scale (the rest is not needed).
    nonisolated(unsafe) static let output = table(
        wl_output_listener(
            geometry: { _, _, _, _, _, _, _, _, _, _ in }, mode: { _, _, _, _, _, _ in }, done: { _, _ in },
            scale: { data, output, factor in
                guard let data, let output else { return }
                popup(data).outputScaled(output, factor: Int(factor))
            }, name: { _, _, _ in }, description: { _, _, _ in }))

    /// The seat's keyboard and pointer coming and going.
    nonisolated(unsafe) static let seat = table(
        wl_seat_listener(
            capabilities: { data, _, capabilities in
                guard let data else { return }
                popup(data).seatCapabilities(capabilities)
            },
            name: { _, _, _ in }))

    /// The keyboard's events, queued in order (a key is read with the modifiers before it).
    nonisolated(unsafe) static let keyboard = table(
        wl_keyboard_listener(
            keymap: { data, _, format, fd, size in
                guard let data, format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue else {
                    close(fd)
                    return
                }
                popup(data).enqueue(.keymap(fd: fd, size: Int(size)))
            },
            enter: { _, _, _, _, _ in },
            leave: { data, _, _, _ in
                guard let data else { return }
                popup(data).enqueue(.left)
            },
            key: { data, _, _, _, key, state in
                guard let data else { return }
                popup(data).enqueue(.key(key, pressed: state == WL_KEYBOARD_KEY_STATE_PRESSED.rawValue))
            },
            modifiers: { data, _, _, depressed, latched, locked, group in
                guard let data else { return }
                popup(data).enqueue(.modifiers(depressed, latched, locked, group))
            },
            repeat_info: { data, _, rate, delay in
                guard let data else { return }
                popup(data).enqueue(.repeatInfo(rate: rate, delay: delay))
            }))

    /// The pointer: where it is, buttons, the wheel.
    nonisolated(unsafe) static let pointer = table(
        wl_pointer_listener(
            enter: { data, _, _, surface, x, y in
                guard let data else { return }
                popup(data).pointerEntered(surface, x: wl_fixed_to_int(x), y: wl_fixed_to_int(y))
            },
            leave: { data, _, _, surface in
                guard let data else { return }
                popup(data).pointerLeft(surface)
            },
            motion: { data, _, _, x, y in
                guard let data else { return }
                popup(data).pointerMoved(x: wl_fixed_to_int(x), y: wl_fixed_to_int(y))
            },
            button: { data, _, _, _, button, state in
                guard let data, state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue else { return }
                popup(data).pointerPressed(button)
            },
            axis: { data, _, _, axis, value in
                guard let data, axis == WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue, value != 0 else { return }
                popup(data).pointerScrolled(value < 0 ? -1 : 1)
            },
            frame: { _, _ in }, axis_source: { _, _, _ in }, axis_stop: { _, _, _, _ in },
            axis_discrete: { _, _, _, _ in }, axis_value120: { _, _, _, _ in }))

    /// The overlay's size and its closing.
    nonisolated(unsafe) static let layerSurface = table(
        zwlr_layer_surface_v1_listener(
            configure: { data, _, serial, width, height in
                guard let data else { return }
                popup(data).configured(serial: serial, width: Int(width), height: Int(height))
            },
            closed: { data, _ in
                guard let data else { return }
                popup(data).closedByCompositor()
            }))

    /// The output a surface entered (its scale is the one to draw at).
    nonisolated(unsafe) static let surface = table(
        wl_surface_listener(
            enter: { data, surface, output in
                guard let data, let surface, let output else { return }
                popup(data).surface(surface, entered: output)
            },
            leave: { _, _, _ in }))

    /// A buffer given back by the compositor.
    nonisolated(unsafe) static let buffer = table(
        wl_buffer_listener(release: { data, _ in
            guard let data else { return }
            Unmanaged<ShmBuffer>.fromOpaque(data).takeUnretainedValue().busy = false
        }))

    private static func popup(_ data: UnsafeMutableRawPointer) -> LayerPopup {
        Unmanaged<LayerPopup>.fromOpaque(data).takeUnretainedValue()
    }

    private static func table<Table>(_ value: Table) -> UnsafeMutablePointer<Table> {
        let pointer = UnsafeMutablePointer<Table>.allocate(capacity: 1)
        pointer.initialize(to: value)
        return pointer
    }
}
