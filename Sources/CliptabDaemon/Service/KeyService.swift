// SPDX-License-Identifier: MIT
import CliptabCore

/// What the keys of `[keys]` do, run in the daemon: told of each press and release by the
/// session's binder.
///
/// A `copy` and a `sequence` run at the press; a `paste` and a `fill` wait for the release,
/// so that the window never sees the user's Super or Alt with the paste chord; `menu` and
/// `pick` start their program at the press. A press of keys already down (a key's repeat)
/// does nothing.
public final class KeyService {
    /// The use cases a key runs.
    private let service: ClipboardService
    /// Starts `cliptab` with the given arguments (`menu`, `pick`); throws when it cannot.
    private let launch: ([String]) throws -> Void
    /// Where the bindings and their states are kept for the bus.
    public let board: BoundKeys
    /// The ids whose keys are down now.
    private var down: Set<String> = []
    /// The session's binder, nil where there is none; made last, with this service's
    /// handler of its events.
    private var binder: KeyBinder?
    /// The state of every binding where there is no binder (the reason to show).
    private let unboundReason: (KeyBinding) -> String

    /// Makes the service over `service`, keeping states on `board`; `makeBinder` makes the
    /// session's binder with the handler of its events (nil: none, each binding then not
    /// bound for `unboundReason`).
    public init(
        service: ClipboardService, board: BoundKeys, launch: @escaping ([String]) throws -> Void,
        unboundReason: @escaping (KeyBinding) -> String,
        makeBinder: (@escaping (KeyEvent) -> Void) -> KeyBinder?
    ) {
        self.service = service
        self.board = board
        self.launch = launch
        self.unboundReason = unboundReason
        binder = makeBinder { [weak self] event in self?.handle(event) }
    }

    /// The binder's source for the loop, when it has one (a display's or a socket's events).
    public var source: PollSource? { binder as? PollSource }

    /// Binds `bindings`, replacing those bound before; returns the log's lines of those that
    /// could not be bound, one per reason (`BoundKeys.unboundLines`).
    @discardableResult
    public func apply(_ bindings: [KeyBinding]) -> [String] {
        down = []
        var states: [String: KeyBindingState] = [:]
        if let binder {
            if bindings.isEmpty { binder.unbindAll() } else { states = binder.bind(bindings.map(\.request)) }
        } else {
            states = Dictionary(
                uniqueKeysWithValues: bindings.map { ($0.id, .notBound(reason: unboundReason($0))) })
        }
        board.entries = bindings.map { binding in
            BoundKeys.Entry(
                binding: binding,
                state: states[binding.id] ?? .notBound(reason: "the binder gave no answer for this key"))
        }
        return BoundKeys.unboundLines(board.entries)
    }

    /// Releases every binding (at exit).
    public func shutdown() {
        binder?.unbindAll()
        binder = nil
    }

    /// Runs the action of the binding a press or release names.
    public func handle(_ event: KeyEvent) {
        switch event {
        case .pressed(let id):
            guard let binding = binding(id), down.insert(id).inserted else { return }
            switch binding.action {
            case .copy(let table, let row, _):
                run(binding) {
                    let (section, index) = try resolve(row, in: table)
                    try service.copy(table, section: section, row: index) { result in
                        if case .failure(let error) = result { Self.log(binding, error) }
                    }
                }
            case .sequence(let table, let row, _, let count):
                run(binding) {
                    let (section, index) = try resolve(row, in: table)
                    try service.startSequence(table, section: section, row: index, count: count) { result in
                        if case .failure(let error) = result { Self.log(binding, error) }
                    }
                }
            case .menu, .pick:
                run(binding) { try launch(binding.action.commandArguments) }
            case .paste, .fill:
                break
            }
        case .released(let id):
            guard down.remove(id) != nil, let binding = binding(id) else { return }
            switch binding.action {
            case .paste(let table, let row, _): paste(binding, table, row)
            case .fill(let table, let row, _, let count, let then): fill(binding, table, row, count, then)
            case .copy, .sequence, .menu, .pick: break
            }
        }
    }

    /// The paste of a `paste` binding, at its release.
    private func paste(_ binding: KeyBinding, _ table: String, _ row: KeyAction.Row) {
        run(binding) {
            let (section, index) = try resolve(row, in: table)
            try service.pasteToFocus(
                table, section: section, row: index, timeoutMilliseconds: 0, caller: nil
            ) { result in
                switch result {
                case .success(let outcome) where !outcome.delivered:
                    Log.line(
                        "key \(binding.keys) (\(binding.action.text)): \(outcome.reason)", level: .warning
                    )
                case .failure(let error): Self.log(binding, error)
                case .success: break
                }
            }
        }
    }

    /// The fill of a `fill` binding, at its release; a fill that stops is logged with its
    /// place (`row 2 of 3: …`).
    private func fill(
        _ binding: KeyBinding, _ table: String, _ row: KeyAction.Row, _ count: UInt64,
        _ then: ClipboardService.FillSeparator
    ) {
        run(binding) {
            let (section, index) = try resolve(row, in: table)
            try service.fill(
                table, section: section, row: index, count: count, then: then, timeoutMilliseconds: 0,
                caller: nil
            ) { result in
                switch result {
                case .success(let outcome) where !outcome.reason.isEmpty:
                    Log.line(
                        "key \(binding.keys) (\(binding.action.text)): \(outcome.reason)", level: .warning)
                case .failure(let error): Self.log(binding, error)
                case .success: break
                }
            }
        }
    }

    private func binding(_ id: String) -> KeyBinding? {
        board.entries.first { $0.binding.id == id }?.binding
    }

    private func run(_ binding: KeyBinding, _ body: () throws -> Void) {
        do { try body() } catch { Self.log(binding, error) }
    }

    private static func log(_ binding: KeyBinding, _ error: Error) {
        Log.line("key \(binding.keys) (\(binding.action.text)): \(error)", level: .warning)
    }

    /// The index path of `row` in `table` now.
    private func resolve(_ row: KeyAction.Row, in table: String) throws -> (Int32, Int32) {
        switch row {
        case .name(let name):
            let path = try service.tables.findRow(table, rowName: name).path
            return (path.section, path.row)
        case .path(let section, let index, let header):
            return (try header.map { try service.tables.findSection(table, header: $0) } ?? section, index)
        case .id(let id):
            let (owner, path) = try service.tables.locate(id)
            guard owner == table else {
                throw CliptabError(.noSuchRow, "row #\(id) is in table \"\(owner)\", not in \"\(table)\"")
            }
            return (path.section, path.row)
        }
    }
}
