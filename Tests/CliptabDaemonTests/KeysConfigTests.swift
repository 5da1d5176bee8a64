// SPDX-License-Identifier: MIT
import CliptabConfig
import CliptabDaemon
import Testing

/// The `[keys]` section: chords and actions read, bad lines named, lines for compositors.
struct KeysConfigTests {
    private func parse(_ text: String) -> ParsedConfiguration {
        ParsedConfiguration(ConfigFile(parsing: Array(text.utf8), path: "c.conf"))
    }

    @Test func readsKeysAndActions() {
        let parsed = parse(
            "[keys]\nsuper+alt+i = paste snippets sig\nCtrl+Shift+F5 = copy snippets @Mail:2\nAlt+M = menu\n"
                + "Super+p = pick snippets\nSuper+Alt+2 = paste snippets sig\nWin+Meta+3 = copy t id:42\n")
        #expect(parsed.problems == [])
        let keys = parsed.configuration.keys
        #expect(
            keys.map(\.keys) == [
                "Super+Alt+I", "Ctrl+Shift+F5", "Alt+M", "Super+P", "Super+Alt+2", "Super+Alt+3",
            ])
        #expect(
            keys.map(\.id) == [
                "paste-snippets-sig", "copy-snippets-_Mail_2", "menu", "pick-snippets",
                "paste-snippets-sig-2",
                "copy-t-id_42",
            ])
        #expect(
            keys[1].action
                == .copy(
                    table: "snippets", row: .path(section: 0, row: 2, header: "Mail"), address: "@Mail:2"))
        #expect(keys[5].action == .copy(table: "t", row: .id(42), address: "id:42"))
        #expect(keys.map(\.line) == [2, 3, 4, 5, 6, 7])
    }

    @Test func badLinesNamed() {
        let problems = parse(
            "[keys]\nSuper+Alt+I = paste snippets sig\nI = copy t 0:0\nSuper+Nope = copy t 0:0\nAlt+X = launch t\n"
                + "Alt+Y = copy t 1:x\nsuper+alt+i = copy t 0:0\nSuper+Alt+Z = copy a/b 0:0\nAlt+Q = paste t\n"
        ).problems.map(\.description)
        #expect(problems.count == 7, "\(problems)")
        #expect(problems[0].hasPrefix("c.conf:3: I: \"I\" has no modifier"))
        #expect(problems[1].hasPrefix("c.conf:4: Super+Nope: unknown key \"Nope\""))
        #expect(problems[2].hasPrefix("c.conf:5: Alt+X: expected copy TABLE ROW"))
        #expect(problems[3].hasPrefix("c.conf:6: Alt+Y: \"1:x\" is not a row"))
        #expect(problems[4] == "c.conf:7: Super+Alt+I is already bound on line 2; keep one")
        #expect(
            problems[5].hasPrefix("c.conf:8: super+alt+z: table \"a/b\"")
                || problems[5].hasPrefix("c.conf:8: Super+Alt+Z: table \"a/b\""))
        #expect(problems[6].hasPrefix("c.conf:9: Alt+Q: paste takes a table and a row"))
    }

    @Test func compositorLines() throws {
        let paste = try KeyBinding(keys: "Super+Alt+I", action: "paste snippets #4", line: 1)
        #expect(
            CompositorLines.line(for: paste, compositor: "niri")
                == "Mod+Alt+i { spawn \"cliptab\" \"copy\" \"--paste\" \"snippets\" \"#4\"; }")
        #expect(
            CompositorLines.line(for: paste, compositor: "labwc")
                == "<keybind key=\"W-A-i\"><action name=\"Execute\" command=\"cliptab copy --paste snippets '#4'\"/></keybind>"
        )
        #expect(
            CompositorLines.line(for: paste, compositor: "hyprland")
                == "bindr = SUPER ALT, i, exec, cliptab copy --paste snippets '#4'")
        #expect(CompositorLines.line(for: paste, compositor: "weston") == nil)
    }
}
