// SPDX-License-Identifier: MIT
import DBus

/// One row of the interface's property table: a read-only property and how its value is
/// read from a service.
struct CliptabProperty {
    /// The property's name.
    let name: String
    /// Its signature.
    let signature: String
    /// How its changes are announced.
    let changeSignal: BusProperty.ChangeSignal
    /// Reads the value from a service.
    let value: (ClipboardService) -> BusValue

    /// Makes a row.
    init(
        name: String, signature: String, changeSignal: BusProperty.ChangeSignal = .true,
        value: @escaping (ClipboardService) -> BusValue
    ) {
        self.name = name
        self.signature = signature
        self.changeSignal = changeSignal
        self.value = value
    }

    /// The property read from `service`.
    func bound(to service: ClipboardService) -> BusProperty {
        BusProperty(name: name, signature: signature, access: .read, changeSignal: changeSignal) {
            [value] in value(service)
        }
    }

    /// The property's description alone, for the introspection XML; never registered, so a
    /// read reaching it is a programming error.
    var declaration: BusProperty {
        BusProperty(name: name, signature: signature, access: .read, changeSignal: changeSignal) { [name] in
            preconditionFailure("\(name) was read from a description of the interface")
        }
    }
}
