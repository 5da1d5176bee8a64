// SPDX-License-Identifier: MIT
import CliptabContract
import DBus

/// A row's name and id, as `GetRowNames` and `GetRowNamesPage` list them.
public struct NamedRow: Equatable, Sendable {
    /// The row's id.
    public var id: UInt64
    /// Its name.
    public var name: String
}
