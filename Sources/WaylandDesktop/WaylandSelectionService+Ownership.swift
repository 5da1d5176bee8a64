// SPDX-License-Identifier: MIT
import CWayland

/// Taking and releasing the selections.
extension WaylandSelectionService {
    /// The formats of a text: the same bytes as every text type Wayland and X11 readers ask
    /// for (`text/plain;charset=utf-8`, `text/plain`, `UTF8_STRING`, `STRING`, `TEXT`).
    public static func textFormats(_ text: [UInt8]) -> [(mime: String, bytes: [UInt8])] {
        ["text/plain;charset=utf-8", "text/plain", "UTF8_STRING", "STRING", "TEXT"].map { ($0, text) }
    }

    /// Makes `selection` ours; returns once a round trip showed the compositor took it.
    ///
    /// Offers each of `formats` (in this order; a repeated type keeps its first bytes), and
    /// with `secret` the password hint `x-kde-passwordManagerHint` with the content `secret`.
    ///
    /// Throws `.notTaken` when the compositor cancelled the source at once,
    /// `.primaryUnsupported` for a primary selection it does not have, and the failure that
    /// broke the service otherwise (the caller then reconnects).
    public func own(
        _ selection: WaylandSelectionName, formats: [(mime: String, bytes: [UInt8])], secret: Bool
    ) throws(WaylandError) -> WaylandOwnershipToken {
        if let failure = display.failure { throw failure }
        guard let manager, let device else { throw .missingGlobal(protocolName) }
        if selection == .primary && !primarySupported { throw .primaryUnsupported }
        var types: [String] = []
        var data: [String: [UInt8]] = [:]
        for format in formats where data[format.mime] == nil {
            types.append(format.mime)
            data[format.mime] = format.bytes
        }
        if secret && data[Self.passwordHintType] == nil {
            types.append(Self.passwordHintType)
            data[Self.passwordHintType] = Array("secret".utf8)
        }
        let source = try ProtocolObject.take(
            withUnsafePointer(to: dataControl) { CWayland_manager_create_data_source(manager.handle, $0) },
            of: display, making: "create_data_source", destructor: { CWayland_source_destroy($0) })
        CWayland_source_add_listener(source.handle, Listeners.source, selfPointer)
        for type in types { CWayland_source_offer(source.handle, type) }
        CWayland_device_set_selection(device.handle, source.handle, selection == .primary ? 1 : 0)
        let token = WaylandOwnershipToken(serial: nextSerial)
        nextSerial += 1
        let ownership = Ownership(
            source: source, selection: selection, token: token, mimeTypes: types, formats: data)
        // The previous source (if any) is destroyed after set_selection was sent: the
        // compositor has replaced it by then, so its destruction clears nothing.
        ownerships[selection] = ownership
        tokenBeingTaken = token
        defer { tokenBeingTaken = nil }
        try roundTrip("taking the \(selection)")
        guard !ownership.cancelled else { throw .notTaken }
        return token
    }

    /// Gives up `selection` if the ownership `token` names still holds it: destroys our
    /// source, which clears the seat's selection only while it is still the selection, so a
    /// program that took it meanwhile (its cancel not yet read) keeps it.
    public func release(_ selection: WaylandSelectionName, token: WaylandOwnershipToken) {
        guard let ownership = ownerships[selection], ownership.token == token else { return }
        ownerships[selection] = nil
        display.flush()
    }

    /// Waits until the compositor has handled every request sent so far (a release, say).
    ///
    /// Bounded by the compositor timeout, which breaks the service. The events sent
    /// meanwhile are dispatched; their callbacks run in the next `processEvents(now:)`.
    public func synchronize() throws(WaylandError) {
        try roundTrip("synchronizing")
    }

    /// True while this service owns `selection` (as far as the events read so far say).
    public func owns(_ selection: WaylandSelectionName) -> Bool { ownerships[selection] != nil }

    /// The token of the ownership that holds `selection`, or nil.
    public func ownershipToken(_ selection: WaylandSelectionName) -> WaylandOwnershipToken? {
        ownerships[selection]?.token
    }
}
