// SPDX-License-Identifier: MIT

/// The bindings of `[keys]` and what became of each, as the key service last bound them:
/// the key service writes it, the bus's `KeyBindings` reads it.
public final class BoundKeys {
    /// One binding and its state.
    public struct Entry: Equatable, Sendable {
        /// The line of `[keys]`.
        public var binding: KeyBinding
        /// What the binder made of it.
        public var state: KeyBindingState
    }

    /// The bindings in file order.
    public internal(set) var entries: [Entry] = []

    /// Makes an empty board: no binding yet.
    public init() {}
}

extension KeyBindingState {
    /// The state's word on the bus and in `cliptab keys --json`.
    public var word: String {
        switch self {
        case .grabbed: "grabbed"
        case .boundByDesktop: "bound-by-desktop"
        case .boundInSway: "bound-in-sway"
        case .notBound: "not-bound"
        }
    }

    /// The desktop's trigger or the reason it is not bound; empty for the others.
    public var detail: String {
        switch self {
        case .grabbed, .boundInSway: ""
        case .boundByDesktop(let trigger): trigger
        case .notBound(let reason): reason
        }
    }
}
