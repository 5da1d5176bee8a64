// SPDX-License-Identifier: MIT
import CWayland
import Glibc

/// The event tables given to libwayland for the registry, the seat and its keyboard, and the
/// data-control objects.
///
/// libwayland keeps a pointer to each table for the life of the objects, so they are
/// allocated once and never freed. Every event's `data` is the service that made the object,
/// unretained: the service outlives its objects, and events are dispatched only inside its
/// own calls.
enum Listeners {
    /// The registry's globals.
    nonisolated(unsafe) static let registry: UnsafeMutablePointer<CWayland_registry_listener> = table(
        CWayland_registry_listener(
            global: { data, _, name, interface, version in
                guard let data, let interface else { return }
                service(data).registryAnnounced(
                    name: name, interface: String(cString: interface), version: version)
            },
            global_remove: { _, _, _ in }))

    /// A data device's offers and selections.
    nonisolated(unsafe) static let device: UnsafeMutablePointer<CWayland_device_listener> = table(
        CWayland_device_listener(
            data_offer: { data, _, offer in
                guard let data, let offer else { return }
                service(data).deviceIntroduced(offer)
            },
            selection: { data, _, offer in
                guard let data else { return }
                service(data).deviceSelected(offer, as: .clipboard)
            },
            finished: { data, _ in
                guard let data else { return }
                service(data).deviceFinished()
            },
            primary_selection: { data, _, offer in
                guard let data else { return }
                service(data).deviceSelected(offer, as: .primary)
            }))

    /// The types an offer announces.
    nonisolated(unsafe) static let offer: UnsafeMutablePointer<CWayland_offer_listener> = table(
        CWayland_offer_listener(offer: { data, offer, mimeType in
            guard let data, let offer, let mimeType else { return }
            service(data).offerAnnounced(offer, mimeType: String(cString: mimeType))
        }))

    /// Our sources' requests and cancellation.
    nonisolated(unsafe) static let source: UnsafeMutablePointer<CWayland_source_listener> = table(
        CWayland_source_listener(
            send: { data, source, mimeType, fd in
                guard let data, let source, let mimeType else {
                    if fd >= 0 { _ = close(fd) }
                    return
                }
                service(data).sourceAsked(source, mimeType: String(cString: mimeType), fileDescriptor: fd)
            },
            cancelled: { data, source in
                guard let data, let source else { return }
                service(data).sourceCancelled(source)
            }))

    /// The seat's capabilities (its name is not needed).
    nonisolated(unsafe) static let seat: UnsafeMutablePointer<CWayland_seat_listener> = table(
        CWayland_seat_listener(
            capabilities: { data, _, capabilities in
                guard let data else { return }
                service(data).seatCapabilities(capabilities)
            },
            name: { _, _, _ in }))

    /// The seat keyboard's keymap; its other events never come to a client without surfaces,
    /// and mean nothing to this one.
    nonisolated(unsafe) static let keyboard: UnsafeMutablePointer<CWayland_keyboard_listener> = table(
        CWayland_keyboard_listener(
            keymap: { data, _, format, fd, size in
                guard let data else {
                    if fd >= 0 { _ = close(fd) }
                    return
                }
                service(data).seatKeymapSent(format: format, fileDescriptor: fd, size: size)
            },
            enter: { _, _, _, _, _ in },
            leave: { _, _, _, _ in },
            key: { _, _, _, _, _, _ in },
            modifiers: { _, _, _, _, _, _, _ in },
            repeat_info: { _, _, _, _ in }))

    private static func service(_ data: UnsafeMutableRawPointer) -> WaylandSelectionService {
        Unmanaged<WaylandSelectionService>.fromOpaque(data).takeUnretainedValue()
    }

    private static func table<Table>(_ value: Table) -> UnsafeMutablePointer<Table> {
        let pointer = UnsafeMutablePointer<Table>.allocate(capacity: 1)
        pointer.initialize(to: value)
        return pointer
    }
}
