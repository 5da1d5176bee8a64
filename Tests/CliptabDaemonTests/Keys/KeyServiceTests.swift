// SPDX-License-Identifier: MIT
import CliptabConfig
import CliptabCore
import CliptabDaemon
import Testing

/// The key service over an in-memory binder (in addition to the X11 and sway tests): what
/// each action does at the press and at the release, repeats, and the states it keeps.
struct KeyServiceTests {
    /// A binder that binds what it is asked, except the keys in `held`, and lets the test
    /// send its events.
    final class MemoryBinder: KeyBinder {
        var held: Set<String> = []
        private(set) var bound: [KeyBindingRequest] = []
        private(set) var unbinds = 0
        let events: (KeyEvent) -> Void

        init(events: @escaping (KeyEvent) -> Void) { self.events = events }

        func bind(_ requests: [KeyBindingRequest]) -> [String: KeyBindingState] {
            bound = requests.filter { !held.contains($0.keys) }
            var states: [String: KeyBindingState] = [:]
            for request in requests {
                states[request.id] = held.contains(request.keys) ? .notBound(reason: "held") : .grabbed
            }
            return states
        }

        func unbindAll() {
            bound = []
            unbinds += 1
        }
    }

    private func bindings(_ text: String) -> [KeyBinding] {
        ParsedConfiguration(ConfigFile(parsing: Array(text.utf8), path: "c.conf")).configuration.keys
    }

    @Test func copyAtPressPasteAtReleaseMenuStarts() throws {
        let daemon = try InProcessDaemon()
        try daemon.makeTable("t", ["first", "second"])
        try daemon.tables.setRowName("t", section: 0, row: 1, rowName: "sig")
        var binder: MemoryBinder?
        var launched: [[String]] = []
        let keys = KeyService(
            service: daemon.service, board: daemon.service.keys, launch: { launched.append($0) },
            unboundReason: { _ in "none" }
        ) { events in
            binder = MemoryBinder(events: events)
            return binder
        }
        let unbound = keys.apply(
            bindings("[keys]\nSuper+Alt+1 = copy t sig\nSuper+Alt+I = paste t 0:0\nSuper+M = menu t\n"))
        #expect(unbound == [])
        #expect(daemon.service.keys.entries.map(\.state) == [.grabbed, .grabbed, .grabbed])
        let events = try #require(binder).events

        events(.pressed(id: "copy-t-sig"))
        events(.pressed(id: "copy-t-sig"))
        events(.released(id: "copy-t-sig"))
        #expect(daemon.clipboard.copies.map(\.text) == ["second"])

        events(.pressed(id: "paste-t-0_0"))
        #expect(daemon.keys.chords == [], "a paste waits for the release")
        events(.released(id: "paste-t-0_0"))
        daemon.turn()
        #expect(daemon.keys.chords.count == 1)

        events(.pressed(id: "menu-t"))
        #expect(launched == [["menu", "--", "t"]])
        // A release of keys never pressed, an unknown id: nothing.
        events(.released(id: "paste-t-0_0"))
        events(.pressed(id: "nothing"))
        #expect(daemon.keys.chords.count == 1)
    }

    /// A `sequence` key starts its sequence at the press; a `fill` key types nothing until
    /// its release, then its first row goes to the focused window; a failure is logged.
    @Test func sequenceAtPressFillAtRelease() throws {
        let daemon = try SequenceTests.daemon()
        var binder: MemoryBinder?
        let keys = KeyService(
            service: daemon.service, board: daemon.service.keys, launch: { _ in },
            unboundReason: { _ in "none" }
        ) { events in
            binder = MemoryBinder(events: events)
            return binder
        }
        let unbound = keys.apply(
            bindings(
                "[keys]\nSuper+Alt+S = sequence t 0:1 count=2\nSuper+Alt+F = fill t 0:0 then=enter\n"
                    + "Super+Alt+X = sequence t 0:9\n"))
        #expect(unbound == [])
        let events = try #require(binder).events

        events(.pressed(id: "sequence-t-0_1-count_2"))
        daemon.turn()
        #expect(daemon.service.clipboard.sequenceStatus?.position == 1)
        #expect(daemon.service.clipboard.sequenceStatus?.count == 2)
        events(.released(id: "sequence-t-0_1-count_2"))
        // A bad row: nothing starts, and the daemon goes on.
        events(.pressed(id: "sequence-t-0_9"))
        #expect(daemon.service.clipboard.sequenceStatus?.position == 1)

        events(.pressed(id: "fill-t-0_0-then_enter"))
        daemon.turn()
        #expect(daemon.keys.chords == [], "a fill waits for the release")
        events(.released(id: "fill-t-0_0-then_enter"))
        daemon.turn()
        #expect(daemon.keys.chords.count == 1, "\(daemon.keys.chords)")
    }

    @Test func statesAndReapply() throws {
        let daemon = try InProcessDaemon()
        var binder: MemoryBinder?
        let keys = KeyService(
            service: daemon.service, board: daemon.service.keys, launch: { _ in },
            unboundReason: { _ in "none" }
        ) { events in
            binder = MemoryBinder(events: events)
            binder?.held = ["Super+Alt+2"]
            return binder
        }
        let unbound = keys.apply(bindings("[keys]\nSuper+Alt+1 = copy t 0:0\nSuper+Alt+2 = pick\n"))
        #expect(unbound == ["key Super+Alt+2 (pick) is not bound: held"])
        #expect(try #require(binder).bound.map(\.keys) == ["Super+Alt+1"])
        keys.apply([])
        #expect(daemon.service.keys.entries.isEmpty && binder?.bound == [])

        // Without a binder every key is not bound, for the reason given.
        let none = KeyService(
            service: daemon.service, board: BoundKeys(), launch: { _ in }, unboundReason: { "add \($0.keys)" }
        ) { _ in nil }
        #expect(
            none.apply(bindings("[keys]\nAlt+F1 = menu\n")) == ["key Alt+F1 (menu) is not bound: add Alt+F1"])

        // A reason every key shares (the desktop has not answered yet) is one line.
        let waiting = KeyService(
            service: daemon.service, board: BoundKeys(), launch: { _ in }, unboundReason: { _ in "waiting" }
        ) { _ in nil }
        #expect(
            waiting.apply(bindings("[keys]\nAlt+F1 = menu\nAlt+F2 = pick\n")) == [
                "keys Alt+F1 (menu), Alt+F2 (pick) are not bound: waiting"
            ])
    }
}
