// SPDX-License-Identifier: MIT
import DBus
import MenuModel

/// Template rows: the inputs the menu asks for in its input line, and the row used with
/// their values.
extension DaemonLink {
    /// The `{input:…}` labels of the row, with their defaults (`GetTemplateInputs`); none for
    /// a row of a table without templates, or from a daemon without the method.
    func templateInputs(_ row: MenuRow) throws -> [MenuInput] {
        let values: [BusValue]
        do {
            values = try call("GetTemplateInputs", Self.path(row))
        } catch let failure as DaemonFailure where failure.error.name == BusErrorName.unknownMethod {
            return []
        }
        return try read("GetTemplateInputs") { () throws(BusValueMismatch) in
            try values.structures(at: 0, expected: "(sbs)").map { fields throws(BusValueMismatch) in
                MenuInput(label: try fields.string(at: 0), defaultValue: try fields.string(at: 2))
            }
        }
    }

    /// Uses the row by `action` with the inputs' values: pastes it into the focused window
    /// (`PasteWithInputs`), or copies it (`CopyWithInputs`).
    func use(_ row: MenuRow, action: String, labels: [String], values: [String]) throws {
        let given = BusValue.dictionary(
            keySignature: "s", valueSignature: "s", zip(labels, values).map { (.string($0), .string($1)) })
        if action == "paste" {
            _ = try call("PasteWithInputs", Self.path(row) + [.uint32(0), .uint64(0), given])
        } else {
            _ = try call("CopyWithInputs", Self.path(row) + [given])
        }
    }
}
