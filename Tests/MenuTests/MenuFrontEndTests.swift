// SPDX-License-Identifier: MIT
import CliptabClient
import MenuDriver
import MenuModel
import TestSupport
import Testing

/// A surface that is only a queue of events and a record of what was asked of it.
final class FakeSurface: MenuSurface {
    /// The events the menu reads next.
    var events: [MenuEvent] = []
    /// The prompt (or message) of each frame drawn, in order.
    private(set) var frames: [String] = []
    /// Every call, in order (`open`, `present`, `hide`, `reveal`, `close`).
    private(set) var calls: [String] = []
    let visibleRows = 5
    /// What the popup has due (a held key's repeat), in milliseconds.
    var wakeTimeout: Int32?
    /// Advanced on each wait, where a message waits for a key.
    private let clock: VirtualClock

    init(clock: VirtualClock) { self.clock = clock }

    func open(firstCount: Int) throws { calls.append("open") }
    func present() throws { calls.append("present") }
    func draw(_ screen: MenuSession.Screen, prompt: String, message: String?) throws {
        frames.append(message ?? prompt)
    }
    func nextEvent() -> MenuEvent? { events.isEmpty ? nil : events.removeFirst() }
    func prepareToPoll() throws -> Int32 {
        clock.now += 1000
        return -1
    }
    func finishPoll(readable: Bool) throws {}
    func hide() { calls.append("hide") }
    func reveal() throws { calls.append("reveal") }
    func close() { calls.append("close") }
}

/// The time of the tests' menus.
final class VirtualClock {
    /// Milliseconds.
    var now: UInt64 = 1_000_000
}

/// The one front end of both popups, over a fake surface and a real cliptabd on Xvfb: the
/// events it is given, what it draws, what it asks the daemon and how the menu ends.
@Suite(.serialized)
struct MenuFrontEndTests {
    /// A daemon with the table `p` (one, two, three, four) and a menu on it: Enter copies.
    final class Harness {
        let fixture: MenuFixture
        let clock: VirtualClock
        let surface: FakeSurface
        let menu: MenuFrontEnd

        init() throws {
            fixture = try MenuFixture(enter: "copy")
            #expect(try fixture.cliptab("create", "p").exitCode == 0)
            try fixture.cliptab("add", "p", "one", "two", "three", "four")
            var settings = MenuSettings()
            settings.enter = "copy"
            let client = CliptabClient(
                connection: try fixture.session.connect(), timeoutMilliseconds: 20_000, sharedDeadline: false)
            let clock = VirtualClock()
            self.clock = clock
            surface = FakeSurface(clock: clock)
            menu = MenuFrontEnd(
                client: client, settings: settings, surface: surface, copiesWhenPasteRefused: false,
                clock: { clock.now })
            let content = try menu.tableContent("p")
            try menu.start(
                .list(.rows(table: "p"), MenuList(content: content, visibleRows: 5)), prompt: "p",
                firstCount: content.count)
        }

        /// The shown list's cursor.
        var cursor: Int? {
            guard case .list(_, let list) = menu.session.current else { return nil }
            return list.cursor
        }

        /// Queues `events` and runs one turn of the loop.
        func turn(_ events: MenuEvent...) -> Int32? {
            surface.events += events
            return menu.turn()
        }
    }

    @Test func arrowsMoveAndEnterCopiesAfterGivingTheKeyboardBack() throws {
        let menu = try Harness()
        #expect(menu.surface.calls == ["open", "present"])
        #expect(menu.surface.frames == ["p"])
        #expect(menu.cursor == 0)
        #expect(menu.turn(.key(.down)) == nil)
        #expect(menu.cursor == 1)
        #expect(menu.surface.frames.count == 2)
        #expect(menu.turn(.key(.down), .key(.up), .key(.down), .key(.down)) == nil)
        #expect(menu.cursor == 3)
        // Queued keys (a held key's repeats) make one frame, not one each.
        #expect(menu.surface.frames.count == 3)
        // Nothing came: nothing is drawn.
        #expect(menu.turn() == nil)
        #expect(menu.surface.frames.count == 3)
        #expect(menu.turn(.key(.enter)) == MenuExit.done)
        #expect(menu.surface.calls == ["open", "present", "hide"])
        #expect(try menu.fixture.clipboard() == "four")
    }

    @Test func typingFiltersAndEscapeCloses() throws {
        let menu = try Harness()
        #expect(menu.turn(.key(.text("f"))) == nil)
        guard case .list(_, let list) = menu.menu.session.current else {
            Issue.record("no list")
            return
        }
        #expect(list.filter == "f")
        #expect(list.count == 1)
        #expect(menu.turn(.key(.escape)) == MenuExit.cancelled)
        #expect((try? menu.fixture.clipboard()) != "four")
    }

    @Test func tabOpensTheActionsLeftGoesBackAndEscapeCloses() throws {
        let menu = try Harness()
        #expect(menu.turn(.key(.tab)) == nil)
        #expect(menu.menu.session.screens.count == 2)
        #expect(menu.surface.frames.last == "actions")
        #expect(menu.turn(.key(.left)) == nil)
        #expect(menu.menu.session.screens.count == 1)
        #expect(menu.surface.frames.last == "p")
        #expect(menu.turn(.key(.escape)) == MenuExit.cancelled)
    }

    @Test func thePointerPointsAndAClickChooses() throws {
        let menu = try Harness()
        #expect(menu.turn(.pointer(row: 3)) == nil)
        #expect(menu.cursor == 3)
        // Outside the box the pointer changes nothing.
        #expect(menu.turn(.pointer(row: nil)) == nil)
        #expect(menu.cursor == 3)
        #expect(menu.turn(.scroll(-1)) == nil)
        #expect(menu.cursor == 2)
        #expect(menu.turn(.button(3, row: 1)) == nil)
        #expect(menu.surface.frames.last == "actions")
        #expect(menu.turn(.key(.left), .button(1, row: 1)) == MenuExit.done)
        #expect(try menu.fixture.clipboard() == "two")
    }

    @Test func aClickOutsideOrTheSurfaceTakenAwayCloses() throws {
        #expect(try Harness().turn(.button(1, row: nil)) == MenuExit.cancelled)
        let menu = try Harness()
        #expect(menu.turn(.key(.down), .closed, .key(.enter)) == MenuExit.cancelled)
        #expect((try? menu.fixture.clipboard()) != "two")
    }

    @Test func aMenuNobodyUsesClosesOnItsClock() throws {
        let menu = try Harness()
        menu.clock.now += MenuFrontEnd.idleMilliseconds - 1
        #expect(menu.menu.timeout() == 1)
        #expect(menu.turn() == nil)
        // A key starts the wait again.
        #expect(menu.turn(.key(.down)) == nil)
        #expect(menu.menu.timeout() == Int32(MenuFrontEnd.idleMilliseconds))
        // A held key's repeat wakes the loop when it is due.
        menu.surface.wakeTimeout = 33
        #expect(menu.menu.timeout() == 33)
        menu.surface.wakeTimeout = nil
        menu.clock.now += MenuFrontEnd.idleMilliseconds
        #expect(menu.turn() == MenuExit.cancelled)
    }

    @Test func aFailureIsShownBeforeTheMenuEnds() throws {
        let menu = try Harness()
        // The daemon goes while the menu is open: choosing a row shows why, until a key or
        // for a moment.
        _ = menu.fixture.session.kill()
        #expect(menu.turn(.key(.enter)) == MenuExit.unavailable)
        #expect(menu.menu.message != nil)
        #expect(menu.surface.calls.contains("reveal"))
    }
}
