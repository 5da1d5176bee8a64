// SPDX-License-Identifier: MIT
import CliptabCore
import KeyChords

extension ClipboardService {
    /// The most rows one fill types.
    public static let maxFillRows = 1000

    /// What a fill sends between two rows.
    public enum FillSeparator: String, CaseIterable, Sendable {
        /// Tab: the next field of a form (the default).
        case tab
        /// Return: a form that moves on (or submits) at Enter, lines of a list.
        case enter
        /// Nothing: the rows follow one another where the caret is.
        case none

        /// The key sent, or nil.
        var chord: KeyChord? {
            switch self {
            case .tab: try? KeyChord(parsing: "Tab")
            case .enter: try? KeyChord(parsing: "Return")
            case .none: nil
            }
        }
    }

    /// Types `count` rows (0: to the end of the section) from (section, row) of `table` into
    /// the focused window, one by one (`ClipboardPolicy.fillFocus`), each guarded by `copy`
    /// and filled in when the table has templates; `completion` gets how many rows the
    /// window fetched and, at the first failure, why (`row 3 of 5: …`).
    ///
    /// Refused before anything is typed: a bad place or count, more than `maxFillRows`, a
    /// row that cannot be filled in, nothing able to type.
    public func fill(
        _ table: String, section: Int32, row: Int32, count: UInt64, then separator: FillSeparator,
        timeoutMilliseconds: UInt64, caller: String?,
        completion: @escaping (Result<FocusPasteResult, Error>) -> Void
    ) throws {
        guard timeoutMilliseconds <= UInt64(Self.maxFocusPasteTimeout) else {
            throw CliptabError(
                .invalidArgument,
                "timeout_ms is \(timeoutMilliseconds); the longest wait is \(Self.maxFocusPasteTimeout) ms (0: the configured default)"
            )
        }
        let first = try tables.cellForUse(of: table, section: section, row: row, as: .copy)
        let path = try tables.locate(first.id).path
        let left = try tables.sections(of: table)[Int(path.section)].rows - Int(path.row)
        guard count <= UInt64(left) else {
            throw CliptabError(
                .invalidArgument,
                "count is \(count), but section \(path.section) has \(left) rows from row \(path.row) to its end"
            )
        }
        let total = count == 0 ? left : Int(count)
        guard total <= Self.maxFillRows else {
            throw CliptabError(
                .limitExceeded,
                "a fill types at most \(Self.maxFillRows) rows; \(total) were asked for (give a count)")
        }
        var cells = [first]
        for index in 1..<max(total, 1) {
            cells.append(
                try tables.cellForUse(
                    of: table, section: path.section, row: path.row + Int32(index), as: .copy))
        }
        // Refused before any clipboard read, as a paste is: nothing can type.
        try clipboard.checkCanPaste()
        expandAll(cells, into: []) { [weak self] expanded in
            guard let self else { return }
            do {
                let rows = try expanded.get().map { (text: $0.text, isSecret: $0.isSecret, rowID: $0.rowID) }
                try self.clipboard.fillFocus(
                    rows, separator: separator.chord, timeoutMilliseconds: Int(timeoutMilliseconds),
                    caller: caller
                ) { result in
                    if case .success(let outcome) = result {
                        var notes = outcome.notes
                        if !outcome.reason.isEmpty { notes.insert(outcome.reason, at: 0) }
                        for note in notes { Log.line("fill of the focused window (table \(table)): \(note)") }
                    }
                    completion(result.mapError { $0 })
                }
            } catch {
                completion(.failure(error))
            }
        }
    }

    /// Fills in `cells` one after the other (a `{clipboard}` is read before any row is
    /// typed); an error names the row it came from.
    private func expandAll(
        _ cells: [TableService.UsedCell], into done: [(text: String, isSecret: Bool, rowID: UInt64)],
        completion: @escaping (Result<[(text: String, isSecret: Bool, rowID: UInt64)], Error>) -> Void
    ) {
        guard done.count < cells.count else { return completion(.success(done)) }
        let cell = cells[done.count]
        expand(cell, inputs: [:]) { [weak self] result in
            switch result {
            case .success(let expansion):
                self?.expandAll(
                    cells, into: done + [(expansion.text, expansion.isSecret, cell.id)],
                    completion: completion)
            case .failure(let error):
                let placed = "row \(done.count + 1) of \(cells.count): "
                completion(
                    .failure(
                        (error as? CliptabError).map { CliptabError($0.code, placed + $0.message) } ?? error))
            }
        }
    }
}
