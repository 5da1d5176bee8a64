// SPDX-License-Identifier: MIT

/// The search for the focused window's client (the window with `WM_CLASS` that names its
/// program), bounded in levels, in windows and in the round trips of the whole search.
///
/// Any X client can nest windows: one that nested 80,000 and focused the deepest made one
/// search take 80,000 round trips (10.2 s, while every other client of the daemon waited).
/// Window managers nest a client 2–3 levels inside its frame, so a few levels each way and
/// a few dozen round trips in all find every real client; past them the client is unknown
/// (the default chord is sent).
struct FocusSearch {
    /// The most ancestors of the focus that are asked for `WM_CLASS`.
    static let maxAncestors = 8
    /// The most descendants of the focus that are asked for `WM_CLASS`, breadth first.
    static let maxDescendants = 24
    /// The most windows queued by the breadth-first search (a window may have thousands of
    /// children; only the first ones are kept).
    static let maxQueued = 64
    /// The most round trips of one search, all steps together.
    static let maxRoundTrips = 48

    private let connection: DisplayConnection
    private let atoms: KnownAtoms
    /// The round trips left to this search.
    private(set) var roundTripsLeft = maxRoundTrips

    /// Makes a search over `connection`.
    init(connection: DisplayConnection, atoms: KnownAtoms) {
        self.connection = connection
        self.atoms = atoms
    }

    /// Takes one round trip from the budget; false when none is left.
    private mutating func spend() -> Bool {
        guard roundTripsLeft > 0 else { return false }
        roundTripsLeft -= 1
        return true
    }

    /// The focus and its client, or nil when the focus is None; see
    /// `SelectionService.focusedWindow()`.
    mutating func run() -> FocusedWindow? {
        let root = connection.rootWindow
        guard spend() else { return nil }
        var focus = connection.inputFocus()
        if focus == .none { return nil }
        // Where a window manager sets it, the active window is the client (one round trip).
        let active =
            spend() ? connection.windowProperty(atoms.netActiveWindow, of: root, type: atoms.window) : .none
        if focus == .pointerRoot || focus == root {
            // The keys go to the window under the pointer. `_NET_ACTIVE_WINDOW` does not stand
            // for it: any client may set that property, and so choose the paste chord.
            guard spend() else { return nil }
            focus = connection.topLevelUnderPointer()
            if focus == .none { return nil }
        }
        // Trusted only when the focus is the active window's client's own (the same X client
        // made both): another client's value, stale or planted, then chooses nothing.
        if active != .none && sameClient(active, focus) && spend(),
            let hint = connection.classHint(of: active)
        {
            return found(focus, active, hint)
        }
        if let hit = searchAncestors(of: focus, root: root) { return hit }
        if let hit = searchDescendants(of: focus) { return hit }
        connection.discardUncheckedErrors()
        return FocusedWindow(window: focus, client: .none, instanceName: "", className: "")
    }

    /// The nearest of the focus and its first `maxAncestors` ancestors with `WM_CLASS`.
    private mutating func searchAncestors(of focus: WindowID, root: WindowID) -> FocusedWindow? {
        var current = focus
        var level = 0
        while current != .none && current != root && level <= Self.maxAncestors {
            guard spend() else { return nil }
            if let hint = connection.classHint(of: current) { return found(focus, current, hint) }
            guard level < Self.maxAncestors, spend(), let tree = connection.tree(of: current) else {
                return nil
            }
            current = tree.parent
            level += 1
        }
        return nil
    }

    /// The first of the focus's descendants with `WM_CLASS`, breadth first, among the first
    /// `maxDescendants` (a frame's client is one or two levels down).
    private mutating func searchDescendants(of focus: WindowID) -> FocusedWindow? {
        guard spend(), let children = connection.tree(of: focus)?.children else { return nil }
        var queue = Array(children.prefix(Self.maxQueued))
        var next = 0
        while next < queue.count && next < Self.maxDescendants {
            let window = queue[next]
            next += 1
            guard spend() else { return nil }
            if let hint = connection.classHint(of: window) { return found(focus, window, hint) }
            // At most `maxQueued` windows are ever queued: a window with thousands of
            // children gives only the first ones.
            guard queue.count < Self.maxQueued else { continue }
            guard spend() else { return nil }
            if let grandchildren = connection.tree(of: window)?.children {
                queue += grandchildren.prefix(Self.maxQueued - queue.count)
            }
        }
        return nil
    }

    /// True when windows `first` and `second` were made by the same X client.
    private func sameClient(_ first: WindowID, _ second: WindowID) -> Bool {
        let mask = connection.resourceMask
        return first.rawValue & ~mask == second.rawValue & ~mask
    }

    /// The answer: `client` with its `WM_CLASS` hint stands for `focus`.
    private func found(_ focus: WindowID, _ client: WindowID, _ hint: (name: String, className: String))
        -> FocusedWindow
    {
        FocusedWindow(window: focus, client: client, instanceName: hint.name, className: hint.className)
    }
}
