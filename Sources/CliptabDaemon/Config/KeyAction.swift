// SPDX-License-Identifier: MIT
import CliptabContract
import CliptabCore
import Quoting

/// What a key of `[keys]` does: the value of its line (`paste snippets sig`).
///
/// An enum so that each switch over the actions asks for every one of them.
public enum KeyAction: Equatable, Sendable {
    /// A row of a table, as `cliptab copy` names it.
    public enum Row: Equatable, Sendable {
        /// The row with this name (`sig`).
        case name(String)
        /// Section and row; `header` names the section by its title (`@Odd:2`) instead.
        case path(section: Int32, row: Int32, header: String?)
        /// The row with this stable id (`#42`, `id:42`).
        case id(UInt64)
    }

    /// `copy TABLE ADDR`: the row's text to the clipboard, in the daemon.
    case copy(table: String, row: Row, address: String)
    /// `paste TABLE ADDR`: into the focused window once the keys are released, as `--paste`.
    case paste(table: String, row: Row, address: String)
    /// `sequence TABLE ADDR [count=N]`: a sequence from the row, started in the daemon at the
    /// press, as `cliptab copy --sequence [--count N]`; `count` 0 is to the section's end.
    case sequence(table: String, row: Row, address: String, count: UInt64)
    /// `fill TABLE ADDR [count=N] [then=tab|enter|none]`: the rows typed into the focused
    /// window once the keys are released, as `cliptab fill`; `count` 0 is to the section's end.
    case fill(
        table: String, row: Row, address: String, count: UInt64, then: ClipboardService.FillSeparator)
    /// `menu [TABLE]`: opens `cliptab menu`.
    case menu(table: String?)
    /// `pick [TABLE]`: opens `cliptab pick`.
    case pick(table: String?)

    /// Reads an action; the message says what was expected.
    public init(parsing text: String) throws(ConfigValueError) {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        let expected =
            "expected copy TABLE ROW, paste TABLE ROW, sequence TABLE ROW [count=N], "
            + "fill TABLE ROW [count=N] [then=tab|enter|none], menu [TABLE] or pick [TABLE]"
        guard let verb = words.first else { throw ConfigValueError("\(expected), found nothing") }
        switch verb {
        case "copy", "paste":
            guard words.count == 3 else {
                throw ConfigValueError(
                    "\(verb) takes a table and a row (\(verb) TABLE ROW), found \(Quotation.quoted(text))")
            }
            let table = try Self.table(words[1])
            let row = try Self.row(words[2])
            self =
                verb == "copy"
                ? .copy(table: table, row: row, address: words[2])
                : .paste(
                    table: table, row: row, address: words[2])
        case "sequence", "fill":
            self = try Self.rows(verb, words, text)
        case "menu", "pick":
            guard words.count <= 2 else {
                throw ConfigValueError(
                    "\(verb) takes at most a table (\(verb) [TABLE]), found \(Quotation.quoted(text))")
            }
            let table = try words.count == 2 ? Self.table(words[1]) : nil
            self = verb == "menu" ? .menu(table: table) : .pick(table: table)
        default:
            throw ConfigValueError("\(expected), found \(Quotation.quoted(verb))")
        }
    }

    /// The action as a line of `[keys]` writes it, normalised (`paste snippets sig`).
    public var text: String { words.joined(separator: " ") }

    /// The words of `text`.
    private var words: [String] {
        switch self {
        case .copy(let table, _, let address): ["copy", table, address]
        case .paste(let table, _, let address): ["paste", table, address]
        case .sequence(let table, _, let address, let count):
            ["sequence", table, address] + (count == 0 ? [] : ["count=\(count)"])
        case .fill(let table, _, let address, let count, let then):
            ["fill", table, address] + (count == 0 ? [] : ["count=\(count)"])
                + (then == .tab ? [] : ["then=\(then.rawValue)"])
        case .menu(let table): ["menu"] + (table.map { [$0] } ?? [])
        case .pick(let table): ["pick"] + (table.map { [$0] } ?? [])
        }
    }

    /// The binding's id, stable across reloads (`paste-snippets-sig`): the words joined by
    /// `-`, with any character other than a letter, a digit, `_` or `.` as `_`.
    public var id: String {
        String(
            words.joined(separator: "-").unicodeScalars.map { scalar -> Character in
                scalar.properties.isAlphabetic && scalar.isASCII || ("0"..."9").contains(scalar)
                    || scalar == "_" || scalar == "." || scalar == "-"
                    ? Character(scalar) : "_"
            })
    }

    /// What the binding does, for a desktop's shortcut dialog.
    public var description: String {
        switch self {
        case .copy(let table, _, let address): "Copy \(address) of \(table)"
        case .paste(let table, _, let address): "Paste \(address) of \(table)"
        case .sequence(let table, _, let address, let count):
            count == 0
                ? "Start a sequence from \(address) of \(table)"
                : "Start a sequence of \(count) rows from \(address) of \(table)"
        case .fill(let table, _, let address, let count, _):
            count == 0
                ? "Fill the focused window from \(address) of \(table)"
                : "Fill \(count) rows from \(address) of \(table) into the focused window"
        case .menu(let table): table.map { "Open cliptab's menu on \($0)" } ?? "Open cliptab's menu"
        case .pick(let table): table.map { "Pick a row of \($0)" } ?? "Pick a row"
        }
    }

    /// The arguments of `cliptab` that do the same from a compositor's binding (a process
    /// per press), for the lines `cliptab keys --print` writes.
    public var commandArguments: [String] {
        switch self {
        case .copy(let table, _, let address): ["copy", "-q", table, address]
        case .paste(let table, _, let address): ["copy", "--paste", table, address]
        case .sequence(let table, _, let address, let count):
            ["copy", "-q", "--sequence", table, address] + (count == 0 ? [] : ["--count", "\(count)"])
        case .fill(let table, _, let address, let count, let then):
            ["fill", table, address] + (count == 0 ? [] : ["--count", "\(count)"])
                + (then == .tab ? [] : ["--then", then.rawValue])
        case .menu(let table): ["menu"] + (table.map { ["--", $0] } ?? [])
        case .pick(let table): ["pick"] + (table.map { [$0] } ?? [])
        }
    }

    /// True when the action waits for the keys' release (a paste, a fill: the window must
    /// not see the user's modifiers with the paste chord).
    public var runsOnRelease: Bool {
        switch self {
        case .paste, .fill: true
        case .copy, .sequence, .menu, .pick: false
        }
    }

    /// `sequence` or `fill` (`verb`) from its `words`: a table, a row, then `count=N` and,
    /// for a fill, `then=KEY`, each at most once.
    private static func rows(_ verb: String, _ words: [String], _ text: String) throws(ConfigValueError)
        -> KeyAction
    {
        let options = verb == "fill" ? "[count=N] [then=tab|enter|none]" : "[count=N]"
        guard words.count >= 3 else {
            throw ConfigValueError(
                "\(verb) takes a table and a row (\(verb) TABLE ROW \(options)), found \(Quotation.quoted(text))"
            )
        }
        let table = try Self.table(words[1])
        let row = try Self.row(words[2])
        var count: UInt64?
        var then: ClipboardService.FillSeparator?
        for word in words.dropFirst(3) {
            if word.hasPrefix("count="), count == nil {
                guard let number = UInt64(word.dropFirst(6)), number > 0 else {
                    throw ConfigValueError("\(Quotation.quoted(word)): count takes a number of rows from 1")
                }
                count = number
            } else if verb == "fill", word.hasPrefix("then="), then == nil {
                guard let key = ClipboardService.FillSeparator(rawValue: String(word.dropFirst(5))) else {
                    throw ConfigValueError("\(Quotation.quoted(word)): then takes tab, enter or none")
                }
                then = key
            } else {
                throw ConfigValueError(
                    "\(verb) takes a table, a row and then \(options), each once; found \(Quotation.quoted(word))"
                )
            }
        }
        return verb == "fill"
            ? .fill(table: table, row: row, address: words[2], count: count ?? 0, then: then ?? .tab)
            : .sequence(table: table, row: row, address: words[2], count: count ?? 0)
    }

    private static func table(_ name: String) throws(ConfigValueError) -> String {
        do {
            try TableName.validate(name)
        } catch {
            throw ConfigValueError("table \(Quotation.quoted(name)): \(error.message)")
        }
        return name
    }

    /// `S:R`, `R` (section 0), `@HEADER:R`, `#ID`, `id:ID` or a row name, as `cliptab copy`
    /// reads them.
    private static func row(_ word: String) throws(ConfigValueError) -> Row {
        let problem = ConfigValueError(
            "\(Quotation.quoted(word)) is not a row: give a row name, S:R, R (in section 0), @HEADER:R, #ID or id:ID"
        )
        for prefix in ["#", "id:"] where word.hasPrefix(prefix) {
            let digits = word.dropFirst(prefix.count)
            guard digits.allSatisfy(\.isASCII), let id = UInt64(digits) else { throw problem }
            return .id(id)
        }
        if RowName.isValid(word) { return .name(word) }
        guard let colon = word.lastIndex(of: ":") else {
            guard let row = Int32(word) else { throw problem }
            return .path(section: 0, row: row, header: nil)
        }
        guard let row = Int32(word[word.index(after: colon)...]) else { throw problem }
        let section = word[..<colon]
        if section.hasPrefix("@") { return .path(section: 0, row: row, header: String(section.dropFirst())) }
        guard let index = Int32(section) else { throw problem }
        return .path(section: index, row: row, header: nil)
    }
}
