// SPDX-License-Identifier: MIT

/// Why the loop ended.
public enum LoopExit: Equatable {
    /// SIGTERM or SIGINT: a clean stop.
    case signal(Int32)
    /// The bus connection was lost.
    case busLost
    /// `shouldStop` said so (the bus name was taken over).
    case stopped
}
