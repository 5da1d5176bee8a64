// SPDX-License-Identifier: MIT
import DBus

/// Whether a paste reached its window, and the daemon's reason when it did not.
public struct PasteOutcome: Equatable, Sendable {
    /// True when the window fetched the text (or, from a daemon before the reasons, when the
    /// text was copied instead).
    public var delivered: Bool
    /// The daemon's words when it was not delivered ("" when it gave none).
    public var reason: String
}
