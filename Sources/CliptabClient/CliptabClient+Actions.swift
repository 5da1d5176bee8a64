// SPDX-License-Identifier: MIT
import CliptabContract
import DBus

/// The contract's calls about actions (`docs/dbus-api.md`), one typed method each; where a
/// method answers for more than one call, it falls back to an earlier API version's here.
extension CliptabClient {
    /// `GetActions`: the cell's actions, in the daemon's order.
    public func actions(_ cell: TableCell) throws(ClientFailure) -> [String] {
        try call("GetActions", cell.arguments).strings(0)
    }

    /// `CanPerformAction`.
    public func canPerform(_ action: String, _ cell: TableCell) throws(ClientFailure) -> Bool {
        try call(
            "CanPerformAction",
            [.string(cell.table), .string(action), .int32(cell.section), .int32(cell.row)]
        )
        .boolean(0)
    }

    /// `PerformAction`: its text.
    @discardableResult
    public func perform(_ action: String, _ cell: TableCell) throws(ClientFailure) -> String {
        try call(
            "PerformAction", [.string(cell.table), .string(action), .int32(cell.section), .int32(cell.row)]
        )
        .string(0)
    }

    /// `PerformActionWithInputs`: its text, and whether that is secret.
    public func perform(_ action: String, _ cell: TableCell, inputs: InputValues) throws(ClientFailure)
        -> TakenText
    {
        let reply = try call(
            "PerformActionWithInputs",
            [
                .string(cell.table), .string(action), .int32(cell.section), .int32(cell.row),
                Self.inputs(inputs),
            ])
        return TakenText(text: try reply.string(0), isSecret: try reply.boolean(1))
    }

    /// `Copy`: the text copied.
    @discardableResult
    public func copy(_ cell: TableCell) throws(ClientFailure) -> String {
        try call("Copy", cell.arguments).string(0)
    }

    /// `CopyWithInputs`: the text copied, filled in.
    @discardableResult
    public func copy(_ cell: TableCell, inputs: InputValues) throws(ClientFailure) -> String {
        try call("CopyWithInputs", cell.arguments + [Self.inputs(inputs)]).string(0)
    }

    /// `CopyRaw`: the stored text copied, not filled in.
    public func copyRaw(_ cell: TableCell) throws(ClientFailure) -> String {
        try call("CopyRaw", cell.arguments).string(0)
    }

    /// `CopyQuiet`: the number of bytes copied.
    @discardableResult
    public func copyQuietly(_ cell: TableCell, inputs: InputValues, raw: Bool) throws(ClientFailure) -> UInt64
    {
        try call("CopyQuiet", cell.arguments + [Self.inputs(inputs), .boolean(raw)]).uint64(0)
    }

    /// Copies the cell (filled in with `inputs`, or as stored when `raw`) by the newest call
    /// the daemon has: the text, unless `quiet` (then "", marked secret), and whether it is
    /// secret.
    ///
    /// `CopyQuiet` (API version 4) copies without sending the text back; else
    /// `PerformActionWithInputs` (API version 4) says whether the text is secret; with a daemon
    /// of an earlier version `CopyRaw`, `Copy` or `CopyWithInputs` copy, and only a secret
    /// table's text counts as secret.
    public func copy(_ cell: TableCell, inputs: InputValues, raw: Bool, quiet: Bool) throws(ClientFailure)
        -> TakenText
    {
        if quiet {
            do throws(ClientFailure) {
                try copyQuietly(cell, inputs: inputs, raw: raw)
                return TakenText(text: "", isSecret: true)
            } catch  where error.isUnknownMethod {}
        }
        if raw {
            let text = try copyRaw(cell)
            return TakenText(text: text, isSecret: quiet ? true : try isSecret(cell.table))
        }
        do throws(ClientFailure) {
            return try perform("copy", cell, inputs: inputs)
        } catch  where error.isUnknownMethod {
            let text = inputs.isEmpty ? try copy(cell) : try copy(cell, inputs: inputs)
            return TakenText(text: text, isSecret: quiet ? true : try isSecret(cell.table))
        }
    }

    /// `Cut`: the text cut.
    @discardableResult
    public func cut(_ cell: TableCell) throws(ClientFailure) -> String {
        try call("Cut", cell.arguments).string(0)
    }

    /// Cuts the cell by the newest call the daemon has: the text, and whether it is secret.
    ///
    /// `PerformActionWithInputs` (API version 4) says it; before that `Cut`, where only a secret
    /// table's text counts as secret, asked before the cut (afterwards the table might be
    /// gone). With `quiet` the secrecy is not asked (the text is not printed).
    public func cut(_ cell: TableCell, quiet: Bool) throws(ClientFailure) -> TakenText {
        do throws(ClientFailure) {
            return try perform("cut", cell, inputs: [])
        } catch  where error.isUnknownMethod {
            let secret = quiet ? true : try isSecret(cell.table)
            return TakenText(text: try cut(cell), isSecret: secret)
        }
    }

    /// `Paste`: the text pasted into the clipboard's owner's window.
    public func paste(_ cell: TableCell) throws(ClientFailure) -> String {
        try call("Paste", cell.arguments).string(0)
    }

    /// `PasteToFocus`, waiting `timeout` milliseconds (0: the configured wait).
    @discardableResult
    public func pasteToFocus(_ cell: TableCell, timeout: UInt32 = 0) throws(ClientFailure) -> Bool {
        try call("PasteToFocus", cell.arguments + [.uint32(timeout)]).boolean(0)
    }

    /// `PasteToFocusWithReason`.
    public func pasteToFocusWithReason(_ cell: TableCell, timeout: UInt32 = 0) throws(ClientFailure)
        -> PasteOutcome
    {
        try Self.outcome(call("PasteToFocusWithReason", cell.arguments + [.uint32(timeout)]))
    }

    /// `PasteToWindow`: into `window`, focused first.
    public func paste(_ cell: TableCell, toWindow window: UInt64, timeout: UInt32 = 0) throws(ClientFailure)
        -> PasteOutcome
    {
        try Self.outcome(call("PasteToWindow", cell.arguments + [.uint32(timeout), .uint64(window)]))
    }

    /// `PasteWithInputs`: into `window` (0: the focused one), filled in with `inputs`.
    public func paste(_ cell: TableCell, inputs: InputValues, window: UInt64 = 0, timeout: UInt32 = 0)
        throws(ClientFailure) -> PasteOutcome
    {
        try Self.outcome(
            call(
                "PasteWithInputs", cell.arguments + [.uint32(timeout), .uint64(window), Self.inputs(inputs)]))
    }

    /// Pastes the cell into `window` (0: wherever the focus is) by the newest call the daemon
    /// has: `PasteToWindow` or `PasteToFocusWithReason`; `PasteToFocus` before API version 3
    /// (no reason); copying, the next best thing, before `PasteToFocus`.
    public func paste(_ cell: TableCell, window: UInt64) throws(ClientFailure) -> PasteOutcome {
        do throws(ClientFailure) {
            return window != 0 ? try paste(cell, toWindow: window) : try pasteToFocusWithReason(cell)
        } catch  where error.isUnknownMethod {
            do throws(ClientFailure) {
                return PasteOutcome(delivered: try pasteToFocus(cell), reason: "")
            } catch  where error.isUnknownMethod {
                try copy(cell)
                return PasteOutcome(delivered: true, reason: "")
            }
        }
    }

    /// The outcome of a `(bs)` paste reply.
    private static func outcome(_ reply: DaemonReply) throws(ClientFailure) -> PasteOutcome {
        PasteOutcome(delivered: try reply.boolean(0), reason: try reply.string(1))
    }

    /// `GetFocusedWindow`: the window focused now, 0 for none.
    public func focusedWindow() throws(ClientFailure) -> UInt64 { try call("GetFocusedWindow").uint64(0) }

    /// `GetClipboard`: the clipboard's text.
    public func clipboard() throws(ClientFailure) -> String { try call("GetClipboard").string(0) }
}
