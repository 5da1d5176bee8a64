// SPDX-License-Identifier: MIT
import Posix
import TestSupport
import Testing

@testable import X11Desktop

/// The search for the focused window's client is bounded in round trips, counted as the
/// requests the connection sends, however a real X client nests its windows: a chain of
/// 80,000 once took one `PasteToFocus` 80,000 round trips (10.2 s).
@Suite(.serialized)
struct FocusSearchTests {
    /// Runs the window-nesting client with `arguments` on `harness`'s display, then the
    /// search; returns the search's answer, the requests it sent, and the client's windows.
    func search(_ harness: Harness, _ arguments: [String]) throws -> (
        found: FocusedWindow?, requests: UInt, top: UInt, focus: UInt
    ) {
        let client = try harness.spawn("python3", ["-c", windowNestScript] + arguments, stdin: .pipe)
        defer {
            client.closeStandardInput()
            client.terminate(graceMilliseconds: 1000)
        }
        let line = try #require(client.readLine(timeoutMilliseconds: 60_000), "the client did not start")
        let words = line.split(separator: " ")
        guard words.count == 3, words[0] == "ready", let top = UInt(words[1]), let focus = UInt(words[2])
        else {
            throw FixtureError("the client said \(line)")
        }
        let before = harness.service.connection.nextRequestSerial
        let found = harness.service.focusedWindow()
        let requests = harness.service.connection.nextRequestSerial - before
        print("focus search \(arguments.joined(separator: " ")): \(requests) requests")
        return (found, requests, top, focus)
    }

    @Test("a chain of 3,000 windows focused at its deepest costs at most 48 round trips")
    func deepChainIsBounded() throws {
        let harness = try Harness()
        let result = try search(harness, ["3000", "chain", "none", "none"])
        #expect(result.found?.window.rawValue == result.focus)
        #expect(result.found?.client == WindowID.none)
        #expect(result.requests <= UInt(FocusSearch.maxRoundTrips), "\(result.requests) requests")
    }

    @Test("a client class 3,000 levels up is not looked for past the bound")
    func classFarUpIsBounded() throws {
        let harness = try Harness()
        let result = try search(harness, ["3000", "chain", "top", "none"])
        #expect(result.requests <= UInt(FocusSearch.maxRoundTrips), "\(result.requests) requests")
    }

    @Test("a focus window with 20,000 children is searched among its first few")
    func wideTreeIsBounded() throws {
        let harness = try Harness()
        let result = try search(harness, ["20000", "wide", "none", "none"])
        #expect(result.found?.window.rawValue == result.focus)
        #expect(result.requests <= UInt(FocusSearch.maxRoundTrips), "\(result.requests) requests")
    }

    @Test("_NET_ACTIVE_WINDOW names the client at once, however deep the focus")
    func activeWindowIsReadFirst() throws {
        let harness = try Harness()
        let result = try search(harness, ["3000", "chain", "top", "top"])
        #expect(result.found?.client.rawValue == result.top)
        #expect(result.found?.className == "Nested" && result.found?.instanceName == "nested")
        #expect(result.requests <= 3, "\(result.requests) requests")
    }

    @Test("_NET_ACTIVE_WINDOW does not stand for a PointerRoot focus: the window under the pointer does")
    func activeWindowIsNotTheFocusUnderPointerRoot() throws {
        let harness = try Harness()
        // The client's windows lie at the screen's corner, the pointer at its centre: no
        // window is under it, so no client is found, whatever the property names.
        let result = try search(harness, ["2", "chain", "top", "top", "pointerroot"])
        #expect(
            result.found == nil, "the active window chose the target: \(String(describing: result.found))")
    }

    @Test("a client two levels up is still found")
    func nearClientsAreFound() throws {
        let harness = try Harness()
        let up = try search(harness, ["2", "chain", "top", "none"])
        #expect(up.found?.client.rawValue == up.top && up.found?.className == "Nested")
        #expect(up.requests <= 8, "\(up.requests) requests")
    }
}
