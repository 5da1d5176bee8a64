// SPDX-License-Identifier: MIT

/// The answer of the bus to `releaseName`.
public enum NameReleaseResult: Equatable, Sendable {
    /// The name was released (or this connection left its queue).
    case released
    /// Nobody owned the name.
    case nonExistent
    /// Someone else owns the name and this connection was not queued for it.
    case notOwner
}
