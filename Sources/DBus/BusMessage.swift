// SPDX-License-Identifier: MIT
internal import CDBus

/// The four kinds of D-Bus message.
public enum BusMessageType: Equatable, Sendable {
    /// A method call.
    case methodCall
    /// A successful reply to a method call.
    case methodReturn
    /// An error reply to a method call.
    case error
    /// A signal.
    case signal
    /// A type this module does not know (never sent by a conforming peer).
    case invalid
}

/// One D-Bus message: owns a `DBusMessage` reference and releases it when dropped.
///
/// A message made by one of the factories can be appended to until it is sent; a received
/// message is read-only (libdbus locks both kinds and aborts on a write to a locked message, so
/// this class remembers which is which and throws instead).
public final class BusMessage {
    /// The libdbus message; one reference belongs to this object.
    private let handle: OpaquePointer
    /// True while values may still be appended (made here and not yet sent).
    private var isWritable: Bool
    /// The wire size of the body written so far, for the protocol's size limits.
    private var bodyLength = 0

    /// Takes over one reference to `handle`.
    private init(owning handle: OpaquePointer, writable: Bool) {
        self.handle = handle
        self.isWritable = writable
    }

    deinit {
        dbus_message_unref(handle)
    }

    /// Wraps a message that libdbus handed over with a reference for us, as
    /// `dbus_connection_pop_message` does.
    static func adopting(_ handle: OpaquePointer) -> BusMessage {
        BusMessage(owning: handle, writable: false)
    }

    /// Wraps a message that libdbus lends to a callback, taking a reference of our own.
    static func retaining(_ handle: OpaquePointer) -> BusMessage {
        BusMessage(owning: dbus_message_ref(handle), writable: false)
    }

    /// Gives `body` the libdbus message; the pointer must not outlive the call.
    func withUnsafeHandle<Result>(_ body: (OpaquePointer) throws -> Result) rethrows -> Result {
        try body(handle)
    }

    /// Marks the message as sent: libdbus has locked it.
    func markSent() {
        isWritable = false
    }

    /// The message's bytes on the wire with `serial`, for a connection that writes its own
    /// socket (`BusCallLink`); the message is sent from then on (locked, serial set).
    func marshalled(serial: UInt32) throws -> [UInt8] {
        guard isWritable else {
            throw BusError.invalidArgs("a message that was sent or received cannot be sent again")
        }
        dbus_message_set_serial(handle, serial)
        markSent()
        var bytes: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        guard dbus_message_marshal(handle, &bytes, &length) != 0, let bytes else {
            throw BusError.noMemory("marshalling a message")
        }
        defer { dbus_free(bytes) }
        return bytes.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
            Array(UnsafeBufferPointer(start: $0, count: Int(length)))
        }
    }

    /// How many bytes the message starting at `bytes` takes: nil while fewer than its fixed
    /// header are there, and an `InvalidArgs` error for a header no message can have (or a
    /// length over the protocol's 128 MiB).
    static func wireLength(of bytes: UnsafeRawBufferPointer) throws -> Int? {
        guard bytes.count >= 16, let base = bytes.baseAddress else { return nil }
        let needed = dbus_message_demarshal_bytes_needed(
            base.assumingMemoryBound(to: CChar.self), Int32(clamping: bytes.count))
        guard needed > 0 else { throw BusError.invalidArgs("the bus sent bytes that start no message") }
        return Int(needed)
    }

    /// The message in `bytes` (exactly one, as `wireLength` measured it), checked by libdbus.
    static func demarshalled(_ bytes: UnsafeRawBufferPointer) throws -> BusMessage {
        guard let base = bytes.baseAddress else { throw BusError.invalidArgs("an empty message") }
        let handle = try withBusError { error in
            dbus_message_demarshal(
                base.assumingMemoryBound(to: CChar.self), Int32(clamping: bytes.count), error)
        }
        guard let handle else { throw BusError.noMemory("reading a message") }
        return BusMessage.adopting(handle)
    }

    // MARK: - Factories

    /// A method call to `member` of `interface` on the object at `path` of `destination`.
    ///
    /// `destination` nil sends to no one in particular (only useful on a peer-to-peer
    /// connection); `interface` nil lets the receiver pick the method by name.
    public static func methodCall(
        destination: String?, path: String, interface: String?, member: String
    ) throws -> BusMessage {
        if let destination { try BusSyntax.checkBusName(destination) }
        try checkPath(path)
        if let interface { try checkInterface(interface) }
        try BusSyntax.checkMemberName(member, what: "method name")
        guard let handle = dbus_message_new_method_call(destination, path, interface, member) else {
            throw BusError.noMemory("making a method call")
        }
        return BusMessage(owning: handle, writable: true)
    }

    /// A signal `member` of `interface`, emitted from the object at `path`.
    public static func signal(path: String, interface: String, member: String) throws -> BusMessage {
        try checkPath(path)
        try checkInterface(interface)
        try BusSyntax.checkMemberName(member, what: "signal name")
        guard let handle = dbus_message_new_signal(path, interface, member) else {
            throw BusError.noMemory("making a signal")
        }
        return BusMessage(owning: handle, writable: true)
    }

    /// An empty successful reply to `call` (append the out-values to it).
    public static func methodReturn(replyingTo call: BusMessage) throws -> BusMessage {
        try call.checkIsMethodCall()
        guard let handle = dbus_message_new_method_return(call.handle) else {
            throw BusError.noMemory("making a method return")
        }
        return BusMessage(owning: handle, writable: true)
    }

    /// An error reply to `call` with the error `name` and a human-readable `message`.
    public static func error(replyingTo call: BusMessage, name: String, message: String) throws -> BusMessage
    {
        try call.checkIsMethodCall()
        try BusSyntax.checkErrorName(name)
        try BusSyntax.checkString(message, what: "error message")
        guard let handle = dbus_message_new_error(call.handle, name, message) else {
            throw BusError.noMemory("making an error reply")
        }
        return BusMessage(owning: handle, writable: true)
    }

    /// Throws unless `path` is a valid object path other than the reserved local one.
    private static func checkPath(_ path: String) throws {
        try BusSyntax.checkObjectPath(path)
        guard path != BusSyntax.localPath else {
            throw BusError.invalidArgs("the object path \(path) is reserved for libdbus itself")
        }
    }

    /// Throws unless `interface` is a valid interface name other than the reserved local one.
    private static func checkInterface(_ interface: String) throws {
        try BusSyntax.checkInterfaceName(interface)
        guard interface != BusSyntax.localInterface else {
            throw BusError.invalidArgs("the interface \(interface) is reserved for libdbus itself")
        }
    }

    /// Throws unless this message is a method call that was sent or received: a reply names the
    /// call's serial, and libdbus aborts on a reply to serial 0.
    private func checkIsMethodCall() throws {
        guard type == .methodCall else {
            throw BusError.invalidArgs("only a method call can be replied to, not a message of type \(type)")
        }
        guard serial != 0 else {
            throw BusError.invalidArgs(
                "only a method call that was sent or received (it has a serial) can be replied to")
        }
    }

    // MARK: - Header

    /// The kind of message.
    public var type: BusMessageType {
        switch dbus_message_get_type(handle) {
        case DBUS_MESSAGE_TYPE_METHOD_CALL: return .methodCall
        case DBUS_MESSAGE_TYPE_METHOD_RETURN: return .methodReturn
        case DBUS_MESSAGE_TYPE_ERROR: return .error
        case DBUS_MESSAGE_TYPE_SIGNAL: return .signal
        default: return .invalid
        }
    }

    /// The unique name of the sending connection (set by the bus), if any.
    public var sender: String? { string(dbus_message_get_sender(handle)) }
    /// The bus name the message is addressed to, if any.
    public var destination: String? { string(dbus_message_get_destination(handle)) }
    /// The object path of a call or signal.
    public var path: String? { string(dbus_message_get_path(handle)) }
    /// The interface of a call or signal (optional in calls).
    public var interface: String? { string(dbus_message_get_interface(handle)) }
    /// The method or signal name.
    public var member: String? { string(dbus_message_get_member(handle)) }
    /// The signature of the body (empty when there are no values).
    public var signature: String { string(dbus_message_get_signature(handle)) ?? "" }
    /// The serial number, assigned when the message is sent (0 before).
    public var serial: UInt32 { dbus_message_get_serial(handle) }
    /// The serial of the call a reply answers (0 for other messages).
    public var replySerial: UInt32 { dbus_message_get_reply_serial(handle) }
    /// The error name of an error reply.
    public var errorName: String? { string(dbus_message_get_error_name(handle)) }
    /// True when the caller asked for no reply.
    public var noReplyExpected: Bool { dbus_message_get_no_reply(handle) != 0 }

    /// Asks the receiver not to reply (or clears that request); only before the message is sent.
    public func setNoReplyExpected(_ noReply: Bool) throws {
        try checkWritable()
        dbus_message_set_no_reply(handle, noReply ? 1 : 0)
    }

    /// Lets the bus start the destination's service if no one owns its name (the default),
    /// or not; only before the message is sent.
    public func setAutoStart(_ autoStart: Bool) throws {
        try checkWritable()
        dbus_message_set_auto_start(handle, autoStart ? 1 : 0)
    }

    /// For an error reply, the error it carries (name and first string argument); nil otherwise.
    public var busError: BusError? {
        guard type == .error else { return nil }
        var message = ""
        if let values = try? readValues(), case .string(let text)? = values.first { message = text }
        return BusError(name: errorName ?? BusErrorName.failed, message: message)
    }

    /// A copy of a C string owned by the message.
    private func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    // MARK: - Body

    /// Appends `values` to the body.
    ///
    /// All values are checked first (strings, paths, signatures, element types, nesting and the
    /// protocol's size limits): on `InvalidArgs` or `LimitsExceeded` nothing has been appended.
    public func append(_ values: [BusValue]) throws {
        try checkWritable()
        var checker = BusValueChecker(offset: bodyLength)
        var types: [BusType] = []
        types.reserveCapacity(values.count)
        // Appended in place: a map and a join would cost a start-up's first call two more
        // generic types to instantiate.
        var newSignature = signature
        for value in values {
            let type = try checker.check(value)
            types.append(type)
            newSignature += type.signature
        }
        guard newSignature.utf8.count <= BusSignature.maximumLength else {
            throw BusError.limitsExceeded(
                "the message's signature would be longer than \(BusSignature.maximumLength) bytes")
        }
        guard checker.offset + headerAllowance <= BusValueChecker.maximumMessageLength else {
            throw BusError.limitsExceeded(
                "the message would be larger than the D-Bus limit of \(BusValueChecker.maximumMessageLength) bytes"
            )
        }
        var iterator = DBusMessageIter()
        dbus_message_iter_init_append(handle, &iterator)
        for (value, type) in zip(values, types) where !BusValueWriter.write(value, as: type, into: &iterator)
        {
            // Only memory can run out here; the message is then half-written and unusable.
            isWritable = false
            throw BusError.noMemory("appending values to a message")
        }
        bodyLength = checker.offset
    }

    /// Appends an array of `(ts)` structures (an id and a text each) written straight from
    /// `count` elements that `element` gives by index, with no boxed `BusValue` per element:
    /// the path of large replies such as `GetRows`.
    ///
    /// Checked first as `append` checks (no NUL in a text, the protocol's size limits): on
    /// `InvalidArgs` or `LimitsExceeded` nothing has been appended.
    public func appendIDTextArray(count: Int, _ element: (Int) -> (id: UInt64, text: String)) throws {
        try checkWritable()
        // An upper bound of the wire size: each structure aligned to 8, its id, the text's
        // length, bytes and NUL.
        var size = bodyLength + 8
        for index in 0..<count {
            let text = element(index).text
            // The contiguous bytes when there are (native strings): a tight loop, not the
            // generic one over the view, which once took a tenth of a page's writing.
            let holdsNUL =
                text.utf8.withContiguousStorageIfAvailable { $0.contains(0) } ?? text.utf8.contains(0)
            if holdsNUL {
                throw BusError.invalidArgs("element \(index) of an a(ts) array holds a NUL byte in its text")
            }
            size += 8 + 8 + 4 + text.utf8.count + 1
        }
        guard size - bodyLength <= BusValueChecker.maximumArrayLength + 16,
            size + headerAllowance <= BusValueChecker.maximumMessageLength
        else {
            throw BusError.limitsExceeded(
                "the message would be larger than the D-Bus limit of \(BusValueChecker.maximumMessageLength) bytes"
            )
        }
        guard (signature + "a(ts)").utf8.count <= BusSignature.maximumLength else {
            throw BusError.limitsExceeded(
                "the message's signature would be longer than \(BusSignature.maximumLength) bytes")
        }
        var iterator = DBusMessageIter()
        dbus_message_iter_init_append(handle, &iterator)
        var array = DBusMessageIter()
        var written =
            dbus_message_iter_open_container(&iterator, Int32(UInt8(ascii: "a")), "(ts)", &array) != 0
        var index = 0
        while written && index < count {
            let (id, text) = element(index)
            var structure = DBusMessageIter()
            written = dbus_message_iter_open_container(&array, Int32(UInt8(ascii: "r")), nil, &structure) != 0
            guard written else { break }
            var number = id
            written = dbus_message_iter_append_basic(&structure, Int32(UInt8(ascii: "t")), &number) != 0
            if written {
                written = text.withCString { cString in
                    var pointer: UnsafePointer<CChar>? = cString
                    return dbus_message_iter_append_basic(&structure, Int32(UInt8(ascii: "s")), &pointer) != 0
                }
            }
            written = written && dbus_message_iter_close_container(&array, &structure) != 0
            index += 1
        }
        written = written && dbus_message_iter_close_container(&iterator, &array) != 0
        guard written else {
            // Only memory can run out here; the message is then half-written and unusable.
            isWritable = false
            throw BusError.noMemory("appending an a(ts) array to a message")
        }
        bodyLength = size
    }

    /// Room left for the header when checking the message size: the fixed part, the names it
    /// holds, the sender the bus adds and the signature.
    private var headerAllowance: Int {
        let names = [path, interface, member, destination, errorName].reduce(0) { $0 + ($1?.utf8.count ?? 0) }
        return 1024 + names
    }

    /// Reads all values of the body, in order.
    public func readValues() throws -> [BusValue] {
        try readValues(maximumElements: .max)
    }

    /// Reads all values of the body, in order, when their arrays and dictionaries hold at
    /// most `maximumElements` elements together; throws `LimitsExceeded` otherwise.
    ///
    /// The count is checked before the elements are decoded, so that one message cannot make
    /// millions of values.
    public func readValues(maximumElements: Int) throws -> [BusValue] {
        let types = try BusSignature.parse(signature)
        var iterator = DBusMessageIter()
        guard dbus_message_iter_init(handle, &iterator) != 0 else { return [] }
        var values: [BusValue] = []
        var budget = maximumElements
        for type in types {
            values.append(try BusValueReader.read(type, from: &iterator, budget: &budget))
            dbus_message_iter_next(&iterator)
        }
        return values
    }

    /// Throws unless values may still be added to this message.
    private func checkWritable() throws {
        guard isWritable else {
            throw BusError.invalidArgs(
                "the message cannot be changed: it was received, or it has already been sent")
        }
    }
}
