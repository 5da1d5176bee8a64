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

        /// The binding in words, for the log.
        var name: String { "\(binding.keys) (\(binding.action.text))" }
    }

    /// The log's lines for the entries not bound: one per reason, naming every binding it
    /// holds back, so that a reason of the whole session (the desktop has not answered yet,
    /// the portal left) is one line, not one per binding.
    public static func unboundLines(_ entries: [Entry]) -> [String] {
        var reasons: [String] = []
        var names: [String: [String]] = [:]
        for entry in entries {
            guard case .notBound(let reason) = entry.state else { continue }
            if names[reason] == nil { reasons.append(reason) }
            names[reason, default: []].append(entry.name)
        }
        return reasons.map { reason in
            let held = names[reason] ?? []
            return held.count == 1
                ? "key \(held[0]) is not bound: \(reason)"
                : "keys \(held.joined(separator: ", ")) are not bound: \(reason)"
        }
    }

    /// The bindings in file order.
    public internal(set) var entries: [Entry] = []

    /// Makes an empty board: no binding yet.
    public init() {}

    /// Takes the states a binder reported after `bind` answered (the desktop's answer to
    /// the shortcuts portal), by binding id; returns the lines of those not bound, for the
    /// log.
    @discardableResult
    public func update(_ states: [String: KeyBindingState]) -> [String] {
        for index in entries.indices {
            if let state = states[entries[index].binding.id] { entries[index].state = state }
        }
        return Self.unboundLines(entries.filter { states[$0.binding.id] != nil })
    }
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
