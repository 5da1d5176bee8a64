// SPDX-License-Identifier: MIT
import DBus

/// One key of `[keys]` as the daemon reports it (`KeyBindings`).
public struct KeyBindingStatus: Equatable, Sendable {
    /// The keys (`Super+Alt+I`).
    public let keys: String
    /// The action (`paste snippets sig`).
    public let action: String
    /// The binding's id.
    public let id: String
    /// `grabbed`, `bound-by-desktop`, `bound-in-sway` or `not-bound`.
    public let state: String
    /// The desktop's trigger, or why the key is not bound; empty otherwise.
    public let detail: String
    /// The line for the compositor asked for; empty when none was.
    public let line: String
}

extension CliptabClient {
    /// The keys of `[keys]` and what became of each; with `compositor`, each with the line
    /// of that compositor's configuration binding it (`cliptab keys --print`).
    public func keyBindings(compositor: String? = nil) throws(ClientFailure) -> [KeyBindingStatus] {
        let options =
            compositor.map { [(BusValue.string("compositor"), BusValue.variant(.string($0)))] } ?? []
        let reply = try call("KeyBindings", [.dictionary(keySignature: "s", valueSignature: "v", options)])
        var statuses: [KeyBindingStatus] = []
        for fields in try reply.structures(0, "(ssssss)") {
            let entry = DaemonReply(member: "KeyBindings", values: fields)
            statuses.append(
                KeyBindingStatus(
                    keys: try entry.string(0), action: try entry.string(1), id: try entry.string(2),
                    state: try entry.string(3), detail: try entry.string(4), line: try entry.string(5)))
        }
        return statuses
    }
}
