// SPDX-License-Identifier: MIT

/// The menu's levels as a stack, and what each key does on the top one.
///
/// The session never fetches or changes anything itself: a key that needs the daemon comes
/// back as a `MenuRequest`, and the owner pushes the next level with what it fetched.
public final class MenuSession {
    /// One level: a list to choose from, or a one-line text input.
    public enum Screen {
        /// A list of lines.
        case list(MenuLevel, MenuList)
        /// A text input.
        case input(MenuLevel, LineEditor)

        /// The level.
        public var level: MenuLevel {
            switch self {
            case .list(let level, _), .input(let level, _): return level
            }
        }
    }

    /// The levels, the shown one last.
    public private(set) var screens: [Screen] = []

    /// An empty session; push its first level.
    public init() {}

    /// The shown level.
    public var current: Screen? { screens.last }

    /// Shows `screen` above the others.
    public func push(_ screen: Screen) { screens.append(screen) }

    /// Goes back one level (never below the first).
    public func pop() {
        if screens.count > 1 { screens.removeLast() }
    }

    /// The input line for the first of a template row's `inputs` before `action` uses it,
    /// its default typed in; nil when the row has none to ask.
    public static func fillScreen(_ row: MenuRow, action: String, inputs: [MenuInput]) -> Screen? {
        guard let first = inputs.first else { return nil }
        return .input(.fill(row, action: action, inputs: inputs, values: []), LineEditor(first.defaultValue))
    }

    /// Acts on `key`.
    public func handle(_ key: MenuKey) -> MenuRequest {
        guard let screen = screens.last else { return .close }
        if key == .escape { return .close }
        switch screen {
        case .list(let level, let list): return handle(key, level, list)
        case .input(let level, var editor):
            let depth = screens.count
            let request = handle(key, level, &editor)
            // Unless the key pushed the next input, the edited line goes back in place.
            if screens.count == depth, case .input = screens.last {
                screens[screens.count - 1] = .input(level, editor)
            }
            return request
        }
    }

    private func handle(_ key: MenuKey, _ level: MenuLevel, _ list: MenuList) -> MenuRequest {
        switch key {
        case .up: list.move(by: -1)
        case .down: list.move(by: 1)
        case .pageUp: list.pageUp()
        case .pageDown: list.pageDown()
        case .home: list.home()
        case .end: list.end()
        case .text(let typed): list.setFilter(list.filter + typed)
        case .backspace:
            if !list.filter.isEmpty { list.setFilter(String(list.filter.dropLast())) }
        case .left:
            pop()
        case .delete, .escape:
            break
        case .enter: return choose(level, list, enter: true)
        case .tab, .right: return choose(level, list, enter: false)
        }
        return .none
    }

    /// Enter (or Right/Tab) on the chosen line of `level`.
    private func choose(_ level: MenuLevel, _ list: MenuList, enter: Bool) -> MenuRequest {
        guard let line = list.selected else { return .none }
        switch level {
        case .tables:
            return .openTable(line.text)
        case .rows(let table):
            let row = MenuRow(table: table, section: line.section, row: line.row, id: line.id)
            return enter ? .chooseRow(row) : .showActions(row)
        case .actions(let row):
            switch line.text {
            case "move": return .chooseDestination(row)
            case "edit": return .startEdit(row)
            case "insert":
                push(.input(.insert(row), LineEditor()))
                return .none
            default: return .perform(action: line.text, row: row)
            }
        case .destination(let row):
            return .move(row, toSection: line.section, toRow: destinationRow(row, line))
        case .edit, .insert, .fill:
            return .none
        }
    }

    /// The final row index of a move onto `line`: the row's own place, or the end of the
    /// section (one less when the moved row leaves that same section).
    private func destinationRow(_ moved: MenuRow, _ line: MenuLine) -> Int {
        if line.id == 0 && line.section == moved.section { return max(0, line.row - 1) }
        return line.row
    }

    private func handle(_ key: MenuKey, _ level: MenuLevel, _ editor: inout LineEditor) -> MenuRequest {
        switch key {
        case .text(let typed): editor.insert(typed)
        case .backspace: editor.deleteBackward()
        case .delete: editor.deleteForward()
        case .left: editor.left()
        case .right: editor.right()
        case .home: editor.home()
        case .end: editor.end()
        case .enter:
            switch level {
            case .edit(let row): return .setText(row, editor.text)
            case .insert(let row): return .insert(row, editor.text)
            case .fill(let row, let action, let inputs, let values):
                let given = values + [editor.text]
                guard given.count < inputs.count else {
                    return .fillIn(row, action: action, labels: inputs.map(\.label), values: given)
                }
                // The next input on a level of its own: Escape still closes, as everywhere.
                push(
                    .input(
                        .fill(row, action: action, inputs: inputs, values: given),
                        LineEditor(inputs[given.count].defaultValue)))
                return .none
            default: return .none
            }
        case .up, .down, .pageUp, .pageDown, .tab, .escape: break
        }
        return .none
    }
}
