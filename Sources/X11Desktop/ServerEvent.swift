// SPDX-License-Identifier: MIT
import CX11

/// An X event that the selection code handles, as a Swift value.
///
/// This file is the only one that reads or builds Xlib's event structures (`XEvent` and
/// its members such as `XSelectionRequestEvent`, and the `XErrorEvent` of the error
/// handler); everything else sees typed atoms, windows and times.
enum ServerEvent {
    /// Another client asks the owner of a selection to convert it (ICCCM §2.2).
    case selectionRequest(ConversionRequest)
    /// The server tells the previous owner that it lost `selection` at `time`.
    case selectionClear(selection: InternedAtom, time: ServerTime)
    /// The answer to a conversion that we requested.
    case selectionNotify(ConversionReply)
    /// A property of a window we listen to was changed or deleted.
    case propertyChange(PropertyChange)
    /// A window we listen to was destroyed.
    case windowDestroyed(WindowID)
    /// A key of a passive grab went down (`isPress`) or up: its keycode and the modifier
    /// state before the event.
    case key(keycode: UInt8, state: UInt32, isPress: Bool)
    /// Any other event: nothing to do.
    case other

    /// A SelectionRequest: `requestor` wants `selection` as `target` in `property`.
    struct ConversionRequest {
        /// The window the requestor believes owns the selection.
        let owner: WindowID
        /// The window whose property receives the conversion.
        let requestor: WindowID
        /// The selection.
        let selection: InternedAtom
        /// The target (the form asked for).
        let target: InternedAtom
        /// The property to write, or `none` from an obsolete requestor.
        let property: InternedAtom
        /// The time of the requestor's triggering event, or `current`.
        let time: ServerTime
    }

    /// A SelectionNotify: the owner's answer, `property` `none` for a refusal.
    struct ConversionReply {
        /// The window that asked.
        let requestor: WindowID
        /// The selection.
        let selection: InternedAtom
        /// The target asked for.
        let target: InternedAtom
        /// The property holding the answer, or `none` when refused.
        let property: InternedAtom
        /// The time of the request.
        let time: ServerTime
    }

    /// A PropertyNotify.
    struct PropertyChange {
        /// The window whose property changed.
        let window: WindowID
        /// The property.
        let property: InternedAtom
        /// True when the property was deleted, false when it got a new value.
        let isDeletion: Bool
        /// The server time of the change.
        let time: ServerTime
    }

    /// Converts one Xlib event.
    init(_ event: XEvent) {
        switch event.type {
        case SelectionRequest:
            let request = event.xselectionrequest
            self = .selectionRequest(
                ConversionRequest(
                    owner: WindowID(rawValue: request.owner),
                    requestor: WindowID(rawValue: request.requestor),
                    selection: InternedAtom(rawValue: request.selection),
                    target: InternedAtom(rawValue: request.target),
                    property: InternedAtom(rawValue: request.property),
                    time: ServerTime(rawValue: request.time)))
        case SelectionClear:
            let clear = event.xselectionclear
            self = .selectionClear(
                selection: InternedAtom(rawValue: clear.selection), time: ServerTime(rawValue: clear.time))
        case SelectionNotify:
            let notification = event.xselection
            self = .selectionNotify(
                ConversionReply(
                    requestor: WindowID(rawValue: notification.requestor),
                    selection: InternedAtom(rawValue: notification.selection),
                    target: InternedAtom(rawValue: notification.target),
                    property: InternedAtom(rawValue: notification.property),
                    time: ServerTime(rawValue: notification.time)))
        case PropertyNotify:
            let change = event.xproperty
            self = .propertyChange(
                PropertyChange(
                    window: WindowID(rawValue: change.window), property: InternedAtom(rawValue: change.atom),
                    isDeletion: change.state == PropertyDelete, time: ServerTime(rawValue: change.time)))
        case DestroyNotify:
            self = .windowDestroyed(WindowID(rawValue: event.xdestroywindow.window))
        case KeyPress, KeyRelease:
            self = .key(
                keycode: UInt8(truncatingIfNeeded: event.xkey.keycode), state: event.xkey.state,
                isPress: event.type == KeyPress)
        default:
            self = .other
        }
    }

    /// What the error handler keeps of Xlib's error event for `display`.
    static func errorRecord(display: OpaquePointer?, _ event: XErrorEvent) -> ProtocolErrorRecord {
        ProtocolErrorRecord(
            display: Int(bitPattern: display), serial: event.serial, errorCode: event.error_code,
            requestCode: event.request_code, resource: event.resourceid)
    }

    /// Lets `fill` (an Xlib call such as `XNextEvent`) write an event and converts it; nil
    /// when `fill` says it wrote none.
    static func receive(_ fill: (UnsafeMutablePointer<XEvent>) -> Bool) -> ServerEvent? {
        var event = XEvent()
        return fill(&event) ? ServerEvent(event) : nil
    }
}

extension ServerEvent.ConversionReply {
    /// Runs `send` (an `XSendEvent` call) with this notification as an Xlib event of
    /// `display`, marked as sent by a client.
    func withXEvent(display: OpaquePointer, _ send: (UnsafeMutablePointer<XEvent>) -> Void) {
        var event = XEvent()
        event.xselection = XSelectionEvent(
            type: SelectionNotify, serial: 0, send_event: True, display: display,
            requestor: requestor.rawValue,
            selection: selection.rawValue, target: target.rawValue, property: property.rawValue,
            time: time.rawValue)
        send(&event)
    }
}
