// SPDX-License-Identifier: MIT
import CliptabDaemon
import KeyChords
import Testing

/// The paste router's choice among in-memory ways of typing, by the reach each declares.
struct PasteRouterTests {
    /// A way of typing that answers as told and records what it sent.
    final class Way: KeyInjector {
        let reach: KeyReach
        let summary: String
        let target: Result<PasteTarget, NoPasteTarget>
        var focus: UInt64?
        private(set) var sent: [String] = []
        private(set) var prepared = 0
        private(set) var refocused: [UInt64] = []

        init(_ name: String, reach: KeyReach, target: Result<PasteTarget, NoPasteTarget>) {
            summary = name
            self.reach = reach
            self.target = target
        }

        func focusedTarget() throws -> PasteTarget { try target.get() }
        func send(_ chord: KeyChord, repressModifiers: Bool) throws { sent.append(chord.description) }
        func currentFocus() -> UInt64? { focus }
        func refocus(_ window: UInt64) throws {
            guard focus == window else { throw NoPasteTarget("\(summary) has no window \(window)") }
            refocused.append(window)
        }
        func prepare(_ ready: @escaping (NoPasteTarget?) -> Void) {
            prepared += 1
            ready(nil)
        }
    }

    private let chord = try! KeyChord(parsing: "ctrl+v")
    private let x11Window = PasteTarget(names: ["st", "St"], reader: 7)
    private let waylandWindow = PasteTarget(names: ["foot"], reader: 9)
    private let noX11Focus = NoPasteTarget("no X11 window has the input focus")
    private let noKeyboard = NoPasteTarget("no virtual keyboard")

    private func paste(_ router: PasteRouter) throws -> PasteTarget {
        let target = try router.focusedTarget()
        router.prepare { #expect($0 == nil) }
        try router.send(chord, repressModifiers: false)
        return target
    }

    @Test func x11WindowGoesToXTEST() throws {
        let xtest = Way("xtest", reach: .x11Windows, target: .success(x11Window))
        let keyboard = Way("keyboard", reach: .focusedWindow, target: .success(waylandWindow))
        #expect(try paste(PasteRouter(routes: [xtest, keyboard])) == x11Window)
        #expect(xtest.sent == ["ctrl+v"] && keyboard.sent.isEmpty)
    }

    @Test func waylandWindowGoesToTheVirtualKeyboard() throws {
        let xtest = Way("xtest", reach: .x11Windows, target: .failure(noX11Focus))
        let keyboard = Way("keyboard", reach: .focusedWindow, target: .success(waylandWindow))
        let portal = Way(
            "portal", reach: .focusedWindow, target: .success(PasteTarget(names: [], reader: nil)))
        #expect(try paste(PasteRouter(routes: [xtest, keyboard, portal])) == waylandWindow)
        #expect(keyboard.sent == ["ctrl+v"] && xtest.sent.isEmpty && portal.sent.isEmpty)
        #expect(keyboard.prepared == 1 && portal.prepared == 0)
    }

    @Test func noKeyboardGoesToThePortal() throws {
        let xtest = Way("xtest", reach: .x11Windows, target: .failure(noX11Focus))
        let keyboard = Way("keyboard", reach: .none(noKeyboard), target: .failure(noKeyboard))
        let portal = Way(
            "portal", reach: .focusedWindow, target: .success(PasteTarget(names: [], reader: nil)))
        #expect(try paste(PasteRouter(routes: [xtest, keyboard, portal])).names == [])
        #expect(portal.sent == ["ctrl+v"] && portal.prepared == 1 && keyboard.sent.isEmpty)
    }

    @Test func lastRefusalIsThePastes() {
        // No portal: the keyboard's reason, not XTEST's.
        let xtest = Way("xtest", reach: .x11Windows, target: .failure(noX11Focus))
        let keyboard = Way("keyboard", reach: .none(noKeyboard), target: .failure(noKeyboard))
        #expect(throws: noKeyboard) { try PasteRouter(routes: [xtest, keyboard]).focusedTarget() }
        // X11 alone: XTEST's own.
        #expect(throws: noX11Focus) { try PasteRouter(routes: [xtest]).focusedTarget() }
    }

    @Test func aWayForTheFocusedWindowAnswersForThePaste() {
        let refused = NoPasteTarget("the focused window is gone")
        let keyboard = Way("keyboard", reach: .focusedWindow, target: .failure(refused))
        let portal = Way("portal", reach: .focusedWindow, target: .success(waylandWindow))
        #expect(throws: refused) { try PasteRouter(routes: [keyboard, portal]).focusedTarget() }
        #expect(portal.sent.isEmpty)
    }

    @Test func focusIsNamedAndGivenBackByTheWayThatCan() throws {
        let xtest = Way("xtest", reach: .x11Windows, target: .success(x11Window))
        let portal = Way("portal", reach: .focusedWindow, target: .success(waylandWindow))
        xtest.focus = 42
        let router = PasteRouter(routes: [portal, xtest])
        #expect(router.currentFocus() == 42)
        try router.refocus(42)
        #expect(xtest.refocused == [42])
        // Nobody can: the first way's refusal.
        #expect(throws: NoPasteTarget("portal has no window 5")) { try router.refocus(5) }
        #expect(router.summary == "portal; else xtest")
    }
}
