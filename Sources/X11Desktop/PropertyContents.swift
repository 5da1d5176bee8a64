// SPDX-License-Identifier: MIT

/// What reading a window property found.
enum PropertyContents {
    /// The property does not exist (or the window is gone).
    case missing
    /// The property holds more than the allowed bytes; it was left as it is.
    case tooLarge(byteCount: Int)
    /// The property's value.
    case value(PropertyValue)
}
