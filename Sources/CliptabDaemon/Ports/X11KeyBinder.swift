// SPDX-License-Identifier: MIT
import KeyChords
import X11Desktop

/// The keys of `[keys]` grabbed on an X display's root window, on a connection of their
/// own polled by the daemon's loop; presses and releases go to the key service.
public final class X11KeyBinder: KeyBinder, PollSource {
    private let grabber: KeyGrabber?
    /// Why there is no connection, for every binding's state.
    private let connectError: String?
    private let events: (KeyEvent) -> Void
    /// The bindings by id, for the lines of the reasons.
    private var requests: [String: KeyBindingRequest] = [:]

    /// Connects to `display`; `events` receives the presses and releases.
    public init(display: String, events: @escaping (KeyEvent) -> Void) {
        self.events = events
        do {
            grabber = try KeyGrabber.connect(display: display)
            connectError = nil
        } catch {
            grabber = nil
            connectError = error.description
        }
    }

    /// Grabs each request's keys, after giving back the keys grabbed before.
    public func bind(_ requests: [KeyBindingRequest]) -> [String: KeyBindingState] {
        unbindAll()
        var states: [String: KeyBindingState] = [:]
        for request in requests {
            self.requests[request.id] = request
            guard let grabber else {
                states[request.id] = .notBound(
                    reason: "no connection to the X display: \(connectError ?? "")")
                continue
            }
            let chord: KeyChord
            do {
                chord = try KeyChord(parsing: request.keys)
            } catch {
                states[request.id] = .notBound(reason: error.description)
                continue
            }
            let names = request.keys.split(separator: "+").dropLast().map { $0.lowercased() }
            let modifiers: [KeyGrabber.Modifier] = names.compactMap { name in
                switch name {
                case "super": .superKey
                case "alt": .alt
                case "ctrl": .control
                case "shift": .shift
                default: nil
                }
            }
            switch grabber.grab(request.id, keysym: chord.key, modifiers: modifiers) {
            case .grabbed:
                states[request.id] = .grabbed
            case .unmapped:
                states[request.id] = .notBound(
                    reason: "no key of the keyboard of X display \(grabber.displayName) makes \(request.keys)"
                )
            case .heldByAnotherClient:
                states[request.id] = .notBound(
                    reason: "another program (the window manager or a hotkey daemon) holds \(request.keys) "
                        + "on X display \(grabber.displayName); free it there, or choose other keys")
            }
        }
        return states
    }

    /// Gives back every grab.
    public func unbindAll() {
        grabber?.ungrabAll()
        requests = [:]
    }

    /// The grab connection's socket.
    public var pollDescriptor: Int32? { grabber.flatMap { $0.isBroken ? nil : $0.fileDescriptor } }

    /// Reports the presses and releases that arrived.
    public func process(now: UInt64) {
        guard let grabber, !grabber.isBroken else { return }
        for event in grabber.takeEvents() {
            events(event.isPress ? .pressed(id: event.tag) : .released(id: event.tag))
        }
    }

    /// At once while events wait in Xlib's queue (read by a round trip), else none.
    public func nextDeadline() -> UInt64? {
        guard let grabber, !grabber.isBroken else { return nil }
        return grabber.hasQueuedEvents ? 0 : nil
    }
}
