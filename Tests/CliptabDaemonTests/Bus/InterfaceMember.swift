// SPDX-License-Identifier: MIT

/// A method, signal or property of the cliptab interface, as the contract document or the
/// interface XML declares it.
struct InterfaceMember: Equatable, CustomStringConvertible {
    /// What kind of member it is.
    enum Kind: String {
        /// A method: in- and out-arguments.
        case method
        /// A signal: its arguments are its `inputs`.
        case signal
        /// A property: its type is the one entry of `outputs`, with an empty name.
        case property
    }

    /// The kind.
    var kind: Kind
    /// The member's name (`GetRows`).
    var name: String
    /// A method's in-arguments or a signal's arguments, in order.
    var inputs: [InterfaceArgument] = []
    /// A method's out-arguments, or a property's type.
    var outputs: [InterfaceArgument] = []
    /// A property's access (`read`); nil for methods and signals.
    var access: String? = nil

    /// "method GetRows(s table, …) -> (a(ts) rows)", for failure messages.
    var description: String {
        let input = inputs.map(\.description).joined(separator: ", ")
        let output = outputs.map(\.description).joined(separator: ", ")
        switch kind {
        case .method: return "method \(name)(\(input)) -> (\(output))"
        case .signal: return "signal \(name)(\(input))"
        case .property: return "property \(name) \(outputs.map(\.type).joined()) \(access ?? "?")"
        }
    }
}

/// What the interface XML gets wrong against the contract, one line per member.
///
/// A line for each contract member that is missing from `declared` or declared with other
/// arguments, types, directions or access. Members the XML declares beyond the contract are allowed (the contract may be
/// added to, never changed). `required` false checks only the contract members that the
/// XML declares at all (the additions of a later API version, pinned once served).
func contractMismatches(
    contract: [InterfaceMember], declared: [InterfaceMember], required: Bool = true
) -> [String] {
    var problems: [String] = []
    for member in contract {
        guard let found = declared.first(where: { $0.kind == member.kind && $0.name == member.name }) else {
            if required { problems.append("\(member.kind) \(member.name) is not in the XML") }
            continue
        }
        if found != member { problems.append("the contract says \(member), the XML says \(found)") }
    }
    return problems
}
