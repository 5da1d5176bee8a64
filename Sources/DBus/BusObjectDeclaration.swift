// SPDX-License-Identifier: MIT

/// An object to serve: its path and interfaces (plus Introspectable, Properties and Peer,
/// which every object has), checked once when it is made.
public struct BusObjectDeclaration {
    /// The object path.
    public let path: String
    /// The application's interfaces.
    public let interfaces: [BusInterface]

    /// Checks `path` and every declaration of `interfaces`.
    ///
    /// Throws `InvalidArgs` for an invalid path or declaration, a standard interface, or an
    /// interface given twice.
    public init(path: String, interfaces: [BusInterface]) throws {
        try BusSyntax.checkObjectPath(path)
        var names: Set<String> = []
        for interface in interfaces {
            try interface.validate()
            guard !BusIntrospection.standardInterfaceNames.contains(interface.name) else {
                throw BusError.invalidArgs(
                    "\(interface.name) is served by every object and cannot be registered")
            }
            guard names.insert(interface.name).inserted else {
                throw BusError.invalidArgs("the interface \(interface.name) is given twice for \(path)")
            }
        }
        self.path = path
        self.interfaces = interfaces
    }
}
