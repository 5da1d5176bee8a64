// SPDX-License-Identifier: MIT

/// A named argument of a method or signal, as introspection shows it.
public struct BusArgument: Sendable, Equatable {
    /// The argument's name (shown by introspection; may be empty).
    public var name: String
    /// The argument's signature: exactly one complete type.
    public var signature: String

    /// Makes an argument `name` of type `signature`.
    public init(name: String, signature: String) {
        self.name = name
        self.signature = signature
    }
}

/// What a method handler answers.
public enum BusReply {
    /// Reply now with these out-values (they must match the declared out-arguments).
    case values([BusValue])
    /// The handler kept the `BusMethodCall` and will answer later with `reply` or `replyError`.
    case deferred
    /// Reply now with a message that this closure writes its out-values into directly (with
    /// `BusMessage.appendIDTextArray`, say), for replies too large to box value by value.
    case writing((BusMessage) throws -> Void)

    /// An empty reply, for methods without out-arguments.
    public static var empty: BusReply { .values([]) }
}

/// A method of an interface and the handler that serves it.
public struct BusMethod {
    /// The method's name.
    public var name: String
    /// The arguments the caller sends.
    public var inArguments: [BusArgument]
    /// The values the reply carries.
    public var outArguments: [BusArgument]
    /// Serves one call; runs on the thread that dispatches the connection.
    public var handler: (BusMethodCall) throws -> BusReply

    /// Makes a method; `handler` is called with arguments already checked against `inArguments`.
    public init(
        name: String, inArguments: [BusArgument] = [], outArguments: [BusArgument] = [],
        handler: @escaping (BusMethodCall) throws -> BusReply
    ) {
        self.name = name
        self.inArguments = inArguments
        self.outArguments = outArguments
        self.handler = handler
    }

    /// The signature a call must have.
    public var inSignature: String { inArguments.map(\.signature).joined() }
    /// The signature a reply must have.
    public var outSignature: String { outArguments.map(\.signature).joined() }
}

/// A signal an interface emits.
public struct BusSignal: Sendable, Equatable {
    /// The signal's name.
    public var name: String
    /// The values it carries.
    public var arguments: [BusArgument]

    /// Makes a signal `name` carrying `arguments`.
    public init(name: String, arguments: [BusArgument] = []) {
        self.name = name
        self.arguments = arguments
    }

    /// The signature of the values the signal carries.
    public var signature: String { arguments.map(\.signature).joined() }
}

/// A property served through `org.freedesktop.DBus.Properties`.
public struct BusProperty {
    /// Whether a property can be set.
    public enum Access: String, Sendable {
        /// `Get` and `GetAll` only.
        case read
        /// Also `Set`.
        case readwrite
    }

    /// How a property announces its changes (the `EmitsChangedSignal` annotation).
    public enum ChangeSignal: String, Sendable {
        /// `PropertiesChanged` carries the new value (the default; no annotation is written).
        case `true`
        /// `PropertiesChanged` names the property as invalidated, without its value.
        case invalidates
        /// The value never changes while the object exists.
        case const
        /// No signal announces changes.
        case `false`
    }

    /// The property's name.
    public var name: String
    /// Its signature: exactly one complete type.
    public var signature: String
    /// Whether it can be set.
    public var access: Access
    /// How changes are announced (shown by introspection).
    public var changeSignal: ChangeSignal
    /// Returns the current value; it must be of type `signature`.
    public var get: () throws -> BusValue
    /// Sets a new value (already checked to be of type `signature`); required for `.readwrite`.
    public var set: ((BusValue) throws -> Void)?

    /// Makes a property; `set` must be given for a `.readwrite` property.
    public init(
        name: String, signature: String, access: Access = .read, changeSignal: ChangeSignal = .true,
        get: @escaping () throws -> BusValue, set: ((BusValue) throws -> Void)? = nil
    ) {
        self.name = name
        self.signature = signature
        self.access = access
        self.changeSignal = changeSignal
        self.get = get
        self.set = set
    }
}

/// A D-Bus interface: the methods, signals and properties an object serves under one name.
public struct BusInterface {
    /// The interface name, such as `com.example.App1`.
    public var name: String
    /// Its methods.
    public var methods: [BusMethod]
    /// Its signals.
    public var signals: [BusSignal]
    /// Its properties.
    public var properties: [BusProperty]

    /// Makes an interface.
    public init(
        name: String, methods: [BusMethod] = [], signals: [BusSignal] = [], properties: [BusProperty] = []
    ) {
        self.name = name
        self.methods = methods
        self.signals = signals
        self.properties = properties
    }

    /// Throws `InvalidArgs` saying what is wrong with the declaration: an invalid name or
    /// signature, a duplicate member, or a writable property without a setter.
    public func validate() throws {
        try BusSyntax.checkInterfaceName(name)
        func checkArguments(_ arguments: [BusArgument], of what: String) throws {
            for argument in arguments {
                try BusSyntax.checkString(argument.name, what: "argument name of \(what)")
                _ = try BusSignature.parseSingle(argument.signature, what: "signature of argument of \(what)")
            }
            guard arguments.map(\.signature).joined().utf8.count <= BusSignature.maximumLength else {
                throw BusError.invalidArgs("the arguments of \(what) have a signature longer than 255 bytes")
            }
        }
        for method in methods {
            try BusSyntax.checkMemberName(method.name, what: "method name in \(name)")
            try checkArguments(method.inArguments, of: "\(name).\(method.name)")
            try checkArguments(method.outArguments, of: "\(name).\(method.name)")
        }
        for signal in signals {
            try BusSyntax.checkMemberName(signal.name, what: "signal name in \(name)")
            try checkArguments(signal.arguments, of: "\(name).\(signal.name)")
        }
        for property in properties {
            try BusSyntax.checkMemberName(property.name, what: "property name in \(name)")
            _ = try BusSignature.parseSingle(
                property.signature, what: "signature of \(name).\(property.name)")
            if property.access == .readwrite && property.set == nil {
                throw BusError.invalidArgs("the writable property \(name).\(property.name) has no setter")
            }
        }
        for (kind, names) in [
            ("method", methods.map(\.name)), ("signal", signals.map(\.name)),
            ("property", properties.map(\.name)),
        ] {
            if let duplicate = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
                throw BusError.invalidArgs("the \(kind) \(name).\(duplicate) is declared twice")
            }
        }
    }
}

/// One method call being served: its message, decoded arguments, and the means to answer it
/// exactly once, now or later.
///
/// A call that is dropped without an answer is answered with `org.freedesktop.DBus.Error.Failed`,
/// so a caller never waits for its timeout because of a forgotten deferred reply.
public final class BusMethodCall {
    /// The call as received.
    public let message: BusMessage
    /// The arguments, already checked against the method's in-signature.
    public let arguments: [BusValue]
    /// The unique bus name of the caller.
    public let sender: String?
    /// The interface the call was dispatched to.
    public let interface: String
    /// The method name.
    public let member: String
    /// True once a reply or an error has been sent (or dropped because none was wanted).
    public private(set) var isAnswered = false
    /// The connection the answer goes out on.
    private let connection: BusConnection
    /// The declared out-signature the reply values must have.
    private let replySignature: String

    /// Makes a call to be served (only the dispatcher does).
    init(
        message: BusMessage, arguments: [BusValue], interface: String, member: String,
        replySignature: String, connection: BusConnection
    ) {
        self.message = message
        self.arguments = arguments
        self.sender = message.sender
        self.interface = interface
        self.member = member
        self.replySignature = replySignature
        self.connection = connection
    }

    deinit {
        if !isAnswered {
            try? replyError(BusError.failed("\(interface).\(member) was dropped without an answer"))
        }
    }

    /// Answers the call with `values`.
    ///
    /// Values that do not match the declared out-signature (or are invalid) are a programming
    /// error: the caller then gets `org.freedesktop.DBus.Error.Failed` and this throws it too.
    public func reply(_ values: [BusValue]) throws {
        try checkNotAnswered()
        let signature = values.map(\.signature).joined()
        guard signature == replySignature else {
            let error = BusError.failed(
                "\(interface).\(member) produced a reply of signature \(BusSyntax.quoted(signature)) "
                    + "instead of the declared \(BusSyntax.quoted(replySignature))")
            try replyError(error)
            throw error
        }
        let reply = try BusMessage.methodReturn(replyingTo: message)
        do {
            try reply.append(values)
        } catch {
            let failure = BusError.failed("\(interface).\(member) produced an invalid reply: \(error)")
            try replyError(failure)
            throw failure
        }
        try send(reply)
    }

    /// Answers the call with a reply whose values `write` appends to it directly; they must
    /// match the declared out-arguments.
    public func reply(writing write: (BusMessage) throws -> Void) throws {
        try checkNotAnswered()
        let reply = try BusMessage.methodReturn(replyingTo: message)
        do {
            try write(reply)
        } catch {
            try replyError(error)
            throw error
        }
        guard reply.signature == replySignature else {
            let error = BusError.failed(
                "\(interface).\(member) produced a reply of signature \(BusSyntax.quoted(reply.signature)) "
                    + "instead of the declared \(BusSyntax.quoted(replySignature))")
            try replyError(error)
            throw error
        }
        try send(reply)
    }

    /// Answers the call with an error: a `BusErrorConvertible` (including `BusError`) keeps its
    /// name and message, any other error becomes `org.freedesktop.DBus.Error.Failed`.
    public func replyError(_ error: any Error) throws {
        try checkNotAnswered()
        let converted = BusError.replying(to: error)
        try send(BusMessage.error(replyingTo: message, name: converted.name, message: converted.message))
    }

    /// Sends `reply` unless the caller asked for none; the call counts as answered either way.
    private func send(_ reply: BusMessage) throws {
        isAnswered = true
        if message.noReplyExpected { return }
        try connection.send(reply)
    }

    /// Throws if the call has been answered already (D-Bus allows exactly one reply).
    private func checkNotAnswered() throws {
        guard !isAnswered else {
            throw BusError.failed("\(interface).\(member) has already been answered")
        }
    }
}
