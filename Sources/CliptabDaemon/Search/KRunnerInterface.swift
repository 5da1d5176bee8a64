// SPDX-License-Identifier: MIT
import CliptabContract
import CliptabCore
import DBus

/// KRunner's D-Bus runner interface `org.kde.krunner1`, served at
/// `DesktopSearchBus.runnerPath`: Plasma's search (KRunner, the launcher's search) calls
/// `Match` as the user types, and `Run` with the match and the action chosen.
///
/// A foreign interface: its names and signatures are KDE's (krunner
/// `src/data/org.kde.krunner1.xml`).
public struct KRunnerInterface {
    /// The actions a match offers besides its default (`[search] activate`).
    public static let actions: [(id: String, text: String, icon: String)] = [
        ("copy", "Copy to the clipboard", "edit-copy"),
        ("paste", "Paste into the focused window", "edit-paste"),
    ]

    /// KRunner's `QueryMatch::Type` of every match: a possible match.
    static let possibleMatch: Int32 = 30

    private let search: DesktopSearch

    /// Makes the interface over `search`.
    public init(search: DesktopSearch) { self.search = search }

    /// The interface with its handlers.
    public func makeInterface() -> BusInterface {
        BusInterface(
            name: DesktopSearchBus.runnerInterface, methods: Self.methods.map { $0.bound(to: search) })
    }

    /// Every method of the interface.
    static var methods: [InterfaceMethod<DesktopSearch>] {
        [
            .immediate("Actions", [], [arg("matches", "a(sss)")]) { _, _ in
                [
                    .array(
                        elementSignature: "(sss)",
                        actions.map { .structure([.string($0.id), .string($0.text), .string($0.icon)]) })
                ]
            },
            .immediate("Match", [arg("query", "s")], [arg("matches", "a(sssida{sv})")]) { search, a in
                let hits = search.find(try SearchTerms(query: a.string("query")))
                return [
                    .array(
                        elementSignature: "(sssida{sv})",
                        hits.enumerated().map { match($1, rank: $0, of: hits.count) })
                ]
            },
            .deferredReply(
                "Run", [arg("matchId", "s"), arg("actionId", "s")], [], encode: { (_: Void) in [] }
            ) {
                search, a, done in
                try search.activate(
                    a.string("matchId"), as: activation(a.string("actionId")), completion: done)
            },
            // Plasma 5 calls it when the search closes; nothing is kept between searches.
            .immediate("Teardown", [], []) { _, _ in [] },
        ]
    }

    /// The activation `action` names: nil (`[search] activate`) for none.
    static func activation(_ action: String) throws -> SearchSettings.Activation? {
        if action.isEmpty { return nil }
        guard let chosen = SearchSettings.Activation(rawValue: action) else {
            throw CliptabError(
                .invalidArgument,
                "unknown action \"\(action.prefix(80))\"; the actions are copy and paste (or none: [search] activate)"
            )
        }
        return chosen
    }

    /// One match: identifier, text, icon, type, relevance (named rows and earlier rows
    /// higher) and properties (`subtext`: `table › header`; `actions`: copy and paste).
    static func match(_ hit: SearchHit, rank: Int, of count: Int) -> BusValue {
        let properties: [(BusValue, BusValue)] = [
            (.string("subtext"), .variant(.string(hit.subtitle))),
            (.string("actions"), .variant(strings(actions.map(\.id)))),
        ]
        return .structure([
            .string(hit.id.description), .string(hit.title), .string("edit-paste"), .int32(possibleMatch),
            .double(1 - Double(rank) / Double(count + 1)),
            .dictionary(keySignature: "s", valueSignature: "v", properties),
        ])
    }
}
