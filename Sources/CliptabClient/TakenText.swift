// SPDX-License-Identifier: MIT
import DBus

/// The text a copy or cut took, and whether it is secret (never to be printed).
public struct TakenText: Equatable, Sendable {
    /// The text; "" where it was not sent back (a quiet copy).
    public var text: String
    /// True for a secret table's row, a text including one, or a quiet copy's.
    public var isSecret: Bool
}
