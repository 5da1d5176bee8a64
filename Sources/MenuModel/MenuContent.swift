// SPDX-License-Identifier: MIT

/// The lines a menu level shows, before filtering; a table's rows may be fetched lazily.
public protocol MenuContent: AnyObject {
    /// How many lines there are.
    var count: Int { get }
    /// What line `index` is, without fetching its text.
    func kind(at index: Int) -> MenuLineKind
    /// The section line `index` belongs to (never fetches).
    func section(at index: Int) -> Int
    /// Line `index` (fetching its page when it is not there yet).
    func line(at index: Int) -> MenuLine
    /// Whether line `index` passes `needle` (already lowercased); titles are judged by the list.
    func matches(_ index: Int, _ needle: String) -> Bool
    /// Fetches every line at once, before a filter looks at them all.
    func loadAll()
}

/// A fixed list of choices: tables, actions.
public final class ChoiceContent: MenuContent {
    private let lines: [MenuLine]
    private let folded: [String]

    /// Makes one choice line per text, in order.
    public init(_ texts: [String]) {
        lines = texts.enumerated().map { MenuLine(kind: .choice, text: $0.element, row: $0.offset) }
        folded = texts.map { $0.lowercased() }
    }

    /// How many choices there are.
    public var count: Int { lines.count }
    /// Always `.choice`.
    public func kind(at index: Int) -> MenuLineKind { .choice }
    /// Always 0: choices have no sections.
    public func section(at index: Int) -> Int { 0 }
    /// The choice at `index`.
    public func line(at index: Int) -> MenuLine { lines[index] }
    /// Whether the choice's text contains `needle`.
    public func matches(_ index: Int, _ needle: String) -> Bool { folded[index].contains(needle) }
    /// Nothing to fetch.
    public func loadAll() {}
}
