// SPDX-License-Identifier: MIT

/// How hard a commit presses the change to disk.
public enum Durability: String, Sendable {
    /// `synchronous=FULL`: a commit survives power loss (the default).
    case full
    /// `synchronous=NORMAL`: in WAL mode a commit survives a crash of cliptabd, but the last commits may be
    /// lost on power loss.
    ///
    /// For users who choose speed.
    case normal
}
