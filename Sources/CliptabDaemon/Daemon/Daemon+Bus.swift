// SPDX-License-Identifier: MIT
import CliptabContract
import CliptabCore
import DBus

/// The bus: the objects served on it, the callers leaving it, and the name.
extension Daemon {
    /// Registers the objects serving `services` on `bus`: the main interface, and the
    /// desktops' own search (GNOME Shell's search provider, KRunner's runner).
    func register(_ services: DaemonServices, on bus: BusConnection) throws(StartFailure) {
        let objects = [
            (CliptabBus.path, CliptabInterface(services: services).makeInterface()),
            (
                DesktopSearchBus.searchProviderPath,
                SearchProviderInterface(search: services.search).makeInterface()
            ),
            (DesktopSearchBus.runnerPath, KRunnerInterface(search: services.search).makeInterface()),
        ]
        for (path, interface) in objects {
            try step("Failed to register \(path)") {
                try bus.registerObject(path: path, interfaces: [interface])
            }
        }
    }

    /// The limit of array elements per call: more than any call on the largest table
    /// `limits` allow needs is refused before it is decoded.
    static func elementLimit(_ limits: Limits) -> BusElementLimit {
        // No call needs more elements than two arrays as long as the largest table (DeleteRows).
        let rows = limits.maxRowsPerTable
        return BusElementLimit(maximum: 2 * rows + 16) { limit in
            CliptabError(
                .limitExceeded,
                "the call carries more than \(limit) array elements in all, more than any call on a table of at most \(rows) rows needs; send fewer"
            )
        }
    }

    /// Tells the clipboard when a caller leaves the bus, so that a paste it asked for and
    /// no longer waits for never types.
    func watchCallers(on bus: BusConnection, clipboard: ClipboardPolicy) throws(StartFailure) {
        try step("Failed to watch for callers leaving the bus") {
            // Only names that lost their owner: the bus sends nothing for names taken.
            try bus.addMatch(
                "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
                    + "member='NameOwnerChanged',arg2=''")
        }
        bus.addSignalHandler { message in
            // A forged copy sent straight to us comes from a client's name, not the bus.
            guard message.member == "NameOwnerChanged", message.interface == "org.freedesktop.DBus",
                message.sender == "org.freedesktop.DBus",
                let values = try? message.readValues(), values.count == 3,
                case .string(let name) = values[0], case .string("") = values[2], name.hasPrefix(":")
            else { return }
            clipboard.callerGone(name)
        }
    }

    /// Takes the bus name (`--replace`: from a running daemon) and stops when another
    /// daemon takes it over later.
    func ownName(on bus: BusConnection) throws(StartFailure) {
        // With allowReplacement, a `cliptabd --replace` takes the name: this one then stops.
        bus.addSignalHandler { [unowned self] message in
            if message.member == "NameLost" && message.interface == "org.freedesktop.DBus",
                (try? message.readValues()) == [.string(CliptabBus.name)]
            {
                replaced = true
            }
        }
        let result = try step("Failed to request the name \(CliptabBus.name)") {
            try bus.requestName(
                CliptabBus.name, replaceExisting: options.replace, allowReplacement: true, doNotQueue: true)
        }
        switch result {
        case .primaryOwner, .alreadyOwner:
            break
        case .exists, .inQueue:
            let owner = NameOwner.of(CliptabBus.name, on: bus)
            if owner.isCliptabd || owner.pid == nil {
                throw StartFailure(
                    "another cliptabd (\(owner.description)) already owns \(CliptabBus.name) on this bus; stop it, or start with --replace to take over"
                )
            }
            throw StartFailure(
                "\(owner.description) owns \(CliptabBus.name) on this bus and is not a cliptabd; stop that program (or start cliptabd with --replace to take the name from it)",
                exitStatus: Self.nameTakenExitStatus)
        }
    }

    /// Runs one step of the start; a failure becomes "`failure`: the error".
    func step<T>(_ failure: String, _ body: () throws -> T) throws(StartFailure) -> T {
        do {
            return try body()
        } catch {
            throw StartFailure("\(failure): \(error)")
        }
    }
}
