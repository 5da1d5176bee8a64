// SPDX-License-Identifier: MIT
import DBus
import KeyChords

/// The daemon's one session of the XDG RemoteDesktop portal (`org.freedesktop.portal.RemoteDesktop`),
/// the way GNOME and KDE let a program type into Wayland windows.
///
/// The session starts at the first paste that needs it and lasts the daemon's life: the
/// version property, `CreateSession`, `SelectDevices` (a keyboard, `persist_mode` 2 with the
/// kept restore token where the portal is version 2 or later) and `Start`, whose consent
/// dialog the desktop shows once. Each step answers by the `Response` signal of a Request
/// object at a path predicted from the connection's unique name and the step's
/// `handle_token`, matched before the call. Every call is asynchronous on the daemon's bus
/// connection, so other clients are served while the dialog is up; the paste that waits
/// bounds its own wait. A new restore token from `Start` replaces the kept one (a token
/// serves once); a kept token the portal refuses is removed and the start begun again
/// without it. When the portal closes the session (`Session.Closed`, as GNOME does at the
/// screen lock) or leaves the bus, the session is dropped and the next paste starts another.
///
/// Where the portal keeps the consent (version 2 or later, with a restore token kept), the
/// session is closed after `[paste_to_focus] portal_idle_ms` without a paste, so that the
/// desktop's remote-desktop indicator goes off, and the next paste opens another with the
/// token, without a dialog. Version 1 has no token: a closed session would ask again at
/// every paste, so there it is kept (`RemoteDesktopIdle`). The idle time runs on the
/// daemon's clock: the loop polls the portal as a source.
///
/// Before its first call the portal client waits for the host registration of the
/// connection's app id (`PortalHostRegistration`), where the portal offers it.
public final class RemoteDesktopPortal: PollSource {
    /// The portal's bus name.
    public static let busName = PortalCalls.busName
    /// The interface.
    public static let interface = "org.freedesktop.portal.RemoteDesktop"
    /// `types` bit of a keyboard.
    static let keyboard: UInt32 = 1
    /// `persist_mode` 2: until the person revokes it.
    static let persistUntilRevoked: UInt32 = 2

    /// The steps that answer through a Request's `Response`.
    private enum Step: String {
        case createSession = "CreateSession"
        case selectDevices = "SelectDevices"
        case start = "Start"
    }

    private enum State {
        /// No session: the next paste starts one.
        case idle
        /// Between the version query and `Start`'s answer.
        case starting
        /// Keys can be sent to `session`.
        case started(session: String)
        /// The person refused in the dialog: not asked again in this daemon's life.
        case refused(String)
    }

    private let bus: BusConnection
    private let tokenFile: RestoreTokenFile?
    private let registration: PortalHostRegistration
    private let clock: () -> UInt64
    /// `[paste_to_focus] portal_idle_ms` in force: the policy's settings hand it a reload's
    /// value (`PortalKeyInjector.apply`).
    public var idleMilliseconds: Int
    private var idle = RemoteDesktopIdle()
    /// True once a `Start` gave a restore token and it was kept: a closed session can be
    /// opened again without a dialog.
    private var tokenKept = false
    private var state = State.idle
    private var waiters: [(NoPasteTarget?) -> Void] = []
    /// The Request whose `Response` the start waits for, and the step it answers.
    private var awaited: (path: String, step: Step)?
    /// The session being started.
    private var startingSession: String?
    /// The portal's unique name, from its first answer: only it sends the signals heeded.
    private var portalOwner: String?
    private var version: UInt32 = 0
    /// Whether the restore token went with this session's `SelectDevices`.
    private var offeredToken = false
    /// Set when the portal refused the kept token in this start: it is not offered again.
    private var tokenRefused = false
    private var tokenCount = 0
    /// The chord's key calls not sent yet, with their session.
    private var queuedKeys: [(String, BusMessage)] = []
    /// True while a key call awaits its answer.
    private var keyInFlight = false
    private var matched = false

    /// Makes the portal client on `bus`, keeping its restore token in `tokenFile` (nil: none
    /// kept, every daemon asks anew), its first call made once `registration` has answered;
    /// an idle session is closed `idleMilliseconds` after its last use on `clock`
    /// (monotonic milliseconds).
    public init(
        bus: BusConnection, tokenFile: RestoreTokenFile?, registration: PortalHostRegistration,
        clock: @escaping () -> UInt64, idleMilliseconds: Int
    ) {
        self.bus = bus
        self.tokenFile = tokenFile
        self.registration = registration
        self.clock = clock
        self.idleMilliseconds = idleMilliseconds
        bus.addSignalHandler { [weak self] message in self?.receive(message) }
    }

    /// The portal in words, for the log.
    public var summary: String {
        "the RemoteDesktop portal for Wayland windows (consent asked at the first paste; token in "
            + "\(tokenFile?.path ?? "no file"); the session closed after \(idleMilliseconds) ms without a paste "
            + "where the portal keeps the consent, version 2 or later)"
    }

    /// Whether a closed session can be opened again without a dialog.
    private var canRestore: Bool { version >= 2 && tokenKept && tokenFile != nil }

    // MARK: - PollSource

    /// None: the portal's answers come on the bus.
    public var pollDescriptor: Int32? { nil }

    /// Closes the session when it was idle long enough and the consent can be restored;
    /// notes once that it is kept where it cannot.
    public func process(now: UInt64) {
        guard case .started(let session) = state else { return }
        let busy = keyInFlight || !queuedKeys.isEmpty || !waiters.isEmpty
        switch idle.verdict(
            now: now, idleMilliseconds: idleMilliseconds, canRestore: canRestore, busy: busy)
        {
        case .wait: break
        case .close:
            Log.line(
                "the RemoteDesktop portal session \(session) is closed after \(idleMilliseconds) ms without a "
                    + "paste; the next paste opens another with the kept consent")
            close(session)
            state = .idle
        case .keep:
            let why =
                version >= 2
                ? "no restore token is kept (see the warnings above)"
                : "the portal (version \(version)) keeps no consent"
            Log.line(
                "the RemoteDesktop portal session \(session) is kept open after \(idleMilliseconds) ms without a "
                    + "paste: \(why), and another session would ask again")
        }
    }

    /// When the idle session is due to be closed (or, once, noted as kept).
    public func nextDeadline() -> UInt64? {
        guard case .started = state else { return nil }
        return idle.deadline(idleMilliseconds: idleMilliseconds, canRestore: canRestore)
    }

    /// Calls `ready` with nil once the session is started (at once when it is), or with why
    /// nothing can type; starts the session when there is none.
    public func whenStarted(_ ready: @escaping (NoPasteTarget?) -> Void) {
        switch state {
        case .started:
            idle.used(at: clock())
            ready(nil)
        case .refused(let reason): ready(NoPasteTarget(reason))
        case .starting: waiters.append(ready)
        case .idle:
            waiters.append(ready)
            tokenRefused = false
            begin()
        }
    }

    /// Types `chord` through the session: each key's press, then the releases in reverse.
    ///
    /// The keys go one call at a time, each after the portal answered the one before:
    /// xdg-desktop-portal handles its callers' calls in worker threads, so calls sent
    /// together reach the desktop in any order (measured: the Ctrl of Ctrl+V lost, a "v"
    /// released before it was pressed, repeating). The portal forwards a key before it
    /// answers. A refused key drops the session, so that the next paste starts another.
    /// The person's held modifiers are not pressed again: the portal keeps its keyboard apart.
    public func type(_ chord: KeyChord) throws {
        guard case .started(let session) = state else {
            throw NoPasteTarget(
                "the desktop's remote-desktop session ended before the paste chord; paste again")
        }
        idle.used(at: clock())
        let keys = chord.modifiers + [chord.key]
        let events = keys.map { ($0, true) } + keys.reversed().map { ($0, false) }
        for (keysym, pressed) in events {
            let message = try BusMessage.methodCall(
                destination: Self.busName, path: PortalCalls.objectPath, interface: Self.interface,
                member: "NotifyKeyboardKeysym")
            try message.append([
                .objectPath(session), PortalCalls.options([]), .int32(Int32(truncatingIfNeeded: keysym)),
                .uint32(pressed ? 1 : 0),
            ])
            queuedKeys.append((session, message))
        }
        sendNextKey()
    }

    /// Sends the first queued key unless one is awaiting its answer.
    private func sendNextKey() {
        guard !keyInFlight, !queuedKeys.isEmpty else { return }
        let (session, message) = queuedKeys.removeFirst()
        do {
            try bus.call(message, timeoutMilliseconds: PortalCalls.callTimeoutMilliseconds) {
                [weak self] result in
                guard let self else { return }
                self.keyInFlight = false
                if case .failure(let error) = result {
                    Log.line(
                        "the portal refused a key of the paste chord: \(error); the session is dropped",
                        level: .warning)
                    self.queuedKeys.removeAll()
                    return self.drop(session)
                }
                self.sendNextKey()
            }
            keyInFlight = true
        } catch {
            Log.line(
                "a key of the paste chord was not sent: \(error); the session is dropped", level: .warning)
            queuedKeys.removeAll()
            drop(session)
        }
    }

    // MARK: - Start

    private func begin() {
        state = .starting
        offeredToken = false
        registration.whenRegistered { [weak self] in self?.askVersion() }
    }

    private func askVersion() {
        do {
            try matchSignals()
            let message = try BusMessage.methodCall(
                destination: Self.busName, path: PortalCalls.objectPath,
                interface: "org.freedesktop.DBus.Properties",
                member: "Get")
            try message.append([.string(Self.interface), .string("version")])
            try bus.call(message, timeoutMilliseconds: PortalCalls.callTimeoutMilliseconds) {
                [weak self] result in
                self?.versionAnswered(result)
            }
        } catch {
            finish(NoPasteTarget("the RemoteDesktop portal could not be asked: \(error)"))
        }
    }

    private func versionAnswered(_ result: Result<BusMessage, BusError>) {
        switch result {
        case .success(let reply):
            guard case .variant(.uint32(let version))? = try? reply.readValues().first else {
                return finish(
                    NoPasteTarget("the desktop portal answered its RemoteDesktop version with no number"))
            }
            self.version = version
            portalOwner = reply.sender
            ask(.createSession, [])
        case .failure(let error):
            finish(NoPasteTarget(Self.unreachableReason(error)))
        }
    }

    /// Calls `step` with `arguments` and its options, awaiting the Response at the predicted
    /// path.
    private func ask(_ step: Step, _ arguments: [BusValue], options extra: [(String, BusValue)] = []) {
        tokenCount += 1
        let token = "cliptab\(tokenCount)"
        var options = extra
        if step == .createSession {
            options.append(("session_handle_token", .string(token)))
        }
        do {
            let path = try PortalCalls.ask(
                bus, interface: Self.interface, member: step.rawValue, arguments: arguments, token: token,
                options: options
            ) { [weak self] result in
                guard let self, let awaited = self.awaited, awaited.step == step else { return }
                switch result {
                case .success(let reply):
                    if let named = reply.named, named != awaited.path { self.awaited = (named, step) }
                case .failure(let error):
                    self.finish(NoPasteTarget("the RemoteDesktop portal refused \(step.rawValue): \(error)"))
                }
            }
            awaited = (path, step)
        } catch {
            finish(NoPasteTarget("the RemoteDesktop portal could not be asked to \(step.rawValue): \(error)"))
        }
    }

    /// Takes the step's Response: 0 goes on, 1 is the person's refusal, 2 any other end.
    private func answered(_ step: Step, code: UInt32, results: BusValue) {
        guard code == 0 else {
            if code == 1 && step == .start {
                let reason =
                    "you refused to let cliptabd type in the desktop's remote-desktop dialog, so it cannot type into "
                    + "Wayland windows: press Ctrl+V (Ctrl+Shift+V in a terminal) yourself, or restart cliptabd "
                    + "to be asked again"
                // The portal closes the session itself; its Closed signal must not undo this.
                startingSession = nil
                // A dialog shown although the token went along: the portal no longer honours it.
                if offeredToken { tokenFile?.remove() }
                state = .refused(reason)
                Log.line("no remote-desktop session: \(reason)", level: .warning)
                return finishWaiters(NoPasteTarget(reason))
            }
            if offeredToken { return startAgainWithoutToken(step, code: code) }
            return finish(
                NoPasteTarget(
                    "the desktop's RemoteDesktop portal ended \(step.rawValue) (response \(code)), so cliptabd cannot "
                        + "type into Wayland windows: press Ctrl+V yourself"))
        }
        switch step {
        case .createSession:
            guard let session = PortalCalls.entry("session_handle", in: results) else {
                return finish(NoPasteTarget("the RemoteDesktop portal named no session"))
            }
            startingSession = session
            var options: [(String, BusValue)] = [("types", .uint32(Self.keyboard))]
            if version >= 2 {
                options.append(("persist_mode", .uint32(Self.persistUntilRevoked)))
                if let token = keptToken() {
                    options.append(("restore_token", .string(token)))
                    offeredToken = true
                }
            }
            ask(.selectDevices, [.objectPath(session)], options: options)
        case .selectDevices:
            guard let session = startingSession else { return }
            ask(.start, [.objectPath(session), .string("")])
        case .start:
            guard let session = startingSession else { return }
            if case .variant(.uint32(let devices))? = PortalCalls.value("devices", in: results),
                devices & Self.keyboard == 0
            {
                return finish(
                    NoPasteTarget(
                        "the desktop started the remote-desktop session without a keyboard, so cliptabd cannot type: "
                            + "press Ctrl+V yourself"))
            }
            if let token = PortalCalls.entry("restore_token", in: results) {
                do {
                    try tokenFile?.write(token)
                    tokenKept = tokenFile != nil
                } catch {
                    tokenKept = false
                    Log.line("\(error.message); the next daemon asks for consent again", level: .warning)
                }
            }
            startingSession = nil
            state = .started(session: session)
            idle.used(at: clock())
            Log.line("the RemoteDesktop portal session \(session) is started (portal version \(version))")
            finishWaiters(nil)
        }
    }

    private func keptToken() -> String? {
        guard !tokenRefused else { return nil }
        do {
            return try tokenFile?.read()
        } catch {
            Log.line(error.message + "; the desktop asks for consent again", level: .warning)
            return nil
        }
    }

    /// The portal ended `step` of a start that offered the kept token: the token is removed
    /// (it serves once, or the person revoked the grant) and the start begins again without
    /// it, once, which asks for consent; a refused token kept would fail every later paste.
    private func startAgainWithoutToken(_ step: Step, code: UInt32) {
        Log.line(
            "the RemoteDesktop portal ended \(step.rawValue) (response \(code)) with the kept restore token; "
                + "the token is removed and the session started again without it",
            level: .warning)
        tokenFile?.remove()
        tokenRefused = true
        awaited = nil
        if let session = startingSession { close(session) }
        startingSession = nil
        begin()
    }

    /// Ends a start that failed: back to idle, so that the next paste tries again.
    private func finish(_ refusal: NoPasteTarget) {
        awaited = nil
        if let session = startingSession { close(session) }
        startingSession = nil
        state = .idle
        Log.line("no remote-desktop session: \(refusal.reason)", level: .warning)
        finishWaiters(refusal)
    }

    private func finishWaiters(_ refusal: NoPasteTarget?) {
        let ready = waiters
        waiters = []
        for waiter in ready { waiter(refusal) }
    }

    /// Drops `session` (closed, or broken): the next paste starts another.
    private func drop(_ session: String) {
        guard case .started(let current) = state, current == session else { return }
        state = .idle
        Log.line("the RemoteDesktop portal session \(session) ended; the next paste starts another")
    }

    /// Asks the portal to close `session`, without waiting.
    private func close(_ session: String) {
        PortalCalls.close(session, on: bus)
    }

    // MARK: - Signals

    /// Adds the match rules of the portal's answers to this connection, once, without
    /// waiting: the bus daemon handles them before the calls sent after them.
    private func matchSignals() throws {
        guard !matched else { return }
        try PortalCalls.addMatches(PortalCalls.answerRules(bus), on: bus)
        matched = true
    }

    private func receive(_ message: BusMessage) {
        if PortalCalls.isDeparture(of: portalOwner, message) {
            // The portal left the bus: its sessions went with it, and a start under way
            // will get no answer.
            portalOwner = nil
            registration.portalLeft()
            if case .started(let session) = state { drop(session) }
            if case .starting = state {
                finish(NoPasteTarget("the desktop portal left the bus before it answered; paste again"))
            }
            return
        }
        guard let owner = portalOwner, message.sender == owner else { return }
        if message.interface == PortalCalls.requestInterface, message.member == "Response",
            let awaited, message.path == awaited.path
        {
            self.awaited = nil
            guard let (code, results) = PortalCalls.response(message) else {
                return finish(
                    NoPasteTarget("the RemoteDesktop portal answered \(awaited.step.rawValue) unreadably"))
            }
            answered(awaited.step, code: code, results: results)
        } else if message.interface == PortalCalls.sessionInterface, message.member == "Closed",
            let path = message.path
        {
            drop(path)
            if path == startingSession {
                finish(NoPasteTarget("the desktop closed the remote-desktop session before it started"))
            }
        }
    }

    // MARK: - Values

    /// Why the portal's version could not be read, in words a person can act on.
    private static func unreachableReason(_ error: BusError) -> String {
        switch error.name {
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner":
            return
                "no desktop portal answers on the session bus (\(busName)), so cliptabd cannot type into Wayland "
                + "windows: install xdg-desktop-portal with your desktop's backend (xdg-desktop-portal-gnome or "
                + "-kde), or press Ctrl+V yourself"
        case BusErrorName.invalidArgs, BusErrorName.unknownInterface, BusErrorName.unknownProperty:
            return
                "the desktop portal offers no RemoteDesktop (a sandbox, or a desktop without one), so cliptabd "
                + "cannot type into Wayland windows: press Ctrl+V yourself"
        default:
            return
                "the desktop portal did not answer (\(error)), so cliptabd cannot type: press Ctrl+V yourself"
        }
    }
}
