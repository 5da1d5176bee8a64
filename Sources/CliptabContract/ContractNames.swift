// SPDX-License-Identifier: MIT

/// Words fixed by the D-Bus contract: operators, actions and formats.
///
/// The model's `RowPredicate`, `TableAction` and `ExchangeFormat` are checked against these
/// lists by the core's tests, so the CLI can check (and complete) them without linking the
/// model's regular expressions and codecs into a process that lives for one call.
public enum ContractNames {
    /// The operators of `DeleteWhere`.
    public static let operators = [
        "equals", "contains", "prefix", "suffix", "matches", ">", ">=", "<", "<=", "==", "!=",
    ]
    /// The context-menu actions, in the contract's order.
    public static let actions = ["copy", "cut", "paste", "delete", "move", "edit", "insert"]
    /// The exchange formats.
    public static let formats = ["json", "tsv", "lines", "yaml"]
}
