// SPDX-License-Identifier: MIT
import DBus

/// The binder of the `[keys]` bindings on GNOME, KDE and Hyprland under Wayland: the XDG
/// GlobalShortcuts portal (`org.freedesktop.portal.GlobalShortcuts`).
///
/// One shortcuts session for the daemon's life, made at the first `bind` once the app id's
/// host registration has answered (`PortalHostRegistration`): `CreateSession`, then
/// `BindShortcuts` with each binding's id, description and keys as its preferred trigger
/// (`ShortcutTrigger`); the desktop's own dialog lets the person confirm or change them.
/// Each step answers by the `Response` signal of a Request at a path predicted from the
/// connection's unique name and the step's `handle_token`, all asynchronous on the daemon's
/// bus connection, so the loop is never held by a dialog.
///
/// `bind` therefore answers each binding as not bound yet, waiting for the desktop, and the
/// states the desktop's answer gives (bound to the trigger it describes, or refused) go to
/// the `states` callback given at `init`, as do later changes: the person changing a
/// trigger in the desktop's settings (`ShortcutsChanged`), or the portal closing the session
/// (`Session.Closed`), after which the next `bind` (a reload) makes another. A `bind` while
/// another is under way binds the newest requests once the answer in flight came.
/// `Activated` and `Deactivated` of a bound id become `KeyEvent.pressed` and `.released`.
///
/// A portal that was not on the bus when asked (not D-Bus activatable, or failing to
/// start), or that left it, is asked again when its name appears: the keys are bound
/// without a reload once the portal runs.
public final class GlobalShortcutsBinder: KeyBinder {
    /// The interface.
    public static let interface = "org.freedesktop.portal.GlobalShortcuts"
    /// What `bind` answers for each binding until the desktop has.
    public static let waitingReason =
        "waiting for the desktop's answer through the GlobalShortcuts portal (its dialog may ask you to confirm the keys)"

    /// The steps that answer through a Request's `Response`.
    private enum Step: String {
        case createSession = "CreateSession"
        case bindShortcuts = "BindShortcuts"
    }

    private enum Session {
        /// None: the next bind makes one.
        case none
        /// `CreateSession` asked, not answered yet.
        case creating
        /// Made: bindings go to it.
        case made(String)
    }

    private let bus: BusConnection
    private let registration: PortalHostRegistration
    private let events: (KeyEvent) -> Void
    private let states: ([String: KeyBindingState]) -> Void
    private var session = Session.none
    /// The bindings asked for last.
    private var wanted: [KeyBindingRequest] = []
    /// The ids the desktop bound in the session: only their presses are reported.
    private var bound: Set<String> = []
    /// The Request whose `Response` is awaited, and its step.
    private var awaited: (path: String, step: Step)?
    /// True when `wanted` changed while a step was under way: bound once it answers.
    private var bindPending = false
    /// The portal's unique name, from its first answer: only it sends the signals heeded.
    private var portalOwner: String?
    private var tokenCount = 0
    private var matched = false
    /// True when the portal was missing or left: its name appearing binds the keys again.
    private var awaitingPortal = false

    /// Makes the binder on `bus`, its first call made once `registration` has answered;
    /// `events` gets the presses and releases of the bound keys, `states` the bindings'
    /// states each time the desktop answers or changes them.
    public init(
        bus: BusConnection, registration: PortalHostRegistration, events: @escaping (KeyEvent) -> Void,
        states: @escaping ([String: KeyBindingState]) -> Void
    ) {
        self.bus = bus
        self.registration = registration
        self.events = events
        self.states = states
        bus.addSignalHandler { [weak self] message in self?.receive(message) }
    }

    /// Asks the desktop to bind `requests` in the session (made first when there is none);
    /// answers each as not bound yet, the desktop's answer coming to `states`.
    public func bind(_ requests: [KeyBindingRequest]) -> [String: KeyBindingState] {
        wanted = requests
        bound = []
        guard !requests.isEmpty else { return [:] }
        switch session {
        case .none:
            awaitingPortal = false
            session = .creating
            registration.whenRegistered { [weak self] in self?.createSession() }
        case .creating:
            bindPending = true
        case .made(let path):
            if awaited == nil { sendBind(path) } else { bindPending = true }
        }
        return Dictionary(
            uniqueKeysWithValues: requests.map { ($0.id, .notBound(reason: Self.waitingReason)) })
    }

    /// Forgets the bindings: their presses are no longer reported.
    ///
    /// The portal has no call to unbind: the desktop keeps the shortcuts it bound for the
    /// app (the person's choices are not lost over a reload), and the session ends with the
    /// daemon's bus connection, which releases them.
    public func unbindAll() {
        wanted = []
        bound = []
        bindPending = false
    }

    // MARK: - Steps

    private func createSession() {
        do {
            if !matched {
                try PortalCalls.addMatches(
                    PortalCalls.answerRules(bus) + [
                        "type='signal',sender='\(PortalCalls.busName)',interface='\(Self.interface)'",
                        // The portal's arrival, to bind again when it was missing.
                        "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
                            + "member='NameOwnerChanged',arg0='\(PortalCalls.busName)'",
                    ], on: bus)
                matched = true
            }
        } catch {
            return failed("the GlobalShortcuts portal could not be asked: \(error)")
        }
        ask(.createSession, [])
    }

    private func sendBind(_ path: String) {
        bindPending = false
        let shortcuts = wanted.map { request in
            var options: [(String, BusValue)] = [("description", .string(request.description))]
            if let trigger = ShortcutTrigger.preferred(for: request.keys) {
                options.append(("preferred_trigger", .string(trigger)))
            }
            return BusValue.structure([.string(request.id), PortalCalls.options(options)])
        }
        ask(
            .bindShortcuts, [.objectPath(path), .array(elementSignature: "(sa{sv})", shortcuts), .string("")])
    }

    /// Calls `step` with `arguments`, awaiting its Response.
    private func ask(_ step: Step, _ arguments: [BusValue]) {
        tokenCount += 1
        // Its own prefix: the RemoteDesktop session's Requests share the connection's paths.
        let token = "cliptabkeys\(tokenCount)"
        let options: [(String, BusValue)] =
            step == .createSession ? [("session_handle_token", .string(token))] : []
        do {
            let path = try PortalCalls.ask(
                bus, interface: Self.interface, member: step.rawValue, arguments: arguments, token: token,
                options: options
            ) { [weak self] result in
                guard let self, let awaited = self.awaited, awaited.step == step else { return }
                switch result {
                case .success(let reply):
                    if self.portalOwner == nil { self.portalOwner = reply.portal }
                    if let named = reply.named, named != awaited.path { self.awaited = (named, step) }
                case .failure(let error):
                    self.failed(Self.unreachableReason(error, step: step))
                    if Self.isMissing(error) {
                        // The portal that comes later has not heard the registration either.
                        self.awaitingPortal = true
                        self.registration.portalLeft()
                    }
                }
            }
            awaited = (path, step)
        } catch {
            failed("the GlobalShortcuts portal could not be asked to \(step.rawValue): \(error)")
        }
    }

    /// Takes a step's Response.
    private func answered(_ step: Step, code: UInt32, results: BusValue) {
        switch (step, code) {
        case (.createSession, 0):
            guard let path = PortalCalls.entry("session_handle", in: results) else {
                return failed("the GlobalShortcuts portal named no session")
            }
            session = .made(path)
            Log.line("the GlobalShortcuts portal session \(path) is made")
            if !wanted.isEmpty { sendBind(path) }
        case (.createSession, _):
            failed(
                "the desktop's GlobalShortcuts portal refused a shortcuts session (response \(code)); bind the keys "
                    + "in the desktop's keyboard settings to cliptab commands instead")
        case (.bindShortcuts, _):
            if bindPending, case .made(let path) = session { return sendBind(path) }
            guard code == 0 else {
                let reason =
                    code == 1
                    ? "you cancelled the desktop's shortcuts dialog, so nothing is bound; cliptab reload asks again"
                    : "the desktop's GlobalShortcuts portal ended BindShortcuts (response \(code)); cliptab reload "
                        + "tries again"
                Log.line("keys not bound by the desktop: \(reason)", level: .warning)
                return report(
                    Dictionary(uniqueKeysWithValues: wanted.map { ($0.id, .notBound(reason: reason)) }))
            }
            take(Self.triggers(in: PortalCalls.value("shortcuts", in: results)))
        }
    }

    /// Reports the desktop's bindings `triggers` (id → its description of the trigger).
    private func take(_ triggers: [String: String]) {
        var answer: [String: KeyBindingState] = [:]
        bound = []
        for request in wanted {
            switch triggers[request.id] {
            case let trigger? where !trigger.isEmpty:
                answer[request.id] = .boundByDesktop(trigger: trigger)
                bound.insert(request.id)
            case .some:
                answer[request.id] = .notBound(
                    reason:
                        "the desktop bound it to no keys: set them in its keyboard settings, among the shortcuts "
                        + "of \(PortalHostRegistration.appID)")
                bound.insert(request.id)
            case nil:
                answer[request.id] = .notBound(
                    reason: "the desktop left it out of the shortcuts it bound; cliptab reload asks again")
            }
        }
        report(answer)
    }

    /// Ends a session that could not be made or was lost: every binding not bound, why.
    private func failed(_ reason: String) {
        awaited = nil
        bindPending = false
        if case .made = session {
        } else {
            session = .none
        }
        Log.line("keys not bound by the desktop: \(reason)", level: .warning)
        report(Dictionary(uniqueKeysWithValues: wanted.map { ($0.id, .notBound(reason: reason)) }))
    }

    private func report(_ answer: [String: KeyBindingState]) {
        guard !answer.isEmpty else { return }
        states(answer)
    }

    // MARK: - Signals

    private func receive(_ message: BusMessage) {
        if PortalCalls.isDeparture(of: portalOwner, message) {
            portalOwner = nil
            awaitingPortal = true
            registration.portalLeft()
            return sessionEnded("the desktop portal left the bus")
        }
        if awaitingPortal, Self.isArrival(of: PortalCalls.busName, message) {
            Log.line("the desktop portal came on the bus: binding the keys through it")
            return rebind()
        }
        guard let owner = portalOwner, message.sender == owner else { return }
        switch (message.interface, message.member) {
        case (PortalCalls.requestInterface, "Response"):
            guard let awaited, message.path == awaited.path else { return }
            self.awaited = nil
            guard let (code, results) = PortalCalls.response(message) else {
                return failed("the GlobalShortcuts portal answered \(awaited.step.rawValue) unreadably")
            }
            answered(awaited.step, code: code, results: results)
        case (PortalCalls.sessionInterface, "Closed"):
            guard case .made(let path) = session, message.path == path else { return }
            sessionEnded("the desktop closed cliptabd's shortcuts session")
        case (Self.interface, "Activated"), (Self.interface, "Deactivated"):
            guard let values = try? message.readValues(), values.count >= 2,
                case .objectPath(let sessionPath) = values[0], case .string(let id) = values[1],
                case .made(let path) = session, sessionPath == path, bound.contains(id)
            else { return }
            events(message.member == "Activated" ? .pressed(id: id) : .released(id: id))
        case (Self.interface, "ShortcutsChanged"):
            guard let values = try? message.readValues(), values.count == 2,
                case .objectPath(let sessionPath) = values[0], case .made(let path) = session,
                sessionPath == path
            else { return }
            take(Self.triggers(in: values[1]))
        default:
            return
        }
    }

    /// The session ended under the binder: every binding not bound, and the next `bind`
    /// makes another session.
    private func sessionEnded(_ why: String) {
        if case .none = session { return }
        session = .none
        awaited = nil
        bindPending = false
        bound = []
        let reason = "\(why); the keys are bound again when the portal comes back (or at cliptab reload)"
        Log.line("keys no longer bound by the desktop: \(reason)", level: .warning)
        report(Dictionary(uniqueKeysWithValues: wanted.map { ($0.id, .notBound(reason: reason)) }))
    }

    /// Binds the keys wanted again in a new session, the portal having come back.
    private func rebind() {
        awaitingPortal = false
        guard case .none = session, !wanted.isEmpty else { return }
        report(bind(wanted))
    }

    // MARK: - Values

    /// True when `message` is the bus's `NameOwnerChanged` giving `name` an owner.
    static func isArrival(of name: String, _ message: BusMessage) -> Bool {
        guard message.member == "NameOwnerChanged", message.sender == "org.freedesktop.DBus",
            let values = try? message.readValues(), values.count == 3, values[0] == .string(name),
            case .string(let owner) = values[2]
        else { return false }
        return !owner.isEmpty
    }

    /// True when `error` says no one owns the portal's name.
    private static func isMissing(_ error: BusError) -> Bool {
        error.name == "org.freedesktop.DBus.Error.ServiceUnknown"
            || error.name == "org.freedesktop.DBus.Error.NameHasNoOwner"
    }

    /// The trigger descriptions by id in an `a(sa{sv})` of shortcuts (in its variant or not).
    static func triggers(in shortcuts: BusValue?) -> [String: String] {
        var list = shortcuts
        if case .variant(let inner)? = list { list = inner }
        guard case .array(_, let elements)? = list else { return [:] }
        var triggers: [String: String] = [:]
        for element in elements {
            guard case .structure(let fields) = element, fields.count == 2, case .string(let id) = fields[0]
            else {
                continue
            }
            triggers[id] = PortalCalls.entry("trigger_description", in: fields[1]) ?? ""
        }
        return triggers
    }

    /// Why the portal could not be asked, in words a person can act on.
    private static func unreachableReason(_ error: BusError, step: Step) -> String {
        switch error.name {
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner":
            return
                "no desktop portal answers on the session bus (\(PortalCalls.busName)); install xdg-desktop-portal "
                + "with your desktop's backend, or bind the keys in the desktop's settings"
        case BusErrorName.unknownMethod, BusErrorName.unknownInterface:
            return
                "the desktop portal offers no GlobalShortcuts (a desktop without it, such as sway or GNOME before "
                + "48); bind the keys in the desktop's settings"
        default:
            return "the GlobalShortcuts portal refused \(step.rawValue): \(error)"
        }
    }
}
