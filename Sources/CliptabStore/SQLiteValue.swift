// SPDX-License-Identifier: MIT

/// A value bound to a statement parameter.
public enum SQLiteValue {
    /// A 64-bit integer.
    case integer(Int64)
    /// A UTF-8 text.
    case text(String)
}
