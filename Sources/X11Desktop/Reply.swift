// SPDX-License-Identifier: MIT

/// What one reply to a SelectionRequest writes into the requestor's property.
enum Reply {
    /// Format-8 data of the given type.
    case bytes(type: InternedAtom, WipingBuffer)
    /// Format-32 data (atoms, integers) of the given type, as C `long`s.
    case longs(type: InternedAtom, [UInt])
}
