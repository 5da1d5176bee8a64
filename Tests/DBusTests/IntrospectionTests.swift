// SPDX-License-Identifier: MIT
import DBus
import Foundation
import FoundationXML
import Posix
import Testing

/// What an introspection document declares, as an XML parser reads it.
final class IntrospectionOutline: NSObject, XMLParserDelegate {
    /// `interface.member(direction:type:name,…)` for methods, `interface.member!(type:name,…)`
    /// for signals, `interface.name=type/access` for properties.
    var members: Set<String> = []
    /// The interfaces, in document order.
    var interfaces: [String] = []
    /// The child nodes.
    var children: [String] = []
    /// The annotations, as `interface.property@name=value`.
    var annotations: Set<String> = []
    private var interface = ""
    private var member = ""
    private var kind = ""
    private var arguments: [String] = []
    private var depth = 0

    /// Parses `xml`; nil when it is not well-formed.
    static func parse(_ xml: String) -> IntrospectionOutline? {
        let outline = IntrospectionOutline()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = outline
        return parser.parse() ? outline : nil
    }

    func parser(
        _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        depth += 1
        switch element {
        case "interface":
            interface = attributes["name"] ?? "?"
            interfaces.append(interface)
        case "method", "signal":
            kind = element
            member = attributes["name"] ?? "?"
            arguments = []
        case "arg":
            let direction = kind == "method" ? (attributes["direction"] ?? "in") + ":" : ""
            arguments.append("\(direction)\(attributes["type"] ?? "?"):\(attributes["name"] ?? "")")
        case "property":
            member = attributes["name"] ?? "?"
            members.insert(
                "\(interface).\(member)=\(attributes["type"] ?? "?")/\(attributes["access"] ?? "?")")
        case "annotation":
            annotations.insert(
                "\(interface).\(member)@\(attributes["name"] ?? "?")=\(attributes["value"] ?? "?")")
        case "node" where depth == 2:
            children.append(attributes["name"] ?? "?")
        default:
            break
        }
    }

    func parser(
        _ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?
    ) {
        depth -= 1
        if element == "method" || element == "signal" {
            let mark = element == "signal" ? "!" : ""
            members.insert("\(interface).\(member)\(mark)(\(arguments.joined(separator: ",")))")
        }
    }
}

/// Introspection of registered objects, checked with an XML parser and the system's D-Bus
/// tools (gdbus, busctl, dbus-send), which are what scripts will use.
@Suite struct IntrospectionTests {
    /// Runs a command and returns its standard output; records an issue when it fails.
    func run(_ command: String, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation)
        throws
        -> String
    {
        let result = try ChildProcess.run(command, arguments, timeoutMilliseconds: 20_000)
        #expect(
            result.termination == .exited(0), "\(command) \(arguments): \(result.errorText)",
            sourceLocation: sourceLocation)
        return result.outputText
    }

    /// Calls Introspect on `path` of the echo service.
    func introspect(_ fixture: EchoFixture, _ path: String) throws -> String {
        let values = try fixture.call(
            "Introspect", interface: "org.freedesktop.DBus.Introspectable", path: path)
        guard case .string(let xml)? = values.first, values.count == 1 else {
            Issue.record("Introspect returned \(values)")
            return ""
        }
        return xml
    }

    @Test func introspectListsEveryDeclarationAndMatchesTheGenerator() throws {
        let fixture = try EchoFixture()
        let xml = try introspect(fixture, Echo.path)
        #expect(
            xml.hasPrefix(
                "<!DOCTYPE node PUBLIC \"-//freedesktop//DTD D-BUS Object Introspection 1.0//EN\"\n"))
        // The live document is exactly the generator's output for the same declaration.
        let declared = Echo.interfaces(state: EchoState(), connection: nil)
        #expect(xml == BusIntrospection.xml(for: declared))

        let outline = try #require(IntrospectionOutline.parse(xml))
        #expect(
            outline.interfaces == [
                "org.freedesktop.DBus.Peer", "org.freedesktop.DBus.Introspectable",
                "org.freedesktop.DBus.Properties",
                "io.test.Echo1", "io.test.Other1",
            ])
        let expected: Set<String> = [
            "io.test.Echo1.EchoString(in:s:value,out:s:value)",
            "io.test.Echo1.Fail(in:s:name,in:s:message)",
            "io.test.Echo1.Count(out:u:count)",
            "io.test.Echo1.FailPlain()",
            "io.test.Echo1.Changed!(s:text,u:count)",
            "io.test.Echo1.Name=s/readwrite",
            "io.test.Echo1.Count=u/read",
            "io.test.Other1.Hello(out:s:greeting)",
            "io.test.Other1.Ratio=d/read",
            "org.freedesktop.DBus.Peer.Ping()",
            "org.freedesktop.DBus.Peer.GetMachineId(out:s:machine_uuid)",
            "org.freedesktop.DBus.Introspectable.Introspect(out:s:xml_data)",
            "org.freedesktop.DBus.Properties.Get(in:s:interface_name,in:s:property_name,out:v:value)",
            "org.freedesktop.DBus.Properties.GetAll(in:s:interface_name,out:a{sv}:properties)",
            "org.freedesktop.DBus.Properties.Set(in:s:interface_name,in:s:property_name,in:v:value)",
            "org.freedesktop.DBus.Properties.PropertiesChanged!(s:interface_name,a{sv}:changed_properties,as:invalidated_properties)",
        ]
        #expect(
            expected.subtracting(outline.members).isEmpty, "missing: \(expected.subtracting(outline.members))"
        )
        // Every method, signal and property of the declaration is in the document.
        for interface in declared {
            for method in interface.methods {
                #expect(
                    outline.members.contains { $0.hasPrefix("\(interface.name).\(method.name)(") },
                    "\(method.name)")
            }
            for property in interface.properties {
                #expect(
                    outline.members.contains(
                        "\(interface.name).\(property.name)=\(property.signature)/\(property.access)"))
            }
        }
        #expect(outline.members.contains("io.test.Echo1.EchoAll(\(Self.echoAllArguments))"))
        #expect(
            outline.annotations == [
                "io.test.Echo1.Broken@org.freedesktop.DBus.Property.EmitsChangedSignal=const",
                "io.test.Other1.Ratio@org.freedesktop.DBus.Property.EmitsChangedSignal=invalidates",
            ])
        #expect(outline.children.isEmpty)
    }

    /// The arguments of `EchoAll` as the outline writes them.
    static var echoAllArguments: String {
        let all = "ybnqiuxtdsog".map(String.init)
        return (all.map { "in:\($0):arg_\($0)" } + all.map { "out:\($0):out_\($0)" }).joined(separator: ",")
    }

    @Test func theGeneratorEscapesAndOrders() throws {
        let interface = BusInterface(
            name: "a.b",
            methods: [
                BusMethod(
                    name: "M", inArguments: [BusArgument(name: "x<&>\"'", signature: "s")],
                    outArguments: [BusArgument(name: "", signature: "a{sv}")]
                ) { _ in .empty }
            ],
            signals: [BusSignal(name: "S")])
        let xml = BusIntrospection.xml(for: [interface], children: ["c1", "c2"])
        let outline = try #require(IntrospectionOutline.parse(xml))
        #expect(outline.members.contains("a.b.M(in:s:x<&>\"',out:a{sv}:)"))
        #expect(outline.members.contains("a.b.S!()"))
        #expect(outline.children == ["c1", "c2"])
        #expect(xml.hasSuffix("  <node name=\"c1\"/>\n  <node name=\"c2\"/>\n</node>\n"))
    }

    @Test func childNodesMakeTheTreeWalkableFromTheRoot() throws {
        let fixture = try EchoFixture()
        // Parents that nobody registered are introspected by libdbus, which lists their children.
        let root = try #require(IntrospectionOutline.parse(try introspect(fixture, "/")))
        #expect(root.children == ["io"])
        let middle = try #require(IntrospectionOutline.parse(try introspect(fixture, "/io/test")))
        #expect(middle.children == ["Echo"])
        let echo = try #require(IntrospectionOutline.parse(try introspect(fixture, Echo.path)))
        #expect(echo.children.isEmpty)

        // A registered object lists the objects registered below it, so tools can walk down.
        let second = try ServerThread(address: fixture.bus.address, name: "io.test.Tree") {
            connection, _, _ in
            try connection.registerObject(path: "/io/test/Tree", interfaces: [])
            try connection.registerObject(path: "/io/test/Tree/Leaf", interfaces: [])
            try connection.registerObject(path: "/io/test/Tree/Branch/Deep", interfaces: [])
        }
        defer { second.stop() }
        let tree = try run("busctl", ["--address=\(fixture.bus.address)", "tree", "--list", "io.test.Tree"])
        let paths = Set(tree.split(separator: "\n").map(String.init))
        #expect(
            paths.isSuperset(of: ["/io/test/Tree", "/io/test/Tree/Leaf", "/io/test/Tree/Branch/Deep"]),
            "\(tree)")
    }

    @Test func gdbusReadsTheDocumentWithArgumentNames() throws {
        let fixture = try EchoFixture()
        let text = try run(
            "gdbus",
            [
                "introspect", "--address", fixture.bus.address, "--dest", Echo.busName, "--object-path",
                Echo.path,
            ])
        #expect(text.contains("interface io.test.Echo1 {"))
        #expect(text.contains("EchoString(in  s value,"))
        #expect(text.contains("out s value);"))
        #expect(text.contains("Changed(s text,"))
        #expect(text.contains("readwrite s Name = 'initial';"))
        #expect(text.contains("readonly u Count = 0;"))
        #expect(text.contains("interface org.freedesktop.DBus.Properties {"))
        let recursive = try run(
            "gdbus",
            [
                "introspect", "--address", fixture.bus.address, "--dest", Echo.busName, "--object-path", "/",
                "--recurse",
            ])
        #expect(recursive.contains("interface io.test.Echo1 {"), "\(recursive)")
    }

    @Test func busctlSeesMethodsSignalsAndProperties() throws {
        let fixture = try EchoFixture()
        let text = try run(
            "busctl", ["--address=\(fixture.bus.address)", "introspect", Echo.busName, Echo.path])
        let lines = text.split(separator: "\n").map {
            $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        }
        #expect(lines.contains(".EchoString method s s -"), "\(text)")
        #expect(lines.contains(".Changed signal su - -"))
        #expect(lines.contains(".Name property s \"initial\" emits-change writable"))
        let reply = try run(
            "busctl",
            [
                "--address=\(fixture.bus.address)", "call", Echo.busName, Echo.path, Echo.interface,
                "EchoDict", "a{sv}", "2", "k", "s", "v", "n", "i", "7",
            ])
        #expect(reply == "a{sv} 2 \"k\" s \"v\" \"n\" i 7\n")
    }

    @Test func dbusSendCanCallAndPrintTheReply() throws {
        let fixture = try EchoFixture()
        let text = try run(
            "dbus-send",
            [
                "--bus=\(fixture.bus.address)", "--print-reply", "--dest=\(Echo.busName)", Echo.path,
                "\(Echo.interface).EchoString", "string:héllo, world",
            ])
        #expect(text.contains("string \"héllo, world\""), "\(text)")
        let failure = try ChildProcess.run(
            "dbus-send",
            [
                "--bus=\(fixture.bus.address)", "--print-reply", "--dest=\(Echo.busName)", Echo.path,
                "\(Echo.interface).EchoString", "int32:3",
            ],
            timeoutMilliseconds: 20_000)
        #expect(failure.termination != .exited(0))
        #expect(failure.errorText.contains("org.freedesktop.DBus.Error.InvalidArgs"), "\(failure.errorText)")
    }
}
