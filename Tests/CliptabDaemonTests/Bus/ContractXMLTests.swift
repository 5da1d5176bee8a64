// SPDX-License-Identifier: MIT
import CliptabContract
import Foundation
import Testing

/// The interface XML the daemon serves agrees with the contract document on every method,
/// signal and property: names, argument names, types, directions and order.
///
/// Another test compares the XML with the live daemon's introspection; this one compares
/// it with `docs/dbus-api.md`, so that a changed argument name or signature in the XML (and
/// so in the daemon) fails even though the daemon then agrees with itself.
@Suite struct ContractXMLTests {
    /// The repository's interface XML.
    static let xmlPath = "Sources/CliptabDaemon/Bus/io.github.cliptab.Cliptab1.xml"

    /// The contract document's members and the XML's, read from the repository.
    static func read() throws -> (contract: ContractDocument, declared: [InterfaceMember]) {
        let contract = try ContractDocument(markdown: readFile(repositoryFile("docs/dbus-api.md")))
        let declared = try InterfaceXML.members(
            of: CliptabBus.interface, in: readFile(repositoryFile(xmlPath)))
        return (contract, declared)
    }

    /// Every member of the served API versions is in the XML exactly as the contract has
    /// it; members of later versions, once declared, are too.
    @Test func xmlMatchesTheContract() throws {
        let (contract, declared) = try Self.read()
        var problems: [String] = []
        for version in Set(contract.members.map(\.version)).sorted() {
            problems += contractMismatches(
                contract: contract.members(ofVersion: version), declared: declared,
                required: version <= Int(CliptabBus.apiVersion))
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// The parser finds the whole version-1 contract (frozen: later versions only add), so
    /// the comparison above cannot pass by reading nothing.
    @Test func documentParsesCompletely() throws {
        let members = try Self.read().contract.members(ofVersion: 1)
        #expect(members.filter { $0.kind == .method }.count == 37)
        #expect(members.filter { $0.kind == .signal }.count == 12)
        #expect(members.filter { $0.kind == .property }.map(\.name) == ["Version", "ApiVersion", "Tables"])
        let getRows = members.first { $0.name == "GetRows" }
        #expect(
            getRows?.description
                == "method GetRows(s table, i section, u offset, u limit) -> (a(ts) rows)")
        let locate = members.first { $0.name == "Locate" }
        #expect(locate?.outputs.map(\.description) == ["s table", "i section", "i row"])
        let clipboard = members.first { $0.name == "ClipboardChanged" }
        #expect(clipboard?.description == "signal ClipboardChanged(b owned, t row_id)")
    }

    /// The XML parser reads the XML's members with their directions.
    @Test func xmlParsesCompletely() throws {
        let declared = try Self.read().declared
        let move = declared.first { $0.name == "MoveRow" }
        #expect(move?.inputs.map(\.name) == ["table", "from_section", "from_row", "to_section", "to_row"])
        #expect(move?.outputs == [])
        let tables = declared.first { $0.name == "Tables" }
        #expect(tables?.description == "property Tables as read")
        // The standard interfaces' members are not the cliptab interface's.
        #expect(!declared.contains { $0.name == "Ping" || $0.name == "PropertiesChanged" })
    }

    /// Each kind of drift between the two files is reported: a changed type, a renamed or
    /// reordered argument, a swapped direction, a missing member, a property made writable.
    @Test(arguments: [
        ("doc", "| `RenameTable` | `s table, s new_name` |", "| `RenameTable` | `s table, s newname` |"),
        (
            "doc", "| `GetCell` | `s table, i section, i row` | `s text` |",
            "| `GetCell` | `s table, u section, i row` | `s text` |"
        ),
        (
            "doc", "| `RowMoved` | `s table, t revision, i from_section",
            "| `RowMoved` | `s table, u revision, i from_section"
        ),
        ("doc", "`ApiVersion` (`u`", "`ApiVersion` (`i`"),
        (
            "xml", "<arg name=\"new_name\" type=\"s\" direction=\"in\"/>",
            "<arg name=\"new_name\" type=\"s\" direction=\"out\"/>"
        ),
        ("xml", "<signal name=\"TableRemoved\">", "<signal name=\"TableDropped\">"),
        (
            "xml", "<property name=\"Tables\" type=\"as\" access=\"read\"/>",
            "<property name=\"Tables\" type=\"as\" access=\"readwrite\"/>"
        ),
        ("xml", "<arg name=\"row_id\" type=\"t\"/>", "<arg name=\"row\" type=\"t\"/>"),
    ])
    func driftIsDetected(file: String, original: String, changed: String) throws {
        var markdown = try readFile(repositoryFile("docs/dbus-api.md"))
        var xml = try readFile(repositoryFile(Self.xmlPath))
        if file == "doc" {
            #expect(markdown.contains(original), "the document no longer has \(original)")
            markdown = markdown.replacingOccurrences(of: original, with: changed)
        } else {
            #expect(xml.contains(original), "the XML no longer has \(original)")
            xml = xml.replacingOccurrences(of: original, with: changed)
        }
        let contract = try ContractDocument(markdown: markdown)
        let declared = try InterfaceXML.members(of: CliptabBus.interface, in: xml)
        let problems = contractMismatches(contract: contract.members(ofVersion: 1), declared: declared)
        #expect(problems.count == 1, "\(problems)")
    }

    /// A member of a later API version is not required until it is declared, and then it
    /// must match.
    @Test func laterVersionsArePinnedOnceDeclared() {
        let contract = [
            InterfaceMember(
                kind: .method, name: "FindRow",
                inputs: [.init(name: "table", type: "s"), .init(name: "name", type: "s")],
                outputs: [.init(name: "id", type: "t")])
        ]
        #expect(contractMismatches(contract: contract, declared: [], required: false).isEmpty)
        #expect(contractMismatches(contract: contract, declared: [], required: true).count == 1)
        var declared = contract
        declared[0].inputs[1].type = "i"
        #expect(contractMismatches(contract: contract, declared: declared, required: false).count == 1)
    }
}
