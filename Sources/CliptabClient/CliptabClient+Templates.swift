// SPDX-License-Identifier: MIT
import DBus

/// The contract's calls about templates (`docs/dbus-api.md`), one typed method each; where a
/// method answers for more than one call, it falls back to an earlier API version's here.
extension CliptabClient {
    /// `Expand`: the cell's text filled in with `inputs`.
    public func expand(_ cell: TableCell, inputs: InputValues) throws(ClientFailure) -> String {
        try call("Expand", cell.arguments + [Self.inputs(inputs)]).string(0)
    }

    /// `GetTemplateInputs`: the cell's `{input:…}` labels; none from a daemon without
    /// templates (API version 2).
    public func templateInputs(_ cell: TableCell) throws(ClientFailure) -> [TemplateInput] {
        let reply: DaemonReply
        do throws(ClientFailure) {
            reply = try call("GetTemplateInputs", cell.arguments)
        } catch  where error.isUnknownMethod {
            return []
        }
        var inputs: [TemplateInput] = []
        for fields in try reply.structures(0, "a(sbs)") {
            let input = DaemonReply(member: reply.member, values: fields)
            inputs.append(
                TemplateInput(
                    label: try input.string(0), hasDefault: try input.boolean(1),
                    defaultValue: try input.string(2)))
        }
        return inputs
    }

    /// `inputs` as the bus's `a{ss}`.
    static func inputs(_ inputs: InputValues) -> BusValue {
        .dictionary(
            keySignature: "s", valueSignature: "s", inputs.map { (.string($0.label), .string($0.value)) })
    }

    /// `options` as the bus's `a{sv}`.
    static func options(_ options: [String: BusValue]) -> BusValue {
        .dictionary(
            keySignature: "s", valueSignature: "v",
            options.sorted { $0.key < $1.key }.map { (.string($0.key), .variant($0.value)) })
    }
}
