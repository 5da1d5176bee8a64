// SPDX-License-Identifier: MIT
import CliptabCore
import CliptabDaemon
import TestSupport

/// Copy and cut answered at once, for the tests of rows that need no clipboard read: the
/// daemon itself only has the calls that complete later.
extension ClipboardService {
    /// Copies a cell (as `copy(_:section:row:inputs:raw:completion:)`); throws when the copy
    /// did not complete before the call returned (a template that reads the clipboard).
    func copy(_ table: String, section: Int32, row: Int32) throws -> String {
        try answered { try copy(table, section: section, row: row, completion: $0) }
    }

    /// Cuts a cell (as `cut(_:section:row:inputs:completion:)`), answered at once.
    func cut(_ table: String, section: Int32, row: Int32) throws -> String {
        try answered { try cut(table, section: section, row: row, completion: $0) }
    }

    private func answered(_ start: (@escaping Completion) throws -> Void) throws -> String {
        var answer: Result<UsedText, Error>?
        try start { answer = $0 }
        guard let answer else { throw FixtureError("the call did not complete at once") }
        return try answer.get().text
    }
}
