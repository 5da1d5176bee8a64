// SPDX-License-Identifier: MIT
import CliptabContract

/// A section as the command line names it: by index, or by its header title.
enum SectionAddress: Equatable, Sendable {
    /// The section at this index (negative counts from the end).
    case index(Int32)
    /// The first section whose header is this title (`@Odd Numbers`).
    case header(String)

    /// Parses a section: an integer, or `@` and a header title (the whole rest of the word,
    /// colons included).
    static func parse(_ word: String, argument: String, command: CommandSpec) throws(UsageError)
        -> SectionAddress
    {
        if word.hasPrefix("@") { return .header(String(word.dropFirst())) }
        guard let index = Int32(word) else {
            throw UsageError(
                "\(argument) \"\(word)\" is not a section: give an integer (negative counts from the end) "
                    + "or @HEADER", command: command)
        }
        return .index(index)
    }
}

/// A row as the command line names it: by index path, or by its stable id.
enum CellAddress: Equatable, Sendable {
    /// Section and row; the row index may be negative (from the end).
    case path(SectionAddress, Int32)
    /// The row with this id (`#42` or `id:42`), wherever it is now.
    case id(UInt64)
    /// The row with this name (`sig`), wherever it is now.
    case name(String)

    /// Parses `S:R`, a bare `R` (section 0), `@HEADER:R` (split at the last colon), `#ID`,
    /// `id:ID` or a row name.
    static func parse(_ word: String, argument: String, command: CommandSpec) throws(UsageError)
        -> CellAddress
    {
        // The error is only made when needed: building its usage line is not free.
        func problem() -> UsageError {
            UsageError(
                "\(argument) \"\(word)\" is not an index path: give S:R, R (in section 0), @HEADER:R, #ID, "
                    + "id:ID or a row name (negative numbers count from the end)", command: command)
        }
        // `id:` as well as `#`: a `#` starts a comment in `sh -c`, which shortcut launchers use.
        for prefix in ["#", "id:"] where word.hasPrefix(prefix) {
            let digits = word.dropFirst(prefix.count)
            guard let id = UInt64(digits), digits.allSatisfy(\.isASCII) else { throw problem() }
            return .id(id)
        }
        // The name grammar never matches a number, a path, `@HEADER` or `#ID`.
        if RowName.isValid(word) { return .name(word) }
        guard let colon = word.lastIndex(of: ":") else {
            guard let row = Int32(word) else { throw problem() }
            return .path(.index(0), row)
        }
        guard let row = Int32(word[word.index(after: colon)...]) else { throw problem() }
        let sectionWord = String(word[..<colon])
        if sectionWord.hasPrefix("@") { return .path(.header(String(sectionWord.dropFirst())), row) }
        guard let section = Int32(sectionWord) else { throw problem() }
        return .path(.index(section), row)
    }
}

/// The paragraph every command that takes an index path shows in its help.
let addressingHelp = """
    Addressing: S:R is section S, row R; a bare R is row R of section 0. Negative numbers
    count from the end (-1:-1 is the last row of the last section). @HEADER:R names the
    section by its header title (the first section with that header; the row number follows
    the last colon). #ID (or id:ID, which survives sh -c) names a row by its stable id, and
    a row name (cliptab name) names the row that has it, wherever it is now.
    """
