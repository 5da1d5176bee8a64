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
        let search = self.search
        return BusInterface(
            name: DesktopSearchBus.runnerInterface,
            methods: [
                BusMethod(name: "Actions", outArguments: [arg("matches", "a(sss)")]) { _ in
                    let actions = Self.actions.map {
                        BusValue.structure([.string($0.id), .string($0.text), .string($0.icon)])
                    }
                    return .values([.array(elementSignature: "(sss)", actions)])
                },
                BusMethod(
                    name: "Match", inArguments: [arg("query", "s")],
                    outArguments: [arg("matches", "a(sssida{sv})")]
                ) { call in
                    let hits = search.find(try SearchTerms(query: CallArguments(call.arguments).string(0)))
                    return .values([
                        .array(
                            elementSignature: "(sssida{sv})",
                            hits.enumerated().map { Self.match($1, rank: $0, of: hits.count) })
                    ])
                },
                BusMethod(name: "Run", inArguments: [arg("matchId", "s"), arg("actionId", "s")]) { call in
                    let arguments = CallArguments(call.arguments)
                    let action = try arguments.string(1)
                    let activation: SearchSettings.Activation?
                    if action.isEmpty {
                        activation = nil
                    } else if let chosen = SearchSettings.Activation(rawValue: action) {
                        activation = chosen
                    } else {
                        throw CliptabError(
                            .invalidArgument,
                            "unknown action \"\(action.prefix(80))\"; the actions are copy and paste (or none: [search] activate)"
                        )
                    }
                    try search.activate(try arguments.string(0), as: activation) { result in
                        switch result {
                        case .success: try? call.reply([])
                        case .failure(let error): try? call.replyError(error)
                        }
                    }
                    return .deferred
                },
                // Plasma 5 calls it when the search closes; nothing is kept between searches.
                BusMethod(name: "Teardown") { _ in .empty },
            ])
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
