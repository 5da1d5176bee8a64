// SPDX-License-Identifier: MIT
internal import CDBus

/// One element of an `a(ts)` array: an id and a text (rows, as `GetRows` sends them).
public struct BusIDText: Equatable, Sendable {
    /// The `t` field.
    public var id: UInt64
    /// The `s` field.
    public var text: String

    /// An element with `id` and `text`.
    public init(id: UInt64, text: String) {
        self.id = id
        self.text = text
    }
}

extension BusMessage {
    /// Reads a body that is exactly one `a(ts)` array, straight into its elements.
    ///
    /// The counterpart of `appendIDTextArray`: no `BusValue` per element, which is what makes
    /// reading a page of 25,000 rows cheap. Throws `InvalidArgs` naming the signature found
    /// when the body is anything else, and `LimitsExceeded` past `maximumElements`.
    public func readIDTextArray(maximumElements: Int = .max) throws -> [BusIDText] {
        guard signature == "a(ts)" else {
            throw BusError.invalidArgs("expected a reply of signature \"a(ts)\", got \"\(signature)\"")
        }
        return try withUnsafeHandle { handle in
            var iterator = DBusMessageIter()
            guard dbus_message_iter_init(handle, &iterator) != 0 else { return [] }
            var array = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &array)
            let count = Int(dbus_message_iter_get_element_count(&iterator))
            guard count <= maximumElements else {
                throw BusError.limitsExceeded(
                    "the message carries an array of \(count) elements, more than this receiver accepts")
            }
            var elements: [BusIDText] = []
            elements.reserveCapacity(count)
            // The type codes are characters (the header's macros do not import).
            let structure = Int32(UInt8(ascii: "r"))
            while dbus_message_iter_get_arg_type(&array) == structure {
                var fields = DBusMessageIter()
                dbus_message_iter_recurse(&array, &fields)
                var id: UInt64 = 0
                dbus_message_iter_get_basic(&fields, &id)
                dbus_message_iter_next(&fields)
                var pointer: UnsafePointer<CChar>? = nil
                dbus_message_iter_get_basic(&fields, &pointer)
                // The text lives inside the message: copy it before the message can go away.
                elements.append(BusIDText(id: id, text: pointer.map { String(cString: $0) } ?? ""))
                dbus_message_iter_next(&array)
            }
            return elements
        }
    }
}
