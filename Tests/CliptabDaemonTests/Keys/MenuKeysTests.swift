// SPDX-License-Identifier: MIT
import CliptabConfig
import CliptabDaemon
import MenuModel
import Testing

/// The daemon accepts exactly the `[menu]` keys that cliptab-menu reads.
@Suite struct MenuKeysTests {
    @Test func daemonAndMenuKnowTheSameKeys() {
        #expect(DaemonConfiguration.menuKeys == MenuSettings.keys)
        #expect(DaemonConfiguration.keys.contains { $0.section == "menu" && $0.keys == MenuSettings.keys })
    }

    /// A [menu] key the popup does not know is a problem for the daemon too; its values are
    /// not the daemon's to judge.
    @Test func daemonChecksOnlyTheKeyNames() {
        let file = ConfigFile(parsing: Array("[menu]\nrows = many\ncolour = red\n".utf8), path: "c.conf")
        let parsed = ParsedConfiguration(file)
        #expect(
            parsed.problems.map(\.description) == [
                "c.conf:3: unknown key \"colour\" in [menu] (known: \(MenuSettings.keys.joined(separator: ", ")))"
            ])
        #expect(parsed.configuration == DaemonConfiguration())
    }
}
