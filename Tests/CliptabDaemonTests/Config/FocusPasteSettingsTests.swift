// SPDX-License-Identifier: MIT
import CliptabConfig
import CliptabDaemon
import KeyChords
import Testing

/// The `[paste_to_focus]` section: keys, chords and the terminal list.
struct FocusPasteSettingsTests {
    private func parse(_ text: String) -> ParsedConfiguration {
        ParsedConfiguration(ConfigFile(parsing: Array(text.utf8), path: "cliptab.conf"))
    }

    @Test func everyKey() throws {
        let parsed = parse(
            """
            [paste_to_focus]
            timeout_ms = 250
            settle_ms = 1
            restore = no
            key = Shift+Insert
            terminal_key = ctrl + shift + V
            terminals = myterm, Other:ctrl+alt+v
            repress_modifiers = yes
            portal_idle_ms = 1500
            """)
        #expect(parsed.problems == [])
        let settings = parsed.configuration.focusPaste
        #expect(settings.timeoutMilliseconds == 250 && settings.settleMilliseconds == 1)
        #expect(!settings.restore && settings.repressModifiers)
        #expect(
            settings.portalIdleMilliseconds == 1500 && FocusPasteSettings().portalIdleMilliseconds == 30_000)
        #expect(settings.key.description == "shift+Insert")
        #expect(settings.terminalKey.description == "ctrl+shift+v")
        #expect(settings.terminals.map(\.name) == ["myterm", "Other"])
        #expect(settings.chord(instanceName: "MYTERM", className: "x").description == "ctrl+shift+v")
        #expect(settings.chord(instanceName: "x", className: "other").description == "ctrl+alt+v")
        #expect(settings.chord(instanceName: "firefox", className: "Firefox").description == "shift+Insert")
    }

    @Test func shippedTerminals() {
        let settings = FocusPasteSettings()
        #expect(settings.chord(instanceName: "st-256color", className: "st-256color") == settings.terminalKey)
        #expect(
            settings.chord(instanceName: "gnome-terminal-server", className: "Gnome-terminal")
                == settings.terminalKey)
        #expect(settings.chord(instanceName: "urxvt", className: "URxvt").description == "ctrl+alt+v")
        #expect(settings.chord(instanceName: "gedit", className: "Gedit") == settings.key)
        // A name that only contains a terminal's name is not one.
        #expect(settings.chord(instanceName: "firstclass", className: "Test") == settings.key)
    }

    @Test(arguments: [
        ("key = ctrl+", "expected modifiers and a key"), ("key = hyper+v", "unknown modifier \"hyper\""),
        ("key = ctrl+NoSuchKey", "unknown key \"NoSuchKey\""), ("timeout_ms = 0", "from 1 to 60000"),
        ("settle_ms = 5001", "from 1 to 5000"), ("restore = maybe", "expected true or false"),
        ("portal_idle_ms = 0", "from 1 to 86400000"),
        ("portal_idle_ms = 30s", "whole number of milliseconds"),
        ("terminals = :ctrl+v", "expected WM_CLASS names"), ("colour = red", "unknown key \"colour\""),
    ])
    func problems(line: String, message: String) {
        let parsed = parse("[paste_to_focus]\n\(line)\n")
        #expect(parsed.problems.count == 1)
        #expect(parsed.problems.first?.message.contains(message) == true, "\(parsed.problems)")
        #expect(parsed.problems.first?.line == 2)
    }
}
