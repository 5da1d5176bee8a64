// SPDX-License-Identifier: MIT
import Posix
import TestSupport
import Testing

/// The menu's `sequence` entry in a row's actions, where the table allows `copy`.
@Suite(.serialized)
struct MenuSequenceTests {
    /// Tab on a row, then `sequence` (right after `copy`): the rows from it to its section's
    /// end become the sequence.
    @Test func sequenceFromTheActions() throws {
        let fixture = try MenuFixture()
        try fixture.makeSampleTable()
        let (menu, _) = try fixture.openMenu("t")
        try fixture.tool("xdotool", "key", "Down", "Down", "Tab", "Down", "Return")
        #expect(fixture.exitCode(of: menu) == 0)
        #expect(try fixture.cliptab("sequence").outputText == "1 of 3: t @Shell\n")
        #expect(try fixture.cliptab("sequence", "--stop").exitCode == 0)
    }
}
