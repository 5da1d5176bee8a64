// SPDX-License-Identifier: MIT
import CliptabCore

extension ClipboardService {
    /// Starts a sequence of the rows from (section, row) to the end of the section, or
    /// `count` of them (0: to the end), each guarded by `copy` and filled in as a copy would
    /// be; `completion` gets where it is once the first row is on the clipboard.
    ///
    /// A row that needs the clipboard (`{clipboard}`) or an input is refused: a sequence fills
    /// its rows when it begins, without asking.
    public func startSequence(
        _ table: String, section: Int32, row: Int32, count: UInt64,
        completion: @escaping (Result<SequenceStatus, Error>) -> Void
    ) throws {
        let sections = try tables.sections(of: table)
        let s = section < 0 ? Int(section) + sections.count : Int(section)
        guard s >= 0 && s < sections.count else {
            throw CliptabError.indexOutOfRange("section", index: section, count: sections.count)
        }
        let rows = sections[s].rows
        let first = row < 0 ? Int(row) + rows : Int(row)
        guard first >= 0 && first < rows else {
            throw CliptabError.indexOutOfRange("row", index: row, count: rows)
        }
        let available = rows - first
        let length = count == 0 ? available : Int(min(count, UInt64(available)))
        guard length <= ClipboardPolicy.maxSequenceRows else {
            throw CliptabError(
                .limitExceeded,
                "a sequence has at most \(ClipboardPolicy.maxSequenceRows) rows; this one would have \(length) (give --count)"
            )
        }
        var items: [SequenceRun.Item] = []
        for r in first..<(first + length) {
            let cell = try tables.cellForUse(of: table, section: Int32(s), row: Int32(r), as: .copy)
            var filled: Result<TemplateExpansion, Error>?
            expand(cell, inputs: [:]) { filled = $0 }
            guard let filled else {
                throw CliptabError(
                    .invalidArgument,
                    "row \(s):\(r) of table \"\(table)\" reads the clipboard ({clipboard}); a sequence fills its rows when it begins"
                )
            }
            let expansion = try filled.get()
            items.append(SequenceRun.Item(rowID: cell.id, text: expansion.text, isSecret: expansion.isSecret))
        }
        clipboard.startSequence(items, table: table, section: Int32(s), header: sections[s].header) {
            result in
            completion(result.mapError { $0 })
        }
    }
}
