// SPDX-License-Identifier: MIT

/// A parsed JSON value and the byte offset where it starts, so that messages can point at it.
struct JSONNode {
    /// The offset of the value's first byte in the UTF-8 text.
    let offset: Int
    /// The value.
    let value: JSONValue
}
