// SPDX-License-Identifier: MIT
import DBus

/// cliptabd's app id told to xdg-desktop-portal's host registry
/// (`org.freedesktop.host.portal.Registry.Register`), once per bus connection and before any
/// other portal call on it, where the portal offers the registry.
///
/// A program outside a sandbox has no app id the portal can see; newer portals (1.19.4 and
/// later) take one from this call, must have it before the connection's first portal call,
/// and refuse some sessions without it (GlobalShortcuts). Every portal client of the daemon's
/// connection (the RemoteDesktop session, the GlobalShortcuts binder) waits for it through
/// the one registration, so the call is made once. A portal without the registry (1.16, as
/// Debian 12's) answers that the method is unknown: the clients go on without an app id.
public final class PortalHostRegistration {
    /// The app id, the basename of the installed `.desktop` file.
    public static let appID = "io.github.cliptab.Cliptab"
    /// The registry's interface, on the portal's object.
    static let interface = "org.freedesktop.host.portal.Registry"

    private enum State {
        case notAsked
        case asking
        case answered
    }

    private let bus: BusConnection
    private var state = State.notAsked
    private var waiters: [() -> Void] = []

    /// What the registry answered, for the log and `cliptab status`: nil until it did.
    public private(set) var outcome: String?

    /// Makes the registration of `bus`'s connection.
    public init(bus: BusConnection) {
        self.bus = bus
    }

    /// Forgets the registry's answer, the portal that gave it having left the bus.
    ///
    /// A portal started again knows no app id of this connection, so the next
    /// `whenRegistered` registers anew before the client's first call to it. A call under
    /// way is left to its answer.
    public func portalLeft() {
        if case .answered = state { state = .notAsked }
    }

    /// Runs `next` once the registry has answered (at once when it has): registered, not
    /// offered, or failed; the portal call that follows is made either way.
    public func whenRegistered(_ next: @escaping () -> Void) {
        switch state {
        case .answered: next()
        case .asking: waiters.append(next)
        case .notAsked:
            waiters.append(next)
            register()
        }
    }

    private func register() {
        state = .asking
        do {
            let message = try BusMessage.methodCall(
                destination: PortalCalls.busName, path: PortalCalls.objectPath,
                interface: Self.interface, member: "Register")
            try message.append([.string(Self.appID), PortalCalls.options([])])
            try bus.call(message, timeoutMilliseconds: PortalCalls.callTimeoutMilliseconds) {
                [weak self] result in
                switch result {
                case .success: self?.answered("registered as \(Self.appID)")
                case .failure(let error): self?.answered(Self.describe(error))
                }
            }
        } catch {
            answered("not registered: the call could not be made (\(error))")
        }
    }

    private func answered(_ outcome: String) {
        self.outcome = outcome
        state = .answered
        Log.line("desktop portal host registry: \(outcome)", level: .debug)
        let ready = waiters
        waiters = []
        for waiter in ready { waiter() }
    }

    /// The outcome of a registration the portal did not take, in words.
    private static func describe(_ error: BusError) -> String {
        switch error.name {
        case BusErrorName.unknownMethod, BusErrorName.unknownInterface,
            "org.freedesktop.DBus.Error.UnknownObject":
            return "not offered (a portal older than 1.19.4); portal calls go without an app id"
        default:
            return "not registered (\(error)); portal calls go without an app id"
        }
    }
}
