// SPDX-License-Identifier: MIT

/// One argument of a method or signal: its name and its D-Bus type signature.
struct InterfaceArgument: Equatable, CustomStringConvertible {
    /// The argument's name (`table`, `from_section`).
    var name: String
    /// Its complete D-Bus type (`s`, `a(ssu)`).
    var type: String

    /// "type name", as the contract document writes it.
    var description: String { "\(type) \(name)" }
}
