// SPDX-License-Identifier: MIT
import Glibc
import Posix
import TestSupport
import Testing

/// The popup menu with row names served by the daemon (`GetRowNames`): typing a row's name
/// finds the row, whose text does not contain it.
@Suite(.serialized)
struct MenuRowNameTests {
    @Test func typingARowNameFindsTheRow() throws {
        let fixture = try MenuFixture()
        try fixture.makeSampleTable()
        #expect(try fixture.cliptab("name", "t", "@Shell:1", "gs").exitCode == 0)
        let (menu, _) = try fixture.openMenu("t")
        try fixture.tool("xdotool", "type", "gs")
        try fixture.tool("xdotool", "key", "Tab")
        // The actions come in the daemon's order, copy first.
        try fixture.tool("xdotool", "key", "Return")
        #expect(fixture.exitCode(of: menu) == 0)
        #expect(try fixture.clipboard() == "git status")
    }
}
