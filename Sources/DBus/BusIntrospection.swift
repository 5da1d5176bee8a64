// SPDX-License-Identifier: MIT

/// The introspection XML of an object, generated from the same declarations that dispatch its
/// calls, so that the two cannot disagree.
public enum BusIntrospection {
    /// The document type line every introspection document starts with.
    public static let doctype =
        "<!DOCTYPE node PUBLIC \"-//freedesktop//DTD D-BUS Object Introspection 1.0//EN\"\n"
        + " \"http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd\">\n"

    /// The names of the interfaces every registered object serves on its own.
    public static let standardInterfaceNames = [
        "org.freedesktop.DBus.Peer", "org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Properties",
    ]

    /// The complete document of an object serving `interfaces`: the standard Peer,
    /// Introspectable and Properties interfaces first, then `interfaces` in order.
    public static func xml(for interfaces: [BusInterface]) -> String {
        xml(for: interfaces, children: [])
    }

    /// The complete document of an object serving `interfaces` with the child nodes `children`
    /// (the next path elements below it, as `busctl tree` and `gdbus introspect --recurse` follow).
    public static func xml(for interfaces: [BusInterface], children: [String]) -> String {
        var text = doctype + "<node>\n"
        for interface in StandardInterfaces.descriptions + interfaces {
            text += "  <interface name=\"\(escaped(interface.name))\">\n"
            for method in interface.methods {
                let arguments =
                    method.inArguments.map { argument($0, direction: "in") }
                    + method.outArguments.map { argument($0, direction: "out") }
                text += element("method", name: method.name, body: arguments)
            }
            for signal in interface.signals {
                text += element(
                    "signal", name: signal.name, body: signal.arguments.map { argument($0, direction: nil) })
            }
            for property in interface.properties {
                var line =
                    "    <property name=\"\(escaped(property.name))\" type=\"\(escaped(property.signature))\""
                line += " access=\"\(property.access.rawValue)\""
                if property.changeSignal == .true {
                    text += line + "/>\n"
                } else {
                    text += line + ">\n"
                    text += "      <annotation name=\"org.freedesktop.DBus.Property.EmitsChangedSignal\""
                    text += " value=\"\(property.changeSignal.rawValue)\"/>\n"
                    text += "    </property>\n"
                }
            }
            text += "  </interface>\n"
        }
        for child in children {
            text += "  <node name=\"\(escaped(child))\"/>\n"
        }
        return text + "</node>\n"
    }

    /// A `<method>` or `<signal>` element with its argument lines.
    private static func element(_ kind: String, name: String, body: [String]) -> String {
        if body.isEmpty { return "    <\(kind) name=\"\(escaped(name))\"/>\n" }
        return "    <\(kind) name=\"\(escaped(name))\">\n" + body.joined() + "    </\(kind)>\n"
    }

    /// One `<arg>` line; signal arguments have no direction.
    private static func argument(_ argument: BusArgument, direction: String?) -> String {
        var line = "      <arg"
        if !argument.name.isEmpty { line += " name=\"\(escaped(argument.name))\"" }
        line += " type=\"\(escaped(argument.signature))\""
        if let direction { line += " direction=\"\(direction)\"" }
        return line + "/>\n"
    }

    /// `text` with the five XML special characters escaped, for attribute values.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.append(character)
            }
        }
        return result
    }
}

/// The interfaces every registered object serves itself: their declarations (for dispatch
/// checks and introspection) with the handlers the object supplies.
enum StandardInterfaces {
    /// The name of the Peer interface.
    static let peer = "org.freedesktop.DBus.Peer"
    /// The name of the Introspectable interface.
    static let introspectable = "org.freedesktop.DBus.Introspectable"
    /// The name of the Properties interface.
    static let properties = "org.freedesktop.DBus.Properties"

    /// The handlers an object gives the standard methods.
    struct Handlers {
        /// Serves `Peer.Ping()`.
        var ping: (BusMethodCall) throws -> BusReply
        /// Serves `Peer.GetMachineId() -> s`.
        var getMachineId: (BusMethodCall) throws -> BusReply
        /// Serves `Introspectable.Introspect() -> s`.
        var introspect: (BusMethodCall) throws -> BusReply
        /// Serves `Properties.Get(ss) -> v`.
        var get: (BusMethodCall) throws -> BusReply
        /// Serves `Properties.GetAll(s) -> a{sv}`.
        var getAll: (BusMethodCall) throws -> BusReply
        /// Serves `Properties.Set(ssv)`.
        var set: (BusMethodCall) throws -> BusReply
    }

    /// The declarations alone, for introspection (their handlers are never called).
    static var descriptions: [BusInterface] {
        let unused: (BusMethodCall) throws -> BusReply = { _ in throw BusError.failed("not dispatched here") }
        return interfaces(
            Handlers(
                ping: unused, getMachineId: unused, introspect: unused, get: unused, getAll: unused,
                set: unused))
    }

    /// The three standard interfaces served by `handlers`.
    static func interfaces(_ handlers: Handlers) -> [BusInterface] {
        [
            BusInterface(
                name: peer,
                methods: [
                    BusMethod(name: "Ping", handler: handlers.ping),
                    BusMethod(
                        name: "GetMachineId",
                        outArguments: [BusArgument(name: "machine_uuid", signature: "s")],
                        handler: handlers.getMachineId),
                ]),
            BusInterface(
                name: introspectable,
                methods: [
                    BusMethod(
                        name: "Introspect", outArguments: [BusArgument(name: "xml_data", signature: "s")],
                        handler: handlers.introspect)
                ]),
            BusInterface(
                name: properties,
                methods: [
                    BusMethod(
                        name: "Get",
                        inArguments: [
                            BusArgument(name: "interface_name", signature: "s"),
                            BusArgument(name: "property_name", signature: "s"),
                        ],
                        outArguments: [BusArgument(name: "value", signature: "v")], handler: handlers.get),
                    BusMethod(
                        name: "GetAll", inArguments: [BusArgument(name: "interface_name", signature: "s")],
                        outArguments: [BusArgument(name: "properties", signature: "a{sv}")],
                        handler: handlers.getAll),
                    BusMethod(
                        name: "Set",
                        inArguments: [
                            BusArgument(name: "interface_name", signature: "s"),
                            BusArgument(name: "property_name", signature: "s"),
                            BusArgument(name: "value", signature: "v"),
                        ],
                        handler: handlers.set),
                ],
                signals: [
                    BusSignal(
                        name: "PropertiesChanged",
                        arguments: [
                            BusArgument(name: "interface_name", signature: "s"),
                            BusArgument(name: "changed_properties", signature: "a{sv}"),
                            BusArgument(name: "invalidated_properties", signature: "as"),
                        ])
                ]),
        ]
    }
}
