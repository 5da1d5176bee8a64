// SPDX-License-Identifier: MIT
internal import CDBus

/// One object path registered on a connection: its interfaces and the dispatch of the method
/// calls libdbus routes to it.
final class BusObjectRegistration {
    /// The object path.
    let path: String
    /// The application's interfaces, as registered.
    let interfaces: [BusInterface]
    /// The connection the object is registered on; it unregisters the object before it goes.
    unowned let connection: BusConnection
    /// The application's interfaces followed by the standard ones, as dispatch searches them.
    private var served: [BusInterface] = []

    /// Makes the registration of `interfaces` at `path` on `connection`.
    init(path: String, interfaces: [BusInterface], connection: BusConnection) {
        self.path = path
        self.interfaces = interfaces
        self.connection = connection
        let handlers = StandardInterfaces.Handlers(
            ping: { _ in .empty },
            getMachineId: { _ in
                let id = try withBusError { error in dbus_try_get_local_machine_id(error) }
                guard let id else { throw BusError.failed("the machine id is not available") }
                defer { dbus_free(id) }
                return .values([.string(String(cString: id))])
            },
            introspect: { [unowned self] _ in .values([.string(self.introspectionXML())]) },
            get: { [unowned self] call in try self.getProperty(call) },
            getAll: { [unowned self] call in try self.getAllProperties(call) },
            set: { [unowned self] call in try self.setProperty(call) })
        served = interfaces + StandardInterfaces.interfaces(handlers)
    }

    /// The object's introspection document, with the child nodes registered below it.
    func introspectionXML() -> String {
        BusIntrospection.xml(for: interfaces, children: connection.registeredChildren(of: path))
    }

    // MARK: - Dispatch

    /// Serves one message libdbus routed to this path; returns true when it was handled.
    func dispatch(_ message: BusMessage) -> Bool {
        guard message.type == .methodCall, let member = message.member else { return false }
        let interfaceName = message.interface
        let method: BusMethod
        let interface: BusInterface
        do {
            (interface, method) = try resolve(interface: interfaceName, member: member)
            let signature = message.signature
            guard signature == method.inSignature else {
                throw BusError.invalidArgs(
                    "\(interface.name).\(member) expects arguments of signature "
                        + "\(BusSyntax.quoted(method.inSignature)), got \(BusSyntax.quoted(signature))")
            }
        } catch {
            answer(message, with: error)
            return true
        }
        let arguments: [BusValue]
        do {
            arguments = try message.readValues(maximumElements: connection.elementLimit.maximum)
        } catch let error as BusError where error.name == BusErrorName.limitsExceeded {
            answer(message, with: connection.elementLimit.error(connection.elementLimit.maximum))
            return true
        } catch {
            answer(message, with: error)
            return true
        }
        let call = BusMethodCall(
            message: message, arguments: arguments, interface: interface.name, member: member,
            replySignature: method.outSignature, connection: connection)
        do {
            switch try method.handler(call) {
            case .values(let values):
                // A handler that answered by itself already has its reply on the way.
                if !call.isAnswered { try? call.reply(values) }
            case .writing(let write):
                if !call.isAnswered { try? call.reply(writing: write) }
            case .deferred:
                break
            }
        } catch {
            if !call.isAnswered { try? call.replyError(error) }
        }
        return true
    }

    /// Finds the method for a call; without an interface, the first method of that name.
    private func resolve(interface name: String?, member: String) throws -> (BusInterface, BusMethod) {
        guard let name else {
            for interface in served {
                if let method = interface.methods.first(where: { $0.name == member }) {
                    return (interface, method)
                }
            }
            throw BusError.unknownMethod("the object at \(path) has no method \(member) in any interface")
        }
        guard let interface = served.first(where: { $0.name == name }) else {
            throw BusError.unknownMethod("the object at \(path) has no interface \(name) (calling \(member))")
        }
        guard let method = interface.methods.first(where: { $0.name == member }) else {
            throw BusError.unknownMethod("the interface \(name) at \(path) has no method \(member)")
        }
        return (interface, method)
    }

    /// Sends an error reply to `message` that the dispatcher produced before any handler ran.
    private func answer(_ message: BusMessage, with error: any Error) {
        guard !message.noReplyExpected else { return }
        let converted = BusError.replying(to: error)
        if let reply = try? BusMessage.error(
            replyingTo: message, name: converted.name, message: converted.message)
        {
            _ = try? connection.send(reply)
        }
    }

    // MARK: - Properties

    /// The application interface named `name`, or the error `Properties` answers for it.
    private func propertyInterface(_ name: String) throws -> BusInterface {
        if let interface = interfaces.first(where: { $0.name == name }) { return interface }
        throw BusError(
            name: BusErrorName.unknownInterface, message: "the object at \(path) has no interface \(name)")
    }

    /// The property `name` of interface `interfaceName` (any interface when that is empty).
    private func property(_ interfaceName: String, _ name: String) throws -> (BusInterface, BusProperty) {
        let candidates = interfaceName.isEmpty ? interfaces : [try propertyInterface(interfaceName)]
        for interface in candidates {
            if let property = interface.properties.first(where: { $0.name == name }) {
                return (interface, property)
            }
        }
        let place = interfaceName.isEmpty ? "any interface" : "interface \(interfaceName)"
        throw BusError(
            name: BusErrorName.unknownProperty,
            message: "the object at \(path) has no property \(name) in \(place)")
    }

    /// Reads a property and checks its value against the declared type.
    private func value(of property: BusProperty, in interface: BusInterface) throws -> BusValue {
        let value = try property.get()
        guard value.signature == property.signature else {
            throw BusError.failed(
                "the property \(interface.name).\(property.name) produced a value of signature "
                    + "\(BusSyntax.quoted(value.signature)) instead of the declared "
                    + "\(BusSyntax.quoted(property.signature))")
        }
        return value
    }

    /// `Properties.Get(s interface, s property) -> v`.
    private func getProperty(_ call: BusMethodCall) throws -> BusReply {
        guard case .string(let interfaceName) = call.arguments[0], case .string(let name) = call.arguments[1]
        else {
            throw BusError.invalidArgs("Get expects two strings")
        }
        let (interface, property) = try property(interfaceName, name)
        return .values([.variant(try value(of: property, in: interface))])
    }

    /// `Properties.GetAll(s interface) -> a{sv}`; the standard interfaces have no properties.
    ///
    /// A property whose getter fails is left out, as GDBus does, so that one broken property
    /// does not hide the others from `busctl introspect` or `gdbus introspect`; `Get` reports
    /// its error.
    private func getAllProperties(_ call: BusMethodCall) throws -> BusReply {
        guard case .string(let interfaceName) = call.arguments[0] else {
            throw BusError.invalidArgs("GetAll expects a string")
        }
        var entries: [(BusValue, BusValue)] = []
        if !BusIntrospection.standardInterfaceNames.contains(interfaceName) {
            let interface = try propertyInterface(interfaceName)
            for property in interface.properties {
                guard let value = try? value(of: property, in: interface) else { continue }
                entries.append((.string(property.name), .variant(value)))
            }
        }
        return .values([.dictionary(keySignature: "s", valueSignature: "v", entries)])
    }

    /// `Properties.Set(s interface, s property, v value)`.
    private func setProperty(_ call: BusMethodCall) throws -> BusReply {
        guard case .string(let interfaceName) = call.arguments[0], case .string(let name) = call.arguments[1],
            case .variant(let newValue) = call.arguments[2]
        else {
            throw BusError.invalidArgs("Set expects two strings and a variant")
        }
        let (interface, property) = try property(interfaceName, name)
        guard property.access == .readwrite, let set = property.set else {
            throw BusError(
                name: BusErrorName.propertyReadOnly,
                message: "the property \(interface.name).\(property.name) is read-only")
        }
        guard newValue.signature == property.signature else {
            throw BusError.invalidArgs(
                "the property \(interface.name).\(property.name) has type \(BusSyntax.quoted(property.signature)), "
                    + "not \(BusSyntax.quoted(newValue.signature))")
        }
        try set(newValue)
        return .empty
    }
}
