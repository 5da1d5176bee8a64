// SPDX-License-Identifier: MIT
import CliptabCore
import CliptabDaemon
import Glibc
import Posix
import Testing

/// `LaunchSearch`'s launcher on a virtual clock, with `cat` standing in for the menu (it
/// ends when its input is closed, as a menu ends when the user presses Escape).
@Suite
struct MenuLauncherTests {
    /// The virtual clock and the menus started.
    final class Desk {
        var now: UInt64 = 10_000
        var menus: [ChildProcess] = []
    }

    /// Makes a launcher on `desk`'s clock whose menus are `cat` processes.
    static func launcher(_ desk: Desk) -> MenuLauncher {
        MenuLauncher(clock: { desk.now }) { _ in
            let menu = try ChildProcess.spawn("cat", [], stdin: .pipe, stdout: .null, stderr: .null)
            desk.menus.append(menu)
            return menu
        }
    }

    /// Ends `menu` and waits (a generous guard of 20 s) until the launcher's descriptor says
    /// so, as the daemon's loop would.
    static func close(_ menu: ChildProcess, seenBy launcher: MenuLauncher) throws {
        menu.closeStandardInput()
        let descriptor = try #require(launcher.pollDescriptor, "the open menu has no exit descriptor")
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&entry, 1, 20_000) == 1, "the menu's end did not wake the loop")
    }

    /// One menu at a time; after the user closed it, `LaunchSearch` is refused with
    /// `LimitExceeded` for a second from its end, and opens one again after.
    @Test func aClosedMenuIsNotOpenedAgainWithinASecond() throws {
        let desk = Desk()
        let launcher = Self.launcher(desk)
        try launcher.open(words: ["git"], table: "t")
        try launcher.open(words: ["git"], table: "t")
        #expect(desk.menus.count == 1, "a second menu opened beside the first")

        try Self.close(desk.menus[0], seenBy: launcher)
        desk.now += 5_000
        launcher.process(now: desk.now)
        #expect(launcher.pollDescriptor == nil)
        desk.now += 999
        #expect {
            try launcher.open(words: ["git"], table: "t")
        } throws: { error in
            (error as? CliptabError)?.code == .limitExceeded
                && "\(error)".contains("closed 999 ms ago")
        }
        #expect(desk.menus.count == 1, "a menu opened within a second of the last one's end")
        desk.now += 1
        try launcher.open(words: ["git"], table: "t")
        #expect(desk.menus.count == 2, "no menu opened a second after the last one's end")
        for menu in desk.menus { menu.closeStandardInput() }
    }

    /// A menu whose end the loop has not handled yet is noticed by the next call, which
    /// starts the pause then: a caller calling the moment the menu ends is refused too.
    @Test func theEndIsNoticedByTheNextCall() throws {
        let desk = Desk()
        let launcher = Self.launcher(desk)
        try launcher.open(words: [], table: nil)
        try Self.close(desk.menus[0], seenBy: launcher)
        desk.now += 10
        #expect(throws: CliptabError.self) { try launcher.open(words: [], table: nil) }
        desk.now += 1_000
        try launcher.open(words: [], table: nil)
        #expect(desk.menus.count == 2)
        for menu in desk.menus { menu.closeStandardInput() }
    }
}
