// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabContract
import DBus
import Glibc

/// The values of a template's `{input:…}` labels: from `--set LABEL=VALUE`, or asked for on
/// the terminal when the daemon answers `InputRequired`.
struct TemplateValues {
    /// (label, value) pairs in the order given; a later one for the same label wins.
    private(set) var pairs: [(label: String, value: String)] = []

    /// Reads `--set` values; each must be `LABEL=VALUE` with a label.
    init(parsing values: [String], command spec: ParsedArguments) throws(UsageError) {
        for word in values {
            guard let equals = word.firstIndex(of: "="), equals != word.startIndex else {
                throw spec.error("--set takes LABEL=VALUE, such as --set Name=Ann; found \"\(word)\"")
            }
            set(String(word[..<equals]), String(word[word.index(after: equals)...]))
        }
    }

    /// No values yet.
    init() {}

    /// True when no value is given.
    var isEmpty: Bool { pairs.isEmpty }

    /// The values as the bus's `a{ss}`.
    var busValue: BusValue {
        .dictionary(
            keySignature: "s", valueSignature: "s", pairs.map { (.string($0.label), .string($0.value)) })
    }

    /// Gives `label` the value `value`.
    mutating func set(_ label: String, _ value: String) {
        pairs.removeAll { $0.label == label }
        pairs.append((label, value))
    }

    /// True when `error` is the daemon's `InputRequired`.
    static func isInputRequired(_ error: Error) -> Bool {
        guard case CLIFailure.refused(let refusal) = error else { return false }
        return refusal.name == CliptabBus.errorPrefix + "InputRequired"
    }

    /// Asks on the terminal for each label of the row's inputs that has no value yet
    /// (showing its default, which an empty answer takes); false when standard input or
    /// standard error is not a terminal, so nothing can be asked.
    mutating func ask(_ context: CommandContext, table: String, section: Int32, row: Int32) throws -> Bool {
        guard isatty(0) == 1, isatty(2) == 1 else { return false }
        let inputs = try context.daemon {
            try $0.templateInputs(TableCell(table, section: section, row: row))
        }
        for input in inputs {
            let (label, hasDefault, defaultValue) = (input.label, input.hasDefault, input.defaultValue)
            if pairs.contains(where: { $0.label == label }) { continue }
            writeToStandardError(hasDefault ? "\(label) [\(defaultValue)]: " : "\(label): ")
            guard let line = Self.readLine() else {
                throw CLIFailure.cancelled("no value was given for \(label)")
            }
            set(label, line.isEmpty && hasDefault ? defaultValue : line)
        }
        return true
    }

    /// One line of standard input without its newline; nil at its end.
    private static func readLine() -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(0, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }
}
