// SPDX-License-Identifier: MIT
import CliptabContract
import CliptabCore
import DBus

/// GNOME Shell's `org.gnome.Shell.SearchProvider2`, served at
/// `DesktopSearchBus.searchProviderPath`: the shell calls it as the user types in the
/// overview, shows the results under cliptab's name, and activates the one chosen.
///
/// A foreign interface: its names and signatures are GNOME's (gnome-shell
/// `data/dbus-interfaces/org.gnome.Shell.SearchProvider2.xml`).
public struct SearchProviderInterface {
    private let search: DesktopSearch

    /// Makes the interface over `search`.
    public init(search: DesktopSearch) { self.search = search }

    /// The interface with its handlers.
    public func makeInterface() -> BusInterface {
        let search = self.search
        return BusInterface(
            name: DesktopSearchBus.searchProviderInterface,
            methods: [
                BusMethod(
                    name: "GetInitialResultSet", inArguments: [arg("terms", "as")],
                    outArguments: [arg("results", "as")]
                ) { call in
                    .values([
                        Self.identifiers(try search.find(words: CallArguments(call.arguments).strings(0)))
                    ])
                },
                // The previous results were capped: a search anew finds rows they did not hold.
                BusMethod(
                    name: "GetSubsearchResultSet",
                    inArguments: [arg("previous_results", "as"), arg("terms", "as")],
                    outArguments: [arg("results", "as")]
                ) { call in
                    .values([
                        Self.identifiers(try search.find(words: CallArguments(call.arguments).strings(1)))
                    ])
                },
                BusMethod(
                    name: "GetResultMetas", inArguments: [arg("identifiers", "as")],
                    outArguments: [arg("metas", "aa{sv}")]
                ) { call in
                    let hits = try search.hits(CallArguments(call.arguments).strings(0))
                    return .values([.array(elementSignature: "a{sv}", hits.map(Self.meta))])
                },
                BusMethod(
                    name: "ActivateResult",
                    inArguments: [arg("identifier", "s"), arg("terms", "as"), arg("timestamp", "u")]
                ) { call in
                    try search.activate(CallArguments(call.arguments).string(0)) { result in
                        switch result {
                        case .success: try? call.reply([])
                        case .failure(let error): try? call.replyError(error)
                        }
                    }
                    return .deferred
                },
                BusMethod(name: "LaunchSearch", inArguments: [arg("terms", "as"), arg("timestamp", "u")]) {
                    call in
                    try search.launch(CallArguments(call.arguments).strings(0))
                    return .empty
                },
            ])
    }

    /// The results' identifiers, as the shell gets them.
    static func identifiers(_ hits: [SearchHit]) -> BusValue { strings(hits.map(\.id.description)) }

    /// What the shell shows of a result: its name (the row's name, a mask, or its first
    /// line) and its description (`table › header`); never a secret row's text.
    static func meta(_ hit: SearchHit) -> BusValue {
        .dictionary(
            keySignature: "s", valueSignature: "v",
            [
                (.string("id"), .variant(.string(hit.id.description))),
                (.string("name"), .variant(.string(hit.title))),
                (.string("description"), .variant(.string(hit.subtitle))),
            ])
    }
}
