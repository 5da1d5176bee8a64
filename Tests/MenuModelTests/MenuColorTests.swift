// SPDX-License-Identifier: MIT
import MenuModel
import Testing

/// The colours of `[menu]`, read once for both popups as the man page promises: `#rrggbb` or
/// an X colour name.
@Suite struct MenuColorTests {
    @Test func hexadecimalForms() {
        #expect(MenuColor(parsing: "#102030") == MenuColor(0x102030))
        #expect(MenuColor(parsing: "#ABCDEF") == MenuColor(0xabcdef))
        // X's short and long forms keep each component's leading digits.
        #expect(MenuColor(parsing: "#fa0") == MenuColor(0xf0a000))
        #expect(MenuColor(parsing: "#ffff80000000") == MenuColor(0xff8000))
        #expect(MenuColor(parsing: "#fff800000") == MenuColor(0xff8000))
        #expect(MenuColor(parsing: "rgb:f/80/0") == MenuColor(0xff8000))
        #expect(MenuColor(parsing: "rgb:ffff/0/0") == MenuColor(0xff0000))
    }

    @Test func xColourNames() {
        #expect(MenuColor(parsing: "navy") == MenuColor(0x000080))
        #expect(MenuColor(parsing: "Navy Blue") == MenuColor(0x000080))
        #expect(MenuColor(parsing: "LightSteelBlue") == MenuColor(0xb0c4de))
        #expect(MenuColor(parsing: "light steel blue") == MenuColor(0xb0c4de))
        #expect(MenuColor(parsing: "DarkOliveGreen3") == MenuColor(0xa2cd5a))
        // The gray ramp, rounded as rgb.txt has it.
        #expect(MenuColor(parsing: "gray50") == MenuColor(0x7f7f7f))
        #expect(MenuColor(parsing: "grey51") == MenuColor(0x828282))
        #expect(MenuColor(parsing: "gray100") == MenuColor(0xffffff))
        #expect(MenuColor(parsing: "gray") == MenuColor(0xbebebe))
    }

    @Test func notColours() {
        for text in [
            "", "#", "#12345", "#1234567", "#ggghhh", "nosuch", "gray101", "gray0050", "rgb:1/2", "rgb:/1/2",
        ] {
            #expect(MenuColor(parsing: text) == nil, "\(text)")
        }
        #expect(MenuColor(0x0a0b0c).hexadecimal == "#0a0b0c")
    }

    /// A colour is read when the settings are: a name is taken, a bad value named with its key.
    @Test func settingsReadColours() {
        let (settings, problems) = MenuSettings.parse(
            "[menu]\nbackground = navy\ntitle = #nothex\nselected_foreground = \"light blue\"\n",
            file: "c.conf")
        #expect(settings.background == MenuColor(0x000080))
        #expect(settings.title == MenuSettings().title)
        #expect(settings.selectedForeground == MenuColor(0xadd8e6))
        #expect(
            problems == [
                "c.conf:3: title must be #rrggbb or an X colour name (such as navy), not \"#nothex\""
            ])
    }
}
