// SPDX-License-Identifier: MIT
import CliptabCore

/// What the desktops' search interfaces (GNOME Shell's search provider, KRunner's runner)
/// do over the daemon's service: find rows for a search's terms, describe results, and
/// paste or copy the one activated.
///
/// Every call is bounded: a search spends one `MatchBudget` of `SnippetSearch.defaultSteps`
/// and returns at most `[search] max_results` rows; describing results spends one too.
public final class DesktopSearch {
    /// The most identifiers one call may ask about: more than any search returns.
    public static let maxIdentifiers = 1_000

    private let service: ClipboardService
    /// The `[search]` settings in force; a reload puts new ones here.
    public var settings: SearchSettings
    /// Opens `cliptab menu` for a search's terms and its first result's table (nil: none).
    private let openMenu: ([String], String?) throws -> Void

    /// Makes the search over `service` with the `[search]` `settings`; `openMenu` opens the
    /// menu for `LaunchSearch`.
    public init(
        service: ClipboardService, settings: SearchSettings,
        openMenu: @escaping ([String], String?) throws -> Void
    ) {
        self.service = service
        self.settings = settings
        self.openMenu = openMenu
    }

    /// The rows matching `terms`, named rows first, at most `max_results`.
    public func find(_ terms: SearchTerms) -> [SearchHit] {
        var budget = MatchBudget(steps: SnippetSearch.defaultSteps)
        let result = SnippetSearch.search(
            service.tables.catalog, terms, limit: settings.maxResults, budget: &budget)
        if !result.complete {
            Log.line(
                "desktop search: the scan budget of \(budget.total) steps ran out; \(result.hits.count) results from the rows seen",
                level: .debug)
        }
        return result.hits
    }

    /// The rows matching the words a desktop sent (each split on blanks).
    public func find(words: [String]) throws -> [SearchHit] { find(try SearchTerms(words)) }

    /// The results `identifiers` name, where their rows are now, in the order asked; an
    /// identifier that names no row (any more) is left out.
    public func hits(_ identifiers: [String]) throws -> [SearchHit] {
        guard identifiers.count <= Self.maxIdentifiers else {
            throw CliptabError(
                .limitExceeded,
                "\(identifiers.count) result identifiers in one call; at most \(Self.maxIdentifiers)")
        }
        var budget = MatchBudget(steps: SnippetSearch.defaultSteps)
        return identifiers.compactMap { text in
            SearchResultID(text).flatMap {
                SnippetSearch.resolve($0, in: service.tables.catalog, budget: &budget)
            }
        }
    }

    /// The row a result identifier names, or `NoSuchRow`.
    public func hit(_ identifier: String) throws -> SearchHit {
        guard SearchResultID(identifier) != nil else {
            throw CliptabError(
                .invalidArgument,
                "\"\(identifier.prefix(80))\" is not a result identifier of cliptab's search (ROW:TABLE:SECTION:KEY)"
            )
        }
        guard let hit = try hits([identifier]).first else {
            throw CliptabError(.noSuchRow, "the row of result \(identifier) is gone")
        }
        return hit
    }

    /// Pastes the result's row into the focused window, or copies it.
    ///
    /// `activation` nil does what `[search] activate` says; a paste the daemon cannot make
    /// (no XTEST, no X display) copies. `completion` runs once the row is on the clipboard
    /// (or the paste is over).
    public func activate(
        _ identifier: String, as activation: SearchSettings.Activation? = nil,
        completion: @escaping (Result<Void, Error>) -> Void
    ) throws {
        let hit = try hit(identifier)
        let copy = { [service] in
            // A template is filled in as by Copy, after a read of the clipboard if it needs one.
            do {
                try service.copy(hit.table, section: hit.section, row: hit.row) {
                    completion($0.map { _ in () })
                }
            } catch {
                completion(.failure(error))
            }
        }
        guard (activation ?? settings.activate) == .paste else { return copy() }
        do {
            try service.pasteToFocus(
                hit.table, section: hit.section, row: hit.row, timeoutMilliseconds: 0, caller: nil
            ) {
                result in
                switch result {
                case .success: completion(.success(()))
                case .failure(let error as CliptabError) where error.code == .clipboardUnavailable: copy()
                case .failure(let error): completion(.failure(error))
                }
            }
        } catch let error as CliptabError where error.code == .clipboardUnavailable {
            copy()
        }
    }

    /// Opens `cliptab menu` for `terms`, on the table of the first row they find.
    public func launch(_ words: [String]) throws {
        let terms = (try? SearchTerms(words)).map { find($0) } ?? []
        try openMenu(words, terms.first?.table)
    }
}
