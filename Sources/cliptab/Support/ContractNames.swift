// SPDX-License-Identifier: MIT

/// Names fixed by the D-Bus contract that the CLI checks (and completes) before it calls.
///
/// They are CliptabCore's `RowPredicate.operators`, `TableAction` and `ExchangeFormat`,
/// repeated rather than imported: linking CliptabCore (its regular expressions, codecs and
/// model) into a process that lives for one call made every call slower. The end-to-end
/// tests check these lists against CliptabCore's, and the daemon refuses anything else.
enum ContractNames {
    /// The operators of `DeleteWhere`.
    static let operators = [
        "equals", "contains", "prefix", "suffix", "matches", ">", ">=", "<", "<=", "==", "!=",
    ]
    /// The context-menu actions, in the contract's order.
    static let actions = ["copy", "cut", "paste", "delete", "move", "edit", "insert"]
    /// The exchange formats.
    static let formats = ["json", "tsv", "lines"]
}
