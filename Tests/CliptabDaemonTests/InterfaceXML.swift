// SPDX-License-Identifier: MIT
import Foundation

/// The members of one interface of a D-Bus introspection document, read tag by tag.
///
/// Enough of XML for introspection data: elements with double-quoted attributes, comments
/// and the document type declaration skipped. A method's `arg` without `direction` is an
/// in-argument, as the introspection format says; a signal's are its arguments.
enum InterfaceXML {
    /// The methods, signals and properties of interface `interface` in `xml`.
    static func members(of interface: String, in xml: String) throws -> [InterfaceMember] {
        var members: [InterfaceMember] = []
        var inInterface = false
        var current: InterfaceMember?
        var rest = Substring(xml)
        while let open = rest.firstIndex(of: "<") {
            guard let close = rest[open...].firstIndex(of: ">") else {
                throw ContractDocumentError("unterminated tag in the XML")
            }
            let tag = rest[rest.index(after: open)..<close]
            rest = rest[rest.index(after: close)...]
            if tag.hasPrefix("!") || tag.hasPrefix("?") { continue }
            let closing = tag.hasPrefix("/")
            let selfClosing = tag.hasSuffix("/")
            let body = tag.drop { $0 == "/" }
            let element = String(body.prefix { !$0.isWhitespace && $0 != "/" })
            let attributes = attributes(in: body)
            switch (element, closing) {
            case ("interface", false):
                inInterface = attributes["name"] == interface
            case ("interface", true):
                inInterface = false
            case ("method", false), ("signal", false), ("property", false):
                guard inInterface else { continue }
                guard let name = attributes["name"], let kind = InterfaceMember.Kind(rawValue: element) else {
                    throw ContractDocumentError("a \(element) without a name")
                }
                var member = InterfaceMember(kind: kind, name: name)
                if kind == .property {
                    member.outputs = [InterfaceArgument(name: "", type: attributes["type"] ?? "")]
                    member.access = attributes["access"]
                }
                if selfClosing { members.append(member) } else { current = member }
            case ("method", true), ("signal", true), ("property", true):
                if inInterface, let member = current { members.append(member) }
                current = nil
            case ("arg", false):
                guard inInterface, current != nil else { continue }
                let argument = InterfaceArgument(
                    name: attributes["name"] ?? "", type: attributes["type"] ?? "")
                if current!.kind == .method && attributes["direction"] == "out" {
                    current!.outputs.append(argument)
                } else {
                    current!.inputs.append(argument)
                }
            default: continue
            }
        }
        return members
    }

    /// The `name="value"` attributes of a tag's text.
    private static func attributes(in tag: Substring) -> [String: String] {
        var result: [String: String] = [:]
        var rest = tag
        while let equals = rest.range(of: "=\"") {
            let name = rest[..<equals.lowerBound].split(whereSeparator: \.isWhitespace).last.map(String.init)
            let valueStart = equals.upperBound
            guard let valueEnd = rest[valueStart...].firstIndex(of: "\"") else { break }
            if let name { result[name] = String(rest[valueStart..<valueEnd]) }
            rest = rest[rest.index(after: valueEnd)...]
        }
        return result
    }
}
