// SPDX-License-Identifier: MIT
import Quoting

/// An INI-style file as git and systemd users know it, split into sections and entries.
///
/// The syntax:
/// - `[name]` starts a section; `[name "quoted name"]` one with a subsection, where `\"`
///   and `\\` stand for a quote and a backslash.
/// - `key = value` sets a key in the current section; blanks around both are dropped. A
///   value in double quotes keeps its blanks and `#` characters, with the same escapes.
/// - A line whose first non-blank character is `#` or `;` is a comment, as is a blank
///   line. A `#` later in a line is part of the value.
/// - Names of sections are letters, digits, `_` and `-`; names of keys may also hold `+`,
///   so that `[keys]` names a chord (`Super+Alt+I`).
///
/// Syntax errors and keys set twice in one section are problems; what the keys mean is
/// for the reader of the entries to judge. This is the one reader of `cliptab.conf`:
/// `cliptabd` checks the whole file, `cliptab` reads `[cli]` and `cliptab-menu` `[menu]`
/// through it, so that a line means the same to all three.
public struct ConfigFile: Equatable, Sendable {
    /// The path the text came from, used in problem reports.
    public let path: String
    /// The section headers in file order.
    public private(set) var sections: [ConfigSectionHeader] = []
    /// The entries in file order.
    public private(set) var entries: [ConfigEntry] = []
    /// The syntax problems in file order.
    public private(set) var problems: [ConfigProblem] = []

    /// Parses `bytes`, the content of the file at `path`.
    public init(parsing bytes: [UInt8], path: String) {
        self.path = path
        var current: ConfigSectionHeader?
        var firstLine: [String: Int] = [:]
        var lineNumber = 0
        for rawLine in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            var lineBytes = Array(rawLine)
            if lineBytes.last == UInt8(ascii: "\r") { lineBytes.removeLast() }
            guard let text = String(validating: lineBytes, as: UTF8.self) else {
                problem(lineNumber, "this line is not valid UTF-8; save the file as UTF-8")
                continue
            }
            if text.utf8.contains(0) {
                problem(lineNumber, "this line holds a NUL character, which no setting can use")
                continue
            }
            let line = Self.trimmed(Substring(text))
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                do {
                    let header = try Self.parseHeader(line, line: lineNumber)
                    sections.append(header)
                    current = header
                } catch {
                    problem(lineNumber, error.message)
                    // Keys below a broken header belong to no known section: say it once.
                    current = ConfigSectionHeader(name: "", subsection: nil, line: lineNumber)
                }
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                problem(
                    lineNumber,
                    "expected \"key = value\", a \"[section]\" header or a \"#\" comment, found \(Quotation.quoted(line))"
                )
                continue
            }
            let key = String(Self.trimmed(line[..<equals]))
            guard Self.isName(key, allowing: "+") else {
                problem(
                    lineNumber,
                    key.isEmpty
                        ? "a key name is missing before \"=\""
                        : "\(Quotation.quoted(key)) is not a key name (letters, digits, \"_\", \"-\" and \"+\" only)"
                )
                continue
            }
            guard let section = current else {
                problem(
                    lineNumber,
                    "\(Quotation.quoted(key)) is outside any section; put it under a header such as [clipboard]"
                )
                continue
            }
            // A broken header was reported already.
            if section.name.isEmpty { continue }
            let value: String
            do {
                value = try Self.parseValue(Self.trimmed(line[line.index(after: equals)...]))
            } catch {
                problem(lineNumber, "\(key): \(error.message)")
                continue
            }
            let identity = "\(section.name)\u{0}\(section.subsection ?? "")\u{0}\(key)"
            if let earlier = firstLine[identity] {
                problem(
                    lineNumber,
                    "\(Quotation.quoted(key)) is already set on line \(earlier) of this section; keep one"
                )
                continue
            }
            firstLine[identity] = lineNumber
            entries.append(
                ConfigEntry(
                    section: section.name, subsection: section.subsection, key: key, value: value,
                    line: lineNumber))
        }
    }

    private mutating func problem(_ line: Int, _ message: String) {
        problems.append(ConfigProblem(file: path, line: line, message: message))
    }

    private struct SyntaxError: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    private static func trimmed(_ text: Substring) -> Substring {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !blank($0) }) else { return "" }
        let last = text.lastIndex(where: { !blank($0) })!
        return text[first...last]
    }

    private static func isName(_ text: some StringProtocol, allowing extra: Unicode.Scalar? = nil) -> Bool {
        !text.isEmpty
            && text.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                    || $0 == "_" || $0 == "-" || $0 == extra
            }
    }

    /// `[name]` or `[name "sub"]`, possibly followed by a comment.
    private static func parseHeader(_ line: Substring, line number: Int) throws(SyntaxError)
        -> ConfigSectionHeader
    {
        var rest = line.dropFirst()
        let nameEnd =
            rest.firstIndex(where: { $0 == "]" || $0 == " " || $0 == "\t" || $0 == "\"" }) ?? rest.endIndex
        let name = String(rest[..<nameEnd])
        guard isName(name) else {
            throw SyntaxError(
                name.isEmpty
                    ? "a section header needs a name, as in [clipboard]"
                    : "\(Quotation.quoted(name)) is not a section name (letters, digits, \"_\" and \"-\" only)"
            )
        }
        rest = trimmed(rest[nameEnd...])
        var subsection: String?
        if rest.hasPrefix("\"") {
            let (text, after) = try quoted(rest)
            subsection = text
            rest = trimmed(after)
        }
        guard rest.hasPrefix("]") else {
            throw SyntaxError(
                "expected \"]\" to close the section header, as in [\(name)] or [\(name) \"name\"]")
        }
        let trailing = trimmed(rest.dropFirst())
        guard trailing.isEmpty || trailing.hasPrefix("#") || trailing.hasPrefix(";") else {
            throw SyntaxError("unexpected \(Quotation.quoted(trailing)) after the section header")
        }
        return ConfigSectionHeader(name: name, subsection: subsection, line: number)
    }

    /// A value: as written, or the content of a double-quoted string.
    private static func parseValue(_ text: Substring) throws(SyntaxError) -> String {
        guard text.hasPrefix("\"") else { return String(text) }
        let (value, after) = try quoted(text)
        let trailing = trimmed(after)
        guard trailing.isEmpty || trailing.hasPrefix("#") || trailing.hasPrefix(";") else {
            throw SyntaxError("unexpected \(Quotation.quoted(trailing)) after the quoted value")
        }
        return value
    }

    /// Reads a double-quoted string at the start of `text`; returns it and what follows.
    private static func quoted(_ text: Substring) throws(SyntaxError) -> (String, Substring) {
        var result = ""
        var index = text.index(after: text.startIndex)
        while index < text.endIndex {
            let character = text[index]
            if character == "\"" { return (result, text[text.index(after: index)...]) }
            if character == "\\" {
                let next = text.index(after: index)
                guard next < text.endIndex, text[next] == "\"" || text[next] == "\\" else {
                    throw SyntaxError("in quotes, a backslash must be followed by \" or \\")
                }
                result.append(text[next])
                index = text.index(after: next)
                continue
            }
            result.append(character)
            index = text.index(after: index)
        }
        throw SyntaxError("a quoted text is not closed with \"")
    }
}
