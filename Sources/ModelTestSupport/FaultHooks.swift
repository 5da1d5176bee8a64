// SPDX-License-Identifier: MIT
import CliptabCore

/// How a run reaches its persistence: make the next commit fail, take that back, and count
/// the committed batches (nil when the persistence does not count).
public struct FaultHooks {
    /// Makes the next commit fail.
    public var arm: () -> Void
    /// Cancels a failure that no commit consumed.
    public var disarm: () -> Void
    /// The number of committed batches so far, if known.
    public var commits: () -> Int?

    /// Makes hooks from their three closures.
    public init(arm: @escaping () -> Void, disarm: @escaping () -> Void, commits: @escaping () -> Int?) {
        self.arm = arm
        self.disarm = disarm
        self.commits = commits
    }

    /// The hooks of a `MemoryPersistence`.
    public static func memory(_ persistence: MemoryPersistence) -> FaultHooks {
        FaultHooks(
            arm: { persistence.failNextCommit = CliptabError(.storageFailure, "injected commit failure") },
            disarm: { persistence.failNextCommit = nil },
            commits: { persistence.committed.count })
    }
}
