// SPDX-License-Identifier: MIT
import Foundation

/// The members of the cliptab interface as the contract document (`docs/dbus-api.md`)
/// lists them, read from its tables and its properties paragraph, by API version.
struct ContractDocument {
    /// Every member the document names, with the API version that brought it.
    var members: [(version: Int, member: InterfaceMember)] = []

    /// The members of API version `version` only.
    func members(ofVersion version: Int) -> [InterfaceMember] {
        members.filter { $0.version == version }.map(\.member)
    }

    /// Reads the document's text.
    ///
    /// Method tables have the header `| method | in | out | …`, signal tables
    /// `| signal | args |`; a cell's arguments are the first code span of the cell
    /// (`` `s table, i section` ``), anything after it is prose. The properties are the
    /// `` `Name` (`type`, … ) `` items of the paragraph under "## Properties". A heading
    /// "## Additions of API version N" starts version N. A line naming another interface
    /// (`` `org.kde.krunner1`: ``) makes the tables after it, up to the next heading, that
    /// interface's: they are not read.
    init(markdown: String) throws {
        var version = 1
        var table: InterfaceMember.Kind?
        var section = ""
        var foreign = false
        for rawLine in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#") { foreign = false }
            if line.hasPrefix("## ") {
                section = String(line.dropFirst(3))
                if let number = Self.additionVersion(section) { version = number }
            }
            if line.hasPrefix("`"), line.hasSuffix("`:"), let name = Self.codeSpan(String(line.dropLast())) {
                foreign = name != "io.github.cliptab.Cliptab1"
            }
            if foreign { continue }
            guard line.hasPrefix("|") else {
                table = nil
                if section.hasPrefix("Properties"), !line.hasPrefix("#") {
                    for member in try Self.properties(in: line) { members.append((version, member)) }
                }
                continue
            }
            let cells = Self.cells(line)
            switch cells.first {
            case "method" where cells.count >= 3 && cells[1] == "in" && cells[2] == "out":
                table = .method
                continue
            case "signal" where cells.count >= 2 && cells[1] == "args":
                table = .signal
                continue
            default: break
            }
            guard let kind = table, let name = cells.first.flatMap(Self.codeSpan) else { continue }
            switch kind {
            case .method:
                guard cells.count >= 3 else {
                    throw ContractDocumentError("method row with too few cells: \(line)")
                }
                members.append(
                    (
                        version,
                        InterfaceMember(
                            kind: .method, name: name, inputs: try Self.arguments(cells[1]),
                            outputs: try Self.arguments(cells[2]))
                    ))
            case .signal:
                guard cells.count >= 2 else {
                    throw ContractDocumentError("signal row with too few cells: \(line)")
                }
                members.append(
                    (
                        version,
                        InterfaceMember(kind: .signal, name: name, inputs: try Self.arguments(cells[1]))
                    ))
            case .property: break
            }
        }
    }

    /// N for a heading "Additions of API version N …".
    private static func additionVersion(_ heading: String) -> Int? {
        let prefix = "Additions of API version "
        guard heading.hasPrefix(prefix) else { return nil }
        return Int(heading.dropFirst(prefix.count).prefix { $0.isNumber })
    }

    /// The cells of a table row, trimmed (the empty ones before the first and after the
    /// last `|` dropped).
    private static func cells(_ line: String) -> [String] {
        var cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        if cells.first == "" { cells.removeFirst() }
        if cells.last == "" { cells.removeLast() }
        return cells
    }

    /// The text of the code span the cell starts with, or nil when it starts with none.
    private static func codeSpan(_ cell: String) -> String? {
        guard cell.hasPrefix("`") else { return nil }
        let rest = cell.dropFirst()
        guard let end = rest.firstIndex(of: "`") else { return nil }
        return String(rest[..<end])
    }

    /// The arguments of a cell: "" for none, else the first code span as "type name, …".
    private static func arguments(_ cell: String) throws -> [InterfaceArgument] {
        guard !cell.isEmpty else { return [] }
        guard let span = codeSpan(cell) else { throw ContractDocumentError("arguments not in code: \(cell)") }
        return try span.split(separator: ",").map { item in
            let words = item.split(separator: " ")
            guard words.count == 2 else {
                throw ContractDocumentError("not \"type name\": \(item) in \(cell)")
            }
            return InterfaceArgument(name: String(words[1]), type: String(words[0]))
        }
    }

    /// The read-only properties named in a paragraph line: `` `Name` (`type` ``.
    private static func properties(in line: String) throws -> [InterfaceMember] {
        var result: [InterfaceMember] = []
        var rest = Substring(line)
        while let open = rest.firstIndex(of: "`") {
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(of: "`") else { break }
            let name = String(rest[afterOpen..<close])
            rest = rest[rest.index(after: close)...]
            guard rest.hasPrefix(" (`") else { continue }
            let typeStart = rest.index(rest.startIndex, offsetBy: 3)
            guard let typeEnd = rest[typeStart...].firstIndex(of: "`") else {
                throw ContractDocumentError("unterminated property type: \(line)")
            }
            result.append(
                InterfaceMember(
                    kind: .property, name: name,
                    outputs: [InterfaceArgument(name: "", type: String(rest[typeStart..<typeEnd]))],
                    access: "read"))
            rest = rest[rest.index(after: typeEnd)...]
        }
        return result
    }
}
