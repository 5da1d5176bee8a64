// SPDX-License-Identifier: MIT

/// The keys of `[keys]`: the binder the session allows, and the states it reports.
extension Daemon {
    /// The key service over `service`, with the binder the session allows (keeping the
    /// states on `board`); `DaemonServices` binds the keys of the configuration.
    func makeKeys(_ configuration: DaemonConfiguration, service: ClipboardService, board: BoundKeys)
        -> KeyService
    {
        let route = SessionPlan(environment: environment, choice: configuration.backend).keys
        let launcher = keyLauncher
        return KeyService(
            service: service, board: board, launch: { try launcher.open(arguments: $0) },
            unboundReason: { route.unboundReason(for: $0) }
        ) { events in
            switch route {
            case .grab(let display): return X11KeyBinder(display: display, events: events)
            case .sway(let socket): return SwayKeyBinder(socket: socket, events: events)
            case .globalShortcuts:
                // The desktop answers later (after its dialog): its states replace the
                // "not bound yet" that `bind` gave.
                return bus.map { bus in
                    GlobalShortcutsBinder(
                        bus: bus, registration: hostRegistration(on: bus), events: events,
                        states: { states in
                            for line in board.update(states) { Log.line(line, level: .warning) }
                        })
                }
            case .none: return nil
            }
        }
    }
}
