// SPDX-License-Identifier: MIT
import CliptabCore

/// The clipboard's use cases over the tables: copy, cut and paste of rows, pasting into the
/// focused window, and the announcements of what changed, without knowing anything of D-Bus.
///
/// The bus's method rows call it for these, and its `tables` for the rest.
public final class ClipboardService {
    /// The tables.
    public let tables: TableService
    /// The clipboard's rules over its backend.
    public let clipboard: ClipboardPolicy
    /// The row whose text this daemon serves on the clipboard (0: none, a section copy, or
    /// another program's content put back after a paste).
    public var copiedRowID: UInt64 { clipboard.copiedRowID }

    /// The zone `{date}` and `{time}` are shown in; a reload puts the one read anew here.
    public var zone: ZoneRules
    /// The templates parsed for copies before (a row copied again is not parsed again).
    public let templateCache = TemplateCache()
    /// The clock of `{date}` and `{time}`: UTC seconds since 1970.
    let clock: () -> Int64
    /// The keys of `[keys]` and what became of each (`KeyBindings`).
    public let keys: BoundKeys
    /// The tables linked to files, when the daemon follows a folder.
    public let links: LinkedTables?

    /// Makes the service over `tables` and `clipboard` (each announcing its changes as it
    /// was made to); `keys` holds the bindings' states the key service leaves there; `links`
    /// are the tables linked to files (nil: none); templates show `clock`'s time in `zone`.
    public init(
        tables: TableService, clipboard: ClipboardPolicy, keys: BoundKeys = BoundKeys(),
        links: LinkedTables? = nil, zone: ZoneRules, clock: @escaping () -> Int64
    ) {
        self.tables = tables
        self.clipboard = clipboard
        self.keys = keys
        self.links = links
        self.zone = zone
        self.clock = clock
    }

    /// Copies a section's rows joined by `separator` (guarded by `copy`).
    public func copySection(_ table: String, section: Int32, separator: String) throws -> String {
        let joined = try tables.sectionText(of: table, section: section, separator: separator)
        try clipboard.copy(joined.text, isSecret: joined.isSecret, rowID: 0)
        return joined.text
    }

    /// Reads the clipboard and inserts its text as a row at (section, row) (guarded by
    /// `paste`); `completion` gets the text, or the error, once the read finishes.
    ///
    /// A text its owner marked as a password goes only into a secret table.
    public func paste(_ table: String, section: Int32, row: Int32, completion: @escaping Completion) throws {
        // Check permission and the place first, so a refused paste does not wait on X.
        try tables.checkInsertion(table, section: section, row: row, as: .paste)
        clipboard.readText { [tables] result in
            switch result {
            case .success(let read):
                // The table may have changed while the read was under way (renamed, made
                // secret or not): the mark and the insert check it as it is now.
                completion(
                    Result {
                        try Self.checkMark(read, pastedInto: table, tables: tables)
                        try tables.insertRow(table, section: section, row: row, text: read.text, as: .paste)
                        let isSecret = try read.isMarkedSecret || tables.record(of: table).isSecret
                        return UsedText(text: read.text, isSecret: isSecret)
                    })
            case .failure(let error):
                completion(.failure(error))
            }
        }
    }

    /// Refuses a text marked secret by its owner for a table that is not secret, so a
    /// password copied from a password manager never lands in the store by accident.
    private static func checkMark(_ read: ClipboardText, pastedInto table: String, tables: TableService)
        throws
    {
        guard read.isMarkedSecret, try !tables.record(of: table).isSecret else { return }
        throw CliptabError(
            .notPermitted,
            "the clipboard text is marked secret by its owner (x-kde-passwordManagerHint, as password "
                + "managers set it) and table \"\(table)\" is not secret; it was not pasted (mark the table "
                + "secret to paste it there)")
    }

    /// Reads the clipboard's text (storing nothing, so its mark does not matter here).
    public func clipboardText(completion: @escaping (Result<String, Error>) -> Void) {
        clipboard.readText { result in completion(result.map(\.text).mapError { $0 }) }
    }

    /// Gives up the clipboard if this daemon owns it.
    public func clearClipboard() {
        clipboard.clear()
    }

    /// Performs a context-menu action on a cell: copy, cut (filled in with `inputs`),
    /// paste or delete.
    ///
    /// The others need more arguments than an index path and are refused.
    public func perform(
        _ table: String, action name: String, section: Int32, row: Int32, inputs: [String: String] = [:],
        completion: @escaping Completion
    ) throws {
        let action = try TableAction(parsing: name)
        switch action {
        case .copy: try copy(table, section: section, row: row, inputs: inputs, completion: completion)
        case .cut: try cut(table, section: section, row: row, inputs: inputs, completion: completion)
        case .paste: try paste(table, section: section, row: row, completion: completion)
        case .delete:
            let text = try tables.cell(of: table, section: section, row: row)
            let isSecret = try tables.record(of: table).isSecret
            try tables.deleteRow(table, section: section, row: row)
            completion(.success(UsedText(text: text, isSecret: isSecret)))
        case .move, .edit, .insert:
            throw CliptabError(
                .invalidArgument,
                "action \"\(name)\" needs more than an index path: call \(action == .move ? "MoveRow" : action == .edit ? "SetCell" : "InsertRow") instead"
            )
        }
    }
}
