// SPDX-License-Identifier: MIT
import DBus
import Posix
import TestSupport
import Testing

/// A template row chosen in the popup asks its `{input:…}` values in the input line.
///
/// Each label is the prompt and its default is typed in; then the row is copied filled in.
/// Escape there closes and copies nothing. Driven by xdotool on Xvfb.
@Suite(.serialized)
struct MenuTemplateTests {
    @Test func inputsAreAskedInTheInputLine() throws {
        let fixture = try MenuFixture()
        #expect(try fixture.cliptab("create", "t").exitCode == 0)
        try fixture.cliptab("add", "t", "hi {input:Name=you} on {input:Day}")
        _ = try fixture.session.call("SetTemplates", [.string("t"), .boolean(true)])
        try fixture.cliptab("add", "t", "plain")
        try fixture.cliptab("copy", "t", "0:1")

        let (menu, _) = try fixture.openMenu("t")
        try fixture.tool(
            "xdotool", "key", "Return", "BackSpace", "BackSpace", "BackSpace", "a", "n", "n", "Return", "m",
            "o",
            "n", "Return")
        #expect(fixture.exitCode(of: menu) == 0)
        #expect(try fixture.clipboard() == "hi ann on mon")

        // The default is taken as it stands; Escape at the second input copies nothing.
        try fixture.cliptab("copy", "t", "0:1")
        let (again, _) = try fixture.openMenu("t")
        try fixture.tool("xdotool", "key", "Return", "Return", "Escape")
        #expect(fixture.exitCode(of: again) == 1)
        #expect(try fixture.clipboard() == "plain")
        #expect(try fixture.grabIsFree())
    }
}
