// SPDX-License-Identifier: MIT
import CliptabCore

/// The rows of templates tables, filled in where they are used: copy, cut, paste into the
/// focused window, and `Expand`. A row of a table without templates is its text.
extension ClipboardService {
    /// What a copy answers with and puts on the clipboard, and whether it is secret.
    public typealias Completion = (Result<UsedText, Error>) -> Void

    /// Expands `cell` with `inputs`; `completion` gets the result, after a read of the
    /// clipboard when the template holds `{clipboard}` (an empty clipboard gives "").
    ///
    /// The result is secret when the cell's table is, or when it includes a secret table's
    /// row or a clipboard text its owner marked secret.
    public func expand(
        _ cell: TableService.UsedCell, inputs: [String: String],
        completion: @escaping (Result<TemplateExpansion, Error>) -> Void
    ) {
        guard cell.isTemplate else { return completion(.success(cell.asIs)) }
        var limits = TemplateLimits.defaults
        limits.maxOutputBytes = tables.limits.maxCellBytes
        var context = TemplateContext(now: clock(), zone: zone, inputs: inputs, limits: limits)
        context.cache = templateCache
        let first: TemplateExpansion
        do { first = try tables.expand(cell, context: context) } catch { return completion(.failure(error)) }
        guard first.needsClipboard else { return completion(.success(first)) }
        clipboard.readText { [weak self] read in
            guard let self else { return }
            switch read {
            case .success(let text):
                context.clipboard = text.text
                context.isClipboardSecret = text.isMarkedSecret
            case .failure(let error) where error.code == .clipboardEmpty: context.clipboard = ""
            case .failure(let error): return completion(.failure(error))
            }
            completion(Result { try self.tables.expand(cell, context: context) })
        }
    }

    /// `Expand`: the cell filled in, nothing copied (a read: no action guards it).
    public func expandCell(
        _ table: String, section: Int32, row: Int32, inputs: [String: String],
        completion: @escaping (Result<String, Error>) -> Void
    ) throws {
        let cell = try tables.cellForUse(of: table, section: section, row: row, as: nil)
        expand(cell, inputs: inputs) { completion($0.map(\.text)) }
    }

    /// `GetTemplateInputs`: the `{input:…}` labels of the cell, nested snippets included,
    /// each with its default; empty for a table without templates.
    public func templateInputs(_ table: String, section: Int32, row: Int32) throws -> [TemplateInput] {
        let cell = try tables.cellForUse(of: table, section: section, row: row, as: nil)
        guard cell.isTemplate else { return [] }
        let context = TemplateContext(now: clock(), zone: zone, clipboard: "", isInspection: true)
        return try tables.expand(cell, context: context).inputs
    }

    /// Copies a cell to the clipboard (guarded by `copy`), filled in with `inputs` unless
    /// `raw`; `completion` gets the text copied.
    ///
    /// A secret one carries the password hint and is cleared after `secret_clear_ms`.
    public func copy(
        _ table: String, section: Int32, row: Int32, inputs: [String: String] = [:], raw: Bool = false,
        completion: @escaping Completion
    ) throws {
        var cell = try tables.cellForUse(of: table, section: section, row: row, as: .copy)
        if raw { cell.isTemplate = false }
        expand(cell, inputs: inputs) { [clipboard] result in
            completion(
                result.flatMap { expansion in
                    Result {
                        try clipboard.copy(expansion.text, isSecret: expansion.isSecret, rowID: cell.id)
                        return UsedText(text: expansion.text, isSecret: expansion.isSecret)
                    }
                })
        }
    }

    /// Copies a cell filled in, then deletes it (guarded by `cut`).
    ///
    /// Nothing is deleted when the expansion or the clipboard fails. The row is found again
    /// by its id, should the table have changed while the clipboard was read.
    public func cut(
        _ table: String, section: Int32, row: Int32, inputs: [String: String] = [:],
        completion: @escaping Completion
    ) throws {
        let cell = try tables.cellForUse(of: table, section: section, row: row, as: .cut)
        expand(cell, inputs: inputs) { [clipboard, tables] result in
            completion(
                result.flatMap { expansion in
                    Result {
                        let found = try tables.locate(cell.id)
                        try tables.checkPermission(found.table, .cut)
                        try clipboard.copy(expansion.text, isSecret: expansion.isSecret, rowID: cell.id)
                        try tables.deleteRow(
                            found.table, section: found.path.section, row: found.path.row, as: .cut)
                        return UsedText(text: expansion.text, isSecret: expansion.isSecret)
                    }
                })
        }
    }
}
