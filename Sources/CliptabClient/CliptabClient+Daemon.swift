// SPDX-License-Identifier: MIT
import CliptabContract
import DBus

/// The contract's calls about the daemon itself (`docs/dbus-api.md`), one typed method each; where a
/// method answers for more than one call, it falls back to an earlier API version's here.
extension CliptabClient {
    /// `Reload`: the problems found in the configuration.
    public func reload() throws(ClientFailure) -> [String] { try call("Reload").strings(0) }

    /// `org.freedesktop.DBus.Properties.GetAll` of the cliptab interface: each property's
    /// name and value, in the daemon's order.
    public func properties() throws(ClientFailure) -> [(String, BusValue)] {
        let reply = try call(
            "GetAll", [.string(CliptabBus.interface)], interface: "org.freedesktop.DBus.Properties")
        guard case .dictionary(_, _, let entries)? = reply.values.first else {
            throw .unexpectedReply(member: reply.member, BusValueMismatch(index: 0, expected: "a{sv}"))
        }
        var properties: [(String, BusValue)] = []
        for (key, value) in entries {
            guard case .string(let name) = key else { continue }
            if case .variant(let inner) = value {
                properties.append((name, inner))
            } else {
                properties.append((name, value))
            }
        }
        return properties
    }

    /// `org.freedesktop.DBus.Peer.Ping`: whether the daemon answers.
    public func ping() throws(ClientFailure) { try call("Ping", interface: "org.freedesktop.DBus.Peer") }
}
