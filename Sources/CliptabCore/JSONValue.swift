// SPDX-License-Identifier: MIT

/// A JSON value (RFC 8259); numbers keep their text, since nothing here needs their value.
enum JSONValue {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as written.
    case number(String)
    /// A string, unescaped.
    case string(String)
    /// An array.
    case array([JSONNode])
    /// An object; its keys are unique.
    case object([JSONMember])

    /// "a string", "an array"…, for messages.
    var kind: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
