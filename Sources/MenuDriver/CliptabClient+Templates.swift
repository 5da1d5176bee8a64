// SPDX-License-Identifier: MIT
import CliptabClient
import DBus
import MenuModel

/// Template rows: the inputs the menu asks for in its input line, and the row used with
/// their values.
extension CliptabClient {
    /// The `{input:…}` labels of the row, with their defaults (`GetTemplateInputs`); none for
    /// a row of a table without templates, or from a daemon without the method.
    public func templateInputs(_ row: MenuRow) throws(ClientFailure) -> [MenuInput] {
        let reply: DaemonReply
        do throws(ClientFailure) {
            reply = try call("GetTemplateInputs", Self.path(row))
        } catch  where error.isUnknownMethod {
            return []
        }
        var inputs: [MenuInput] = []
        for fields in try reply.structures(0, "(sbs)") {
            let input = DaemonReply(member: reply.member, values: fields)
            inputs.append(MenuInput(label: try input.string(0), defaultValue: try input.string(2)))
        }
        return inputs
    }

    /// Uses the row by `action` with the inputs' values: pastes it into the focused window
    /// (`PasteWithInputs`), or copies it (`CopyWithInputs`).
    public func use(_ row: MenuRow, action: String, labels: [String], values: [String]) throws(ClientFailure)
    {
        let given = BusValue.dictionary(
            keySignature: "s", valueSignature: "s", zip(labels, values).map { (.string($0), .string($1)) })
        if action == "paste" {
            try call("PasteWithInputs", Self.path(row) + [.uint32(0), .uint64(0), given])
        } else {
            try call("CopyWithInputs", Self.path(row) + [given])
        }
    }
}
