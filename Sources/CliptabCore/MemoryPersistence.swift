// SPDX-License-Identifier: MIT

/// An in-memory persistence for tests: records every committed batch and can be told to
/// fail, to prove that a failed commit changes nothing.
public final class MemoryPersistence: Persistence {
    /// Every batch committed so far.
    public private(set) var committed: [[StoreWrite]] = []
    /// When set, the next commit throws this error instead of committing (then clears).
    public var failNextCommit: CliptabError?

    /// Makes an empty recorder.
    public init() {}

    /// Records `writes`, or throws the injected failure.
    public func commit(_ writes: [StoreWrite]) throws {
        if let failure = failNextCommit {
            failNextCommit = nil
            throw failure
        }
        committed.append(writes)
    }
}
