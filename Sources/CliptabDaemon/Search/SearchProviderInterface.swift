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
        BusInterface(
            name: DesktopSearchBus.searchProviderInterface, methods: Self.methods.map { $0.bound(to: search) }
        )
    }

    /// Every method of the interface.
    static var methods: [InterfaceMethod<DesktopSearch>] {
        [
            .immediate("GetInitialResultSet", [arg("terms", "as")], [arg("results", "as")]) { search, a in
                [identifiers(try search.find(words: a.strings("terms")))]
            },
            // The previous results were capped: a search anew finds rows they did not hold.
            .immediate(
                "GetSubsearchResultSet", [arg("previous_results", "as"), arg("terms", "as")],
                [arg("results", "as")]
            ) { search, a in [identifiers(try search.find(words: a.strings("terms")))] },
            .immediate("GetResultMetas", [arg("identifiers", "as")], [arg("metas", "aa{sv}")]) { search, a in
                [.array(elementSignature: "a{sv}", try search.hits(a.strings("identifiers")).map(meta))]
            },
            .deferredReply(
                "ActivateResult", [arg("identifier", "s"), arg("terms", "as"), arg("timestamp", "u")], [],
                encode: { (_: Void) in [] }
            ) { search, a, done in try search.activate(a.string("identifier"), completion: done) },
            .immediate("LaunchSearch", [arg("terms", "as"), arg("timestamp", "u")], []) { search, a in
                try search.launch(a.strings("terms"))
                return []
            },
        ]
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
