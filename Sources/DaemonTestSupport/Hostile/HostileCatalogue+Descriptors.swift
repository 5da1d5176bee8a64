// SPDX-License-Identifier: MIT
import CliptabContract
import TestSupport

/// Calls that carry Unix file descriptors, which no method of cliptabd takes.
extension HostileCatalogue {
    /// The calls of the descriptor flood, and the descriptors each carries.
    static let descriptorCalls = 3_000
    /// The descriptors of one call: as many as dbus-daemon's session bus lets through.
    static let descriptorsPerCall = 16
    /// How many calls the flood keeps in flight: enough to pile up far more descriptors than
    /// the daemon's soft limit of 1,024 (100 calls of 16 ended it).
    static let descriptorWindow = 300

    /// `GetCell` calls, each carrying 16 descriptors of /dev/null, 300 in flight, sent
    /// through the bus by a GLib client (`DescriptorFlood`).
    static var descriptors: [HostileCase] {
        [
            HostileCase(
                "\(descriptorCalls) calls × \(descriptorsPerCall) descriptors", largestMessageBytes: 0
            ) { context in
                let sender = try context.spawnXClient(
                    DescriptorFlood.python,
                    DescriptorFlood.arguments(
                        address: context.daemon.bus.address, destination: CliptabBus.name,
                        path: CliptabBus.path,
                        interface: CliptabBus.interface, member: "GetCell", body: "('probe', 0, 0)",
                        calls: descriptorCalls, perCall: descriptorsPerCall, window: descriptorWindow))
                defer { sender.terminate(graceMilliseconds: 1000) }
                return sender.readLine(timeoutMilliseconds: 300_000) ?? "failed: the sender said nothing"
            }
        ]
    }
}
