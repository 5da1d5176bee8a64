// SPDX-License-Identifier: MIT

/// The keys of `[keys]`: the binder the session allows, and the states it reports.
extension Daemon {
    /// Makes the key service with the binder the session allows, and binds the keys of
    /// `configuration`; returns the binder's poll source, if it has one.
    func startKeys(_ configuration: DaemonConfiguration, service: ClipboardService, board: BoundKeys)
        -> PollSource?
    {
        let route = SessionPlan(environment: environment, choice: configuration.backend).keys
        var source: PollSource?
        let launcher = keyLauncher
        let keys = KeyService(
            service: service, board: board, launch: { try launcher.open(arguments: $0) },
            unboundReason: { route.unboundReason(for: $0) }
        ) { events in
            let binder: KeyBinder?
            switch route {
            case .grab(let display): binder = X11KeyBinder(display: display, events: events)
            case .sway(let socket): binder = SwayKeyBinder(socket: socket, events: events)
            case .globalShortcuts:
                // The desktop answers later (after its dialog): its states replace the
                // "not bound yet" that `bind` gave.
                binder = bus.map { bus in
                    GlobalShortcutsBinder(
                        bus: bus, registration: hostRegistration(on: bus), events: events,
                        states: { [weak self] states in self?.desktopBound(states, on: board) })
                }
            case .none: binder = nil
            }
            source = binder as? PollSource
            return binder
        }
        keyService = keys
        logUnbound(keys.apply(configuration.keys))
        return source
    }

    /// Takes the states the desktop's shortcuts portal gave the keys, logging those it did
    /// not bind.
    private func desktopBound(_ states: [String: KeyBindingState], on board: BoundKeys) {
        logUnbound(board.update(states))
    }

    /// Logs the keys that could not be bound, each once.
    func logUnbound(_ lines: [String]) {
        for line in lines { Log.line(line, level: .warning) }
    }
}
