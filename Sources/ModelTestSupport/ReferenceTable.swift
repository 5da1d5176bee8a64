// SPDX-License-Identifier: MIT
import CliptabCore

/// A table of the reference.
struct ReferenceTable: Equatable {
    /// The sections in order; a new table has one empty section.
    var sections = [ReferenceSection()]
    /// +1 for every successful change of content.
    var revision: UInt64 = 0
    /// The allowed actions.
    var allowed = Set(TableAction.allCases)
    /// The secret flag.
    var isSecret = false

    /// The number of rows in all sections.
    var rowCount: Int { sections.reduce(0) { $0 + $1.rows.count } }
}

extension ReferenceTable {
    /// The index path of the row named `name`, if any (a scan: the reference is plain on purpose).
    func path(named name: String) -> IndexPath? {
        for (s, section) in sections.enumerated() {
            if let r = section.rows.firstIndex(where: { $0.name == name }) {
                return IndexPath(section: Int32(s), row: Int32(r))
            }
        }
        return nil
    }

    /// Removes the rows at `paths` (valid, distinct; indexes from before the removal).
    mutating func remove(_ paths: [IndexPath]) {
        for s in sections.indices {
            let doomed = Set(paths.filter { Int($0.section) == s }.map { Int($0.row) })
            sections[s].rows = sections[s].rows.enumerated().filter { !doomed.contains($0.offset) }.map(
                \.element)
        }
    }
}
