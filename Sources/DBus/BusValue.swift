// SPDX-License-Identifier: MIT

/// One D-Bus value, typed as on the wire.
///
/// Containers carry their element signature so that empty arrays and dictionaries can be
/// written.
public indirect enum BusValue: Equatable, Sendable {
    /// `y`
    case byte(UInt8)
    /// `b`
    case boolean(Bool)
    /// `n`
    case int16(Int16)
    /// `q`
    case uint16(UInt16)
    /// `i`
    case int32(Int32)
    /// `u`
    case uint32(UInt32)
    /// `x`
    case int64(Int64)
    /// `t`
    case uint64(UInt64)
    /// `d`
    case double(Double)
    /// `s`: must be valid UTF-8 without NUL (checked before it reaches libdbus).
    case string(String)
    /// `o`: must be a valid object path.
    case objectPath(String)
    /// `g`: must be a valid signature.
    case signature(String)
    /// `a…`: `elementSignature` is the signature of one element (e.g. `s`, `(ts)`).
    case array(elementSignature: String, [BusValue])
    /// `(…)`
    case structure([BusValue])
    /// `a{…}`: entries of a dictionary with the given key and value signatures.
    case dictionary(keySignature: String, valueSignature: String, [(BusValue, BusValue)])
    /// `v`
    case variant(BusValue)

    /// The D-Bus signature of this value.
    public var signature: String {
        switch self {
        case .byte: return "y"
        case .boolean: return "b"
        case .int16: return "n"
        case .uint16: return "q"
        case .int32: return "i"
        case .uint32: return "u"
        case .int64: return "x"
        case .uint64: return "t"
        case .double: return "d"
        case .string: return "s"
        case .objectPath: return "o"
        case .signature: return "g"
        case .array(let element, _): return "a" + element
        case .structure(let fields): return "(" + fields.map(\.signature).joined() + ")"
        case .dictionary(let key, let value, _): return "a{" + key + value + "}"
        case .variant: return "v"
        }
    }

    /// Equality by value; dictionaries compare their entries in order.
    public static func == (lhs: BusValue, rhs: BusValue) -> Bool {
        switch (lhs, rhs) {
        case (.byte(let a), .byte(let b)): return a == b
        case (.boolean(let a), .boolean(let b)): return a == b
        case (.int16(let a), .int16(let b)): return a == b
        case (.uint16(let a), .uint16(let b)): return a == b
        case (.int32(let a), .int32(let b)): return a == b
        case (.uint32(let a), .uint32(let b)): return a == b
        case (.int64(let a), .int64(let b)): return a == b
        case (.uint64(let a), .uint64(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b || (a.isNaN && b.isNaN)
        case (.string(let a), .string(let b)): return a == b
        case (.objectPath(let a), .objectPath(let b)): return a == b
        case (.signature(let a), .signature(let b)): return a == b
        case (.array(let s1, let a), .array(let s2, let b)): return s1 == s2 && a == b
        case (.structure(let a), .structure(let b)): return a == b
        case (.dictionary(let k1, let v1, let a), .dictionary(let k2, let v2, let b)):
            return k1 == k2 && v1 == v2 && a.count == b.count
                && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.variant(let a), .variant(let b)): return a == b
        default: return false
        }
    }
}

/// An error reply from the bus or a peer, or a local libdbus failure: a D-Bus error name
/// and its message.
public struct BusError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The D-Bus error name, such as `org.freedesktop.DBus.Error.ServiceUnknown`.
    public let name: String
    /// The human-readable message.
    public let message: String

    /// Makes an error with a name and message.
    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    /// "message (name)", the way a command-line tool prints it.
    public var description: String { "\(message) (\(name))" }
}
