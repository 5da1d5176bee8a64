// SPDX-License-Identifier: MIT

/// An atom interned on the X server: the name of a selection, a target, a property or a
/// type.
///
/// The corresponding C type is `Atom`, an unsigned long; 0 is `None`.
struct InternedAtom: RawRepresentable, Hashable, Sendable {
    /// The server's number for the atom.
    let rawValue: UInt

    /// Wraps an atom number as the server gave it.
    init(rawValue: UInt) { self.rawValue = rawValue }

    /// `None`: no atom (a refused conversion, an obsolete requestor's property).
    static let none = InternedAtom(rawValue: 0)
}
