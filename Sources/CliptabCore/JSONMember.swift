// SPDX-License-Identifier: MIT

/// One `"key": value` member of a JSON object, in the order of the text.
struct JSONMember {
    /// The key, unescaped.
    let key: String
    /// The value.
    let node: JSONNode
}
