// SPDX-License-Identifier: MIT
internal import CDBus

/// Checks `BusValue`s against their types and the protocol limits before they are written, and
/// counts the bytes they take on the wire.
///
/// Everything libdbus would abort on (invalid strings, paths, signatures, arrays over 64 MiB)
/// and everything the bus would disconnect us for (messages over 128 MiB, values nested more
/// than 64 deep) is caught here, so that writing can no longer fail but for lack of memory.
struct BusValueChecker {
    /// The largest marshalled array (bytes), from the specification.
    static let maximumArrayLength = 1 << 26
    /// The largest message (bytes), from the specification.
    static let maximumMessageLength = 1 << 27
    /// The deepest nesting of containers in one message (32 arrays plus 32 structs).
    static let maximumDepth = 64

    /// The body offset the next value starts at: the wire size so far.
    var offset: Int

    /// Makes a checker that continues a body of `offset` bytes.
    init(offset: Int) {
        self.offset = offset
    }

    /// Checks a top-level value against its own signature and returns its type.
    mutating func check(_ value: BusValue) throws -> BusType {
        let type = try BusChecker.type(of: value)
        try check(value, as: type, depth: 0)
        return type
    }

    /// Checks that `value` is a valid value of `type`; `depth` counts the containers around it
    /// the way libdbus's validator does.
    mutating func check(_ value: BusValue, as type: BusType, depth: Int) throws {
        align(to: type.alignment)
        switch (value, type) {
        case (.byte, .basic(UInt8(ascii: "y"))): offset += 1
        case (.boolean, .basic(UInt8(ascii: "b"))): offset += 4
        case (.int16, .basic(UInt8(ascii: "n"))), (.uint16, .basic(UInt8(ascii: "q"))): offset += 2
        case (.int32, .basic(UInt8(ascii: "i"))), (.uint32, .basic(UInt8(ascii: "u"))): offset += 4
        case (.int64, .basic(UInt8(ascii: "x"))), (.uint64, .basic(UInt8(ascii: "t"))),
            (.double, .basic(UInt8(ascii: "d"))):
            offset += 8
        case (.string(let string), .basic(UInt8(ascii: "s"))):
            try BusSyntax.checkString(string)
            offset += 4 + string.utf8.count + 1
        case (.objectPath(let path), .basic(UInt8(ascii: "o"))):
            try BusSyntax.checkObjectPath(path)
            offset += 4 + path.utf8.count + 1
        case (.signature(let signature), .basic(UInt8(ascii: "g"))):
            _ = try BusSignature.parse(signature)
            offset += 1 + signature.utf8.count + 1
        case (_, .basic(UInt8(ascii: "h"))):
            throw BusError(
                name: BusErrorName.notSupported, message: "Unix file descriptors (\"h\") are not supported")
        case (.array(let elementSignature, let elements), .array(let elementType)):
            guard elementSignature == elementType.signature else {
                throw mismatch(value, type)
            }
            try checkArray(count: elements.count, of: elementType, depth: depth) { checker, index in
                try checker.check(elements[index], as: elementType, depth: depth + 1)
            }
        case (
            .dictionary(let keySignature, let valueSignature, let entries),
            .dictionary(let key, let valueType)
        ):
            guard keySignature == String(UnicodeScalar(key)), valueSignature == valueType.signature else {
                throw mismatch(value, type)
            }
            let entryType = BusType.structure([.basic(key), valueType])
            try checkArray(count: entries.count, of: entryType, depth: depth) { checker, index in
                try checker.check(
                    .structure([entries[index].0, entries[index].1]), as: entryType, depth: depth + 1)
            }
        case (.structure(let fields), .structure(let fieldTypes)):
            guard fields.count == fieldTypes.count else { throw mismatch(value, type) }
            try checkDepth(depth + 1)
            for (field, fieldType) in zip(fields, fieldTypes) {
                try check(field, as: fieldType, depth: depth + 1)
            }
        case (.variant(let inner), .variant):
            let innerSignature = inner.signature
            let innerType = try BusChecker.type(of: inner)
            offset += 1 + innerSignature.utf8.count + 1
            try checkDepth(depth + 1)
            try check(inner, as: innerType, depth: depth + 1)
        default:
            throw mismatch(value, type)
        }
        guard offset <= BusValueChecker.maximumMessageLength else {
            throw BusError.limitsExceeded(
                "the message would be larger than the D-Bus limit of \(BusValueChecker.maximumMessageLength) bytes"
            )
        }
    }

    /// Checks the `count` elements of an array (`checkElement` checks one) and its byte length.
    private mutating func checkArray(
        count: Int, of elementType: BusType, depth: Int,
        _ checkElement: (inout BusValueChecker, Int) throws -> Void
    ) throws {
        offset += 4
        align(to: elementType.alignment)
        let start = offset
        // libdbus only recurses (and counts depth) into non-empty arrays of non-fixed elements.
        if count > 0 && !elementType.isFixed { try checkDepth(depth + 1) }
        for index in 0..<count {
            try checkElement(&self, index)
            guard offset - start <= BusValueChecker.maximumArrayLength else {
                throw BusError.limitsExceeded(
                    "an array of \"\(elementType.signature)\" would be larger than the D-Bus limit of "
                        + "\(BusValueChecker.maximumArrayLength) bytes")
            }
        }
    }

    /// Throws when containers are nested deeper than the bus accepts.
    private func checkDepth(_ depth: Int) throws {
        guard depth <= BusValueChecker.maximumDepth else {
            throw BusError.limitsExceeded(
                "values are nested more than \(BusValueChecker.maximumDepth) containers deep")
        }
    }

    /// Moves `offset` to the next multiple of `alignment`.
    private mutating func align(to alignment: Int) {
        offset = (offset + alignment - 1) / alignment * alignment
    }

    /// The error for a value whose case does not fit the expected type.
    private func mismatch(_ value: BusValue, _ type: BusType) -> BusError {
        BusError.invalidArgs(
            "a value of signature \(BusSyntax.quoted(value.signature)) was given where "
                + "\(BusSyntax.quoted(type.signature)) is expected")
    }
}

/// Helpers shared by the checker.
enum BusChecker {
    /// The type a value claims by its signature; throws for an invalid signature or a type that
    /// holds Unix file descriptors (even an empty `ah` would promise descriptors we cannot send).
    static func type(of value: BusValue) throws -> BusType {
        let type = try BusSignature.parseSingle(value.signature, what: "value signature")
        guard !type.containsUnixFD else {
            throw BusError(
                name: BusErrorName.notSupported, message: "Unix file descriptors (\"h\") are not supported")
        }
        return type
    }
}

/// Writes checked values into a message through libdbus's append iterators.
enum BusValueWriter {
    /// Appends `value` of `type` at `iterator`; false when libdbus ran out of memory (the
    /// values must have passed `BusValueChecker`, so nothing else can fail).
    static func write(_ value: BusValue, as type: BusType, into iterator: inout DBusMessageIter) -> Bool {
        switch (value, type) {
        case (.byte(var byte), _):
            return dbus_message_iter_append_basic(&iterator, type.typeCode, &byte) != 0
        case (.boolean(let flag), _):
            var raw: dbus_bool_t = flag ? 1 : 0
            return dbus_message_iter_append_basic(&iterator, type.typeCode, &raw) != 0
        case (.int16(var number), _):
            return dbus_message_iter_append_basic(&iterator, type.typeCode, &number) != 0
        case (.uint16(var number), _):
            return dbus_message_iter_append_basic(&iterator, type.typeCode, &number) != 0
        case (.int32(var number), _):
            return dbus_message_iter_append_basic(&iterator, type.typeCode, &number) != 0
        case (.uint32(var number), _):
            return dbus_message_iter_append_basic(&iterator, type.typeCode, &number) != 0
        case (.int64(var number), _):
            return dbus_message_iter_append_basic(&iterator, type.typeCode, &number) != 0
        case (.uint64(var number), _):
            return dbus_message_iter_append_basic(&iterator, type.typeCode, &number) != 0
        case (.double(var number), _):
            return dbus_message_iter_append_basic(&iterator, type.typeCode, &number) != 0
        case (.string(let text), _), (.objectPath(let text), _), (.signature(let text), _):
            // libdbus wants a pointer to the `char *`, not the `char *` itself.
            return text.withCString { cString in
                var pointer: UnsafePointer<CChar>? = cString
                return dbus_message_iter_append_basic(&iterator, type.typeCode, &pointer) != 0
            }
        case (.array(_, let elements), .array(let elementType)):
            return writeContainer(type.typeCode, contained: elementType.signature, into: &iterator) { sub in
                if elementType.isFixed { return writeFixedArray(elements, of: elementType, into: &sub) }
                return elements.allSatisfy { write($0, as: elementType, into: &sub) }
            }
        case (.dictionary(_, _, let entries), .dictionary(let key, let valueType)):
            let entrySignature = "{" + String(UnicodeScalar(key)) + valueType.signature + "}"
            return writeContainer(type.typeCode, contained: entrySignature, into: &iterator) { sub in
                entries.allSatisfy { entry in
                    writeContainer(Int32(UInt8(ascii: "e")), contained: nil, into: &sub) { fields in
                        write(entry.0, as: .basic(key), into: &fields)
                            && write(entry.1, as: valueType, into: &fields)
                    }
                }
            }
        case (.structure(let fields), .structure(let fieldTypes)):
            return writeContainer(type.typeCode, contained: nil, into: &iterator) { sub in
                zip(fields, fieldTypes).allSatisfy { write($0, as: $1, into: &sub) }
            }
        case (.variant(let inner), _):
            // The checker parsed this signature already.
            guard let innerType = try? BusSignature.parseSingle(inner.signature) else { return false }
            return writeContainer(type.typeCode, contained: inner.signature, into: &iterator) { sub in
                write(inner, as: innerType, into: &sub)
            }
        default:
            return false
        }
    }

    /// Opens a container, lets `body` fill it, and closes it (or abandons it on failure).
    private static func writeContainer(
        _ code: Int32, contained: String?, into iterator: inout DBusMessageIter,
        _ body: (inout DBusMessageIter) -> Bool
    ) -> Bool {
        var sub = DBusMessageIter()
        let opened: Bool
        if let contained {
            opened = dbus_message_iter_open_container(&iterator, code, contained, &sub) != 0
        } else {
            opened = dbus_message_iter_open_container(&iterator, code, nil, &sub) != 0
        }
        guard opened else { return false }
        guard body(&sub) else {
            dbus_message_iter_abandon_container_if_open(&iterator, &sub)
            return false
        }
        return dbus_message_iter_close_container(&iterator, &sub) != 0
    }

    /// Appends an array of a fixed-size basic type in one call.
    private static func writeFixedArray(
        _ elements: [BusValue], of type: BusType, into iterator: inout DBusMessageIter
    ) -> Bool {
        guard !elements.isEmpty else { return true }
        func append<Element>(_ values: [Element]) -> Bool {
            values.withUnsafeBufferPointer { buffer in
                var base: UnsafeRawPointer? = UnsafeRawPointer(buffer.baseAddress)
                return dbus_message_iter_append_fixed_array(
                    &iterator, type.typeCode, &base, Int32(buffer.count)) != 0
            }
        }
        switch type {
        case .basic(UInt8(ascii: "y")):
            return append(elements.map { if case .byte(let v) = $0 { return v } else { return 0 } })
        case .basic(UInt8(ascii: "b")):
            return append(elements.map { (v: BusValue) -> dbus_bool_t in v == .boolean(true) ? 1 : 0 })
        case .basic(UInt8(ascii: "n")):
            return append(elements.map { if case .int16(let v) = $0 { return v } else { return 0 } })
        case .basic(UInt8(ascii: "q")):
            return append(elements.map { if case .uint16(let v) = $0 { return v } else { return 0 } })
        case .basic(UInt8(ascii: "i")):
            return append(elements.map { if case .int32(let v) = $0 { return v } else { return 0 } })
        case .basic(UInt8(ascii: "u")):
            return append(elements.map { if case .uint32(let v) = $0 { return v } else { return 0 } })
        case .basic(UInt8(ascii: "x")):
            return append(elements.map { if case .int64(let v) = $0 { return v } else { return 0 } })
        case .basic(UInt8(ascii: "t")):
            return append(elements.map { if case .uint64(let v) = $0 { return v } else { return 0 } })
        case .basic(UInt8(ascii: "d")):
            return append(elements.map { if case .double(let v) = $0 { return v } else { return 0 } })
        default:
            return false
        }
    }
}

/// Reads values out of a received message through libdbus's read iterators.
enum BusValueReader {
    /// Reads the value of `type` at `iterator` (which must point at one); `budget` is the
    /// number of array and dictionary elements still allowed, and every array spends its
    /// elements from it before they are decoded.
    static func read(_ type: BusType, from iterator: inout DBusMessageIter, budget: inout Int) throws
        -> BusValue
    {
        switch type {
        case .basic(let code):
            return try readBasic(code, from: &iterator)
        case .array(let elementType):
            try spend(&budget, on: &iterator)
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &sub)
            if elementType.isFixed { return try readFixedArray(of: elementType, from: &sub) }
            var elements: [BusValue] = []
            while dbus_message_iter_get_arg_type(&sub) != 0 {
                elements.append(try read(elementType, from: &sub, budget: &budget))
                dbus_message_iter_next(&sub)
            }
            return .array(elementSignature: elementType.signature, elements)
        case .dictionary(let key, let valueType):
            try spend(&budget, on: &iterator)
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &sub)
            var entries: [(BusValue, BusValue)] = []
            while dbus_message_iter_get_arg_type(&sub) != 0 {
                var entry = DBusMessageIter()
                dbus_message_iter_recurse(&sub, &entry)
                let entryKey = try readBasic(key, from: &entry)
                dbus_message_iter_next(&entry)
                entries.append((entryKey, try read(valueType, from: &entry, budget: &budget)))
                dbus_message_iter_next(&sub)
            }
            return .dictionary(
                keySignature: String(UnicodeScalar(key)), valueSignature: valueType.signature, entries)
        case .structure(let fieldTypes):
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &sub)
            var fields: [BusValue] = []
            for fieldType in fieldTypes {
                fields.append(try read(fieldType, from: &sub, budget: &budget))
                dbus_message_iter_next(&sub)
            }
            return .structure(fields)
        case .variant:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &sub)
            guard let raw = dbus_message_iter_get_signature(&sub) else {
                throw BusError.noMemory("reading a variant's signature")
            }
            let signature = String(cString: raw)
            dbus_free(raw)
            return .variant(try read(BusSignature.parseSingle(signature), from: &sub, budget: &budget))
        }
    }

    /// Takes the elements of the array at `iterator` from `budget`; throws `LimitsExceeded`
    /// when there are more.
    private static func spend(_ budget: inout Int, on iterator: inout DBusMessageIter) throws {
        let count = Int(dbus_message_iter_get_element_count(&iterator))
        guard count <= budget else {
            throw BusError.limitsExceeded(
                "the message carries an array of \(count) elements, more than this receiver accepts")
        }
        budget -= count
    }

    /// Reads one basic value.
    private static func readBasic(_ code: UInt8, from iterator: inout DBusMessageIter) throws -> BusValue {
        func get<Number: Numeric & BitwiseCopyable>(_ type: Number.Type) -> Number {
            var number: Number = 0
            dbus_message_iter_get_basic(&iterator, &number)
            return number
        }
        switch code {
        case UInt8(ascii: "y"): return .byte(get(UInt8.self))
        case UInt8(ascii: "b"): return .boolean(get(dbus_bool_t.self) != 0)
        case UInt8(ascii: "n"): return .int16(get(Int16.self))
        case UInt8(ascii: "q"): return .uint16(get(UInt16.self))
        case UInt8(ascii: "i"): return .int32(get(Int32.self))
        case UInt8(ascii: "u"): return .uint32(get(UInt32.self))
        case UInt8(ascii: "x"): return .int64(get(Int64.self))
        case UInt8(ascii: "t"): return .uint64(get(UInt64.self))
        case UInt8(ascii: "d"): return .double(get(Double.self))
        case UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "g"):
            var pointer: UnsafePointer<CChar>? = nil
            dbus_message_iter_get_basic(&iterator, &pointer)
            // The text lives inside the message: copy it before the message can go away.
            let text = pointer.map { String(cString: $0) } ?? ""
            switch code {
            case UInt8(ascii: "s"): return .string(text)
            case UInt8(ascii: "o"): return .objectPath(text)
            default: return .signature(text)
            }
        default:
            throw BusError(
                name: BusErrorName.notSupported,
                message: "values of type \"\(String(UnicodeScalar(code)))\" are not supported")
        }
    }

    /// Reads an array of a fixed-size basic type in one call.
    private static func readFixedArray(of type: BusType, from sub: inout DBusMessageIter) throws -> BusValue {
        guard case .basic(let code) = type, code != UInt8(ascii: "h") else {
            throw BusError(
                name: BusErrorName.notSupported, message: "Unix file descriptors (\"h\") are not supported")
        }
        var base: UnsafeMutableRawPointer? = nil
        var count: Int32 = 0
        if dbus_message_iter_get_arg_type(&sub) != 0 {
            dbus_message_iter_get_fixed_array(&sub, &base, &count)
        }
        func elements<Element>(_ type: Element.Type, _ make: (Element) -> BusValue) -> [BusValue] {
            guard let base, count > 0 else { return [] }
            let buffer = UnsafeBufferPointer(
                start: base.assumingMemoryBound(to: Element.self), count: Int(count))
            return buffer.map(make)
        }
        let values: [BusValue]
        switch code {
        case UInt8(ascii: "y"): values = elements(UInt8.self, BusValue.byte)
        case UInt8(ascii: "b"): values = elements(dbus_bool_t.self) { .boolean($0 != 0) }
        case UInt8(ascii: "n"): values = elements(Int16.self, BusValue.int16)
        case UInt8(ascii: "q"): values = elements(UInt16.self, BusValue.uint16)
        case UInt8(ascii: "i"): values = elements(Int32.self, BusValue.int32)
        case UInt8(ascii: "u"): values = elements(UInt32.self, BusValue.uint32)
        case UInt8(ascii: "x"): values = elements(Int64.self, BusValue.int64)
        case UInt8(ascii: "t"): values = elements(UInt64.self, BusValue.uint64)
        default: values = elements(Double.self, BusValue.double)
        }
        return .array(elementSignature: type.signature, values)
    }
}
