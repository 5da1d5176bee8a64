// SPDX-License-Identifier: MIT

/// The terms of one desktop search (GNOME Shell's search provider, KRunner): lowercased, each
/// to be found in a row's text, its name or its section's header.
///
/// Bounded so that no caller can make one row test expensive: at most `maxTerms` terms of
/// at most `maxBytes` bytes in all.
public struct SearchTerms: Sendable, Equatable {
    /// The most terms one search may have.
    public static let maxTerms = 32
    /// The most bytes all the terms of one search may have together.
    public static let maxBytes = 1024

    /// The terms, lowercased, as UTF-8; none is empty.
    public let terms: [[UInt8]]

    /// Terms from the words a caller sent (GNOME Shell sends the query split on blanks);
    /// each word is split again on blanks and lowercased, and empty ones are dropped.
    ///
    /// Throws `invalidArgument` for more than `maxTerms` terms or `maxBytes` bytes.
    public init(_ words: [String]) throws(CliptabError) {
        var terms: [[UInt8]] = []
        var bytes = 0
        for word in words {
            bytes += word.utf8.count
            guard bytes <= Self.maxBytes else {
                throw CliptabError(
                    .invalidArgument,
                    "the search terms have more than \(Self.maxBytes) bytes together; search with fewer or shorter words"
                )
            }
            for part in word.split(whereSeparator: \.isWhitespace) {
                terms.append(Array(part.lowercased().utf8))
            }
            guard terms.count <= Self.maxTerms else {
                throw CliptabError(
                    .invalidArgument,
                    "the search has more than \(Self.maxTerms) terms; search with fewer words")
            }
        }
        self.terms = terms
    }

    /// Terms from one query line (KRunner sends what the user typed as one string).
    public init(query: String) throws(CliptabError) { try self.init([query]) }

    /// True when there is no term: such a search finds nothing.
    public var isEmpty: Bool { terms.isEmpty }

    /// The mask with one bit set for each term.
    var allTerms: UInt64 { terms.count == 64 ? ~0 : (1 << UInt64(terms.count)) - 1 }
}
