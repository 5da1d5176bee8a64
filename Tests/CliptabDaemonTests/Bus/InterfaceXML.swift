// SPDX-License-Identifier: MIT
import Foundation
import FoundationXML

/// The members of one interface of a D-Bus introspection document, read by FoundationXML's
/// parser (libxml2): entities, comments and the document type declaration as XML has them.
///
/// A method's `arg` without `direction` is an in-argument, as the introspection format says;
/// a signal's are its arguments.
enum InterfaceXML {
    /// The methods, signals and properties of interface `interface` in `xml`.
    static func members(of interface: String, in xml: String) throws -> [InterfaceMember] {
        let reader = Reader(interface: interface)
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = reader
        guard parser.parse(), reader.problem == nil else {
            throw ContractDocumentError(
                reader.problem
                    ?? "the XML does not parse: \(parser.parserError.map { "\($0)" } ?? "no reason given")")
        }
        return reader.members
    }

    /// Collects the members of one interface as the parser reports the elements.
    private final class Reader: NSObject, XMLParserDelegate {
        let interface: String
        var members: [InterfaceMember] = []
        var problem: String?
        private var inInterface = false
        private var current: InterfaceMember?

        init(interface: String) {
            self.interface = interface
        }

        func parser(
            _ parser: XMLParser, didStartElement element: String, namespaceURI: String?,
            qualifiedName: String?, attributes: [String: String] = [:]
        ) {
            switch element {
            case "interface":
                inInterface = attributes["name"] == interface
            case "method", "signal", "property":
                guard inInterface else { return }
                guard let name = attributes["name"], let kind = InterfaceMember.Kind(rawValue: element) else {
                    problem = "a \(element) without a name"
                    parser.abortParsing()
                    return
                }
                var member = InterfaceMember(kind: kind, name: name)
                if kind == .property {
                    member.outputs = [InterfaceArgument(name: "", type: attributes["type"] ?? "")]
                    member.access = attributes["access"]
                }
                current = member
            case "arg":
                guard inInterface, current != nil else { return }
                let argument = InterfaceArgument(
                    name: attributes["name"] ?? "", type: attributes["type"] ?? "")
                if current!.kind == .method && attributes["direction"] == "out" {
                    current!.outputs.append(argument)
                } else {
                    current!.inputs.append(argument)
                }
            default:
                return
            }
        }

        func parser(
            _ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?
        ) {
            switch element {
            case "interface":
                inInterface = false
            case "method", "signal", "property":
                if inInterface, let member = current { members.append(member) }
                current = nil
            default:
                return
            }
        }
    }
}
