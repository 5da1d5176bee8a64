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

    /// `sequence` and `fill` with their words, normalised; bad words named.
    @Test func sequenceAndFillActions() throws {
        let parsed = parse(
            "[keys]\nSuper+Alt+S = sequence snippets addr\nSuper+Alt+F = fill snippets @Form:0  then=enter count=3\n"
                + "Super+Alt+G = fill snippets addr then=tab\nSuper+Alt+Q = sequence t 2 count=4\n")
        #expect(parsed.problems == [])
        let keys = parsed.configuration.keys
        #expect(
            keys.map(\.id) == [
                "sequence-snippets-addr", "fill-snippets-_Form_0-count_3-then_enter", "fill-snippets-addr",
                "sequence-t-2-count_4",
            ])
        #expect(keys[0].action == .sequence(table: "snippets", row: .name("addr"), address: "addr", count: 0))
        #expect(
            keys[1].action
                == .fill(
                    table: "snippets", row: .path(section: 0, row: 0, header: "Form"), address: "@Form:0",
                    count: 3, then: .enter))
        #expect(keys.map(\.action.runsOnRelease) == [false, true, true, false])
        #expect(keys[1].action.text == "fill snippets @Form:0 count=3 then=enter")
        #expect(
            keys.map(\.action.commandArguments) == [
                ["copy", "-q", "--sequence", "snippets", "addr"],
                ["fill", "snippets", "@Form:0", "--count", "3", "--then", "enter"],
                ["fill", "snippets", "addr"],
                ["copy", "-q", "--sequence", "t", "2", "--count", "4"],
            ])
        #expect(keys[0].action.description == "Start a sequence from addr of snippets")
        #expect(keys[1].action.description == "Fill 3 rows from @Form:0 of snippets into the focused window")

        let problems = parse(
            "[keys]\nAlt+A = fill t\nAlt+B = sequence t 0:0 then=enter\nAlt+C = fill t 0:0 count=0\n"
                + "Alt+D = fill t 0:0 then=space\nAlt+E = sequence t 0:0 count=2 count=3\nAlt+F = dance t\n"
        ).problems.map(\.description)
        #expect(problems.count == 6, "\(problems)")
        #expect(
            problems[0].hasPrefix("c.conf:2: Alt+A: fill takes a table and a row (fill TABLE ROW [count=N]"))
        #expect(problems[1].hasPrefix("c.conf:3: Alt+B: sequence takes a table, a row and then [count=N]"))
        #expect(problems[2].hasPrefix("c.conf:4: Alt+C: \"count=0\": count takes a number of rows from 1"))
        #expect(problems[3].hasPrefix("c.conf:5: Alt+D: \"then=space\": then takes tab, enter or none"))
        #expect(problems[4].contains("found \"count=3\""))
        #expect(
            problems[5].contains(
                "sequence TABLE ROW [count=N], fill TABLE ROW [count=N] [then=tab|enter|none]"))

        let fill = try KeyBinding(keys: "Super+Alt+F", action: "fill t 0:0 count=2", line: 1)
        #expect(
            CompositorLines.line(for: fill, compositor: "hyprland")
                == "bindr = SUPER ALT, f, exec, cliptab fill t 0:0 --count 2")
        let sequence = try KeyBinding(keys: "Super+Alt+S", action: "sequence t 0:0", line: 1)
        #expect(
            CompositorLines.line(for: sequence, compositor: "hyprland")
                == "bind = SUPER ALT, s, exec, cliptab copy -q --sequence t 0:0")
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
