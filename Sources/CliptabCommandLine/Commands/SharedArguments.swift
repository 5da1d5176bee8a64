// SPDX-License-Identifier: MIT
import DBus

/// Argument declarations that several commands share, so that their help reads the same.
extension ArgumentSpec {
    /// `TABLE`: a table's name, completed from the daemon's list.
    static let table = ArgumentSpec("TABLE", help: "the table's name", completion: .table)

    /// A row's address, named `name` in usage and help.
    static func cell(_ name: String = "S:R", _ arity: Arity = .required, help: String = "the row")
        -> ArgumentSpec
    {
        ArgumentSpec(
            name, arity, help: help + " (S:R, R, @HEADER:R, #ID, id:ID or a row name)", completion: .row)
    }

    /// A section's address, named `name` in usage and help.
    static func section(_ name: String = "S", _ arity: Arity = .required, help: String = "the section")
        -> ArgumentSpec
    {
        ArgumentSpec(name, arity, help: help + " (an index or @HEADER)")
    }
}

/// Prints text returned by the daemon exactly as it is (no newline added), or as
/// `{"text": …}` with `--json`.
func printText(_ text: String, _ context: CommandContext) throws {
    if context.options.json {
        try context.output.line(JSON.object([("text", .string(text))]).rendered)
    } else {
        try context.output.write(text)
    }
}

/// Parses a required cell argument of `arguments`.
func cellArgument(_ arguments: ParsedArguments, _ name: String = "S:R") throws(UsageError) -> CellAddress {
    try CellAddress.parse(arguments.argument(name), argument: name, command: arguments.spec)
}

/// Parses a required section argument of `arguments`.
func sectionArgument(_ arguments: ParsedArguments, _ name: String = "S") throws(UsageError)
    -> SectionAddress
{
    try SectionAddress.parse(arguments.argument(name), argument: name, command: arguments.spec)
}

/// `.string` shorthand for call arguments.
func string(_ text: String) -> BusValue { .string(text) }

/// `.int32` shorthand for call arguments.
func int32(_ number: Int32) -> BusValue { .int32(number) }
