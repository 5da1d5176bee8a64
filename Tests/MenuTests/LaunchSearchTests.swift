// SPDX-License-Identifier: MIT
import CliptabContract
import DBus
import DaemonTestSupport
import Glibc
import Posix
import TestSupport
import Testing

/// GNOME Shell's `LaunchSearch` (a click on cliptab's icon beside its results): cliptabd
/// opens `cliptab menu` on the table of the first match, with the terms typed in its filter.
@Suite(.serialized)
struct LaunchSearchTests {
    /// Calls `LaunchSearch(terms, 0)` on the search provider.
    static func launch(_ fixture: MenuFixture, _ terms: [String]) throws {
        let message = try BusMessage.methodCall(
            destination: CliptabBus.name, path: DesktopSearchBus.searchProviderPath,
            interface: DesktopSearchBus.searchProviderInterface, member: "LaunchSearch")
        try message.append([.array(elementSignature: "s", terms.map { .string($0) }), .uint32(0)])
        _ = try fixture.session.client.call(message, timeoutMilliseconds: 20_000)
    }

    /// The menu opens on table "t" filtered by "git": Enter copies "git status"; a second
    /// launch while a menu is open opens no other.
    @Test func opensTheMenuFilteredByTheTerms() throws {
        let fixture = try MenuFixture()
        try fixture.makeSampleTable()
        try fixture.cliptab("create", "other")
        try Self.launch(fixture, ["git"])
        var window = ""
        let deadline = MonotonicClock.milliseconds() + 15_000
        while window.isEmpty && MonotonicClock.milliseconds() < deadline {
            window =
                try fixture.tool("xdotool", "search", "--onlyvisible", "--classname", "^cliptab-menu$")
                .split(separator: "\n").first.map(String.init) ?? ""
            if window.isEmpty { usleep(30_000) }
        }
        #expect(!window.isEmpty, "no menu opened: \(fixture.session.log.suffix(800))")
        try Self.launch(fixture, ["alpha"])
        let menus = try fixture.tool("xdotool", "search", "--onlyvisible", "--classname", "^cliptab-menu$")
        #expect(menus.split(separator: "\n").count == 1)
        try fixture.tool("xdotool", "key", "Return")
        var copied = false
        let copyDeadline = MonotonicClock.milliseconds() + 15_000
        while !copied && MonotonicClock.milliseconds() < copyDeadline {
            copied = (try? fixture.clipboard()) == "git status"
            if !copied { usleep(30_000) }
        }
        #expect(copied, "the clipboard holds \((try? fixture.clipboard()) ?? "nothing")")
    }
}
