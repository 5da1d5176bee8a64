// SPDX-License-Identifier: MIT

/// Signals: a declared signal of an object's interface, and PropertiesChanged.
extension BusConnection {
    /// Emits `signal` of `interface` from the object at `path` carrying `values`, which must
    /// match the signal's declared arguments.
    public func emit(_ signal: BusSignal, from path: String, interface: String, values: [BusValue]) throws {
        let signature = values.map(\.signature).joined()
        guard signature == signal.signature else {
            throw BusError.invalidArgs(
                "the signal \(interface).\(signal.name) carries \(BusSyntax.quoted(signal.signature)), "
                    + "not \(BusSyntax.quoted(signature))")
        }
        let message = try BusMessage.signal(path: path, interface: interface, member: signal.name)
        try message.append(values)
        try send(message)
    }

    /// Emits `org.freedesktop.DBus.Properties.PropertiesChanged` for properties of `interface`
    /// at `path`: `changed` with their new values, `invalidated` by name only.
    ///
    /// When an object is registered at `path`, the names and value types are checked against
    /// its declaration.
    public func emitPropertiesChanged(
        path: String, interface: String, changed: [String: BusValue], invalidated: [String] = []
    ) throws {
        if let declared = registration(at: path)?.interfaces.first(where: { $0.name == interface }) {
            for (name, value) in changed {
                guard let property = declared.properties.first(where: { $0.name == name }) else {
                    throw BusError.invalidArgs("\(interface) at \(path) has no property \(name)")
                }
                guard property.signature == value.signature else {
                    throw BusError.invalidArgs(
                        "the property \(interface).\(name) has type \(BusSyntax.quoted(property.signature)), "
                            + "not \(BusSyntax.quoted(value.signature))")
                }
            }
            for name in invalidated where !declared.properties.contains(where: { $0.name == name }) {
                throw BusError.invalidArgs("\(interface) at \(path) has no property \(name)")
            }
        }
        let entries = changed.sorted { $0.key < $1.key }.map {
            (BusValue.string($0.key), BusValue.variant($0.value))
        }
        let signal = StandardInterfaces.descriptions.first { $0.name == StandardInterfaces.properties }!
            .signals[0]
        try emit(
            signal, from: path, interface: StandardInterfaces.properties,
            values: [
                .string(interface), .dictionary(keySignature: "s", valueSignature: "v", entries),
                .array(elementSignature: "s", invalidated.map(BusValue.string)),
            ])
    }
}
