// SPDX-License-Identifier: MIT

/// The state of the reads a `SelectionReader` has under way, and what they report.
extension SelectionReader {
    /// The outcome a read reports.
    typealias Completion = (Result<SelectionText, SelectionReadError>) -> Void
    /// The outcome a snapshot read reports.
    typealias SnapshotCompletion = (Result<SelectionSnapshot, SelectionReadError>) -> Void

    /// Where a read is: waiting its turn, converting a target, or taking INCR chunks.
    enum Stage {
        case queued
        case converting(target: InternedAtom)
        case receivingIncrements
    }

    /// What a snapshot read has kept so far, and the targets still to convert.
    final class SnapshotGathering {
        let completion: SnapshotCompletion
        var remaining: [InternedAtom] = []
        var formats: [SelectionSnapshot.Format] = []
        var byteCount = 0

        init(completion: @escaping SnapshotCompletion) { self.completion = completion }
    }

    /// One read under way: its selection, property, bounds, stage and what came so far.
    final class PendingRead {
        let selection: SelectionName
        /// Replaced when an owner answered the hint with INCR (that property is abandoned).
        var property: InternedAtom
        let deadline: UInt64
        let timeoutMilliseconds: Int
        let maxBytes: Int
        let completion: Completion
        var stage: Stage = .queued
        /// Targets still to try when the owner refused TARGETS.
        var fallbackTargets: [InternedAtom] = []
        /// The text target to convert once the password-manager hint is read.
        var textTarget: InternedAtom?
        /// True when the owner marked the text with the password-manager hint `secret`.
        var markedSecret = false
        var received: [UInt8] = []
        var receivedType = InternedAtom.none
        var receivedFormat: Int32 = 8
        /// The target an INCR transfer under way answers.
        var incrementalTarget: InternedAtom?
        /// Set for a read of every format (`readSnapshot`) instead of the text.
        var snapshot: SnapshotGathering?

        init(
            selection: SelectionName, property: InternedAtom, deadline: UInt64, timeoutMilliseconds: Int,
            maxBytes: Int, completion: @escaping Completion
        ) {
            self.selection = selection
            self.property = property
            self.deadline = deadline
            self.timeoutMilliseconds = timeoutMilliseconds
            self.maxBytes = maxBytes
            self.completion = completion
        }

        var isQueued: Bool {
            if case .queued = stage { return true }
            return false
        }

        var isConverting: Bool {
            if case .converting = stage { return true }
            return false
        }

        var isReceivingIncrements: Bool {
            if case .receivingIncrements = stage { return true }
            return false
        }

        /// True while no other read of the selection may convert: this one converts, or
        /// it reads a snapshot, whose conversions follow one another until it ends.
        var holdsSelection: Bool { isConverting || (snapshot != nil && !isQueued) }

        /// The bytes this read may still take in.
        var byteLimit: Int { maxBytes - (snapshot?.byteCount ?? 0) }
    }
}
