// SPDX-License-Identifier: MIT
import CliptabConfig
import CliptabCore
import CliptabDaemon
import CliptabStore
import TestSupport
import Testing

/// The INI parser and the typed configuration read from it, without a daemon.
struct ConfigFileTests {
    func parse(_ text: String, home: String? = "/home/u") -> ParsedConfiguration {
        ParsedConfiguration(
            ConfigFile(parsing: Array(text.utf8), path: "c.conf"),
            environment: { $0 == "HOME" ? home : nil })
    }

    func problems(_ text: String) -> [String] { parse(text).problems.map(\.description) }

    /// Sections, subsections, comments, blanks, quotes and CRLF line ends.
    @Test func syntax() {
        let text = """
            # a comment
              ; another
            [clipboard]   # after a header
            \tsecret_clear_ms\t=  5000\u{20}\u{20}
            [table "pass \\"words\\" \\\\ x"]
            secret=yes\r
            [store]
            data_dir = "  /spaced dir # not a comment  "

            """
        let file = ConfigFile(parsing: Array(text.utf8), path: "c.conf")
        #expect(file.problems == [])
        #expect(
            file.sections == [
                ConfigSectionHeader(name: "clipboard", subsection: nil, line: 3),
                ConfigSectionHeader(name: "table", subsection: "pass \"words\" \\ x", line: 5),
                ConfigSectionHeader(name: "store", subsection: nil, line: 7),
            ])
        #expect(
            file.entries == [
                ConfigEntry(
                    section: "clipboard", subsection: nil, key: "secret_clear_ms", value: "5000", line: 4),
                ConfigEntry(
                    section: "table", subsection: "pass \"words\" \\ x", key: "secret", value: "yes", line: 6),
                ConfigEntry(
                    section: "store", subsection: nil, key: "data_dir",
                    value: "  /spaced dir # not a comment  ",
                    line: 8),
            ])
    }

    /// A comment after a quoted value (`#` or `;`, with or without blanks before it) is
    /// dropped, and the value is what the quotes hold; the typed configuration takes it.
    @Test func commentAfterAQuotedValue() {
        let text = """
            [store]
            data_dir = "/spaced dir # kept" # the store lives here
            [clipboard]
            selections = "clipboard";primary was too much
            [log]
            level = "debug"\t# while testing

            """
        let file = ConfigFile(parsing: Array(text.utf8), path: "c.conf")
        #expect(file.problems == [])
        #expect(file.entries.map(\.value) == ["/spaced dir # kept", "clipboard", "debug"])
        let parsed = parse(text)
        #expect(parsed.problems == [])
        #expect(parsed.configuration.dataDirectory == "/spaced dir # kept")
        #expect(parsed.configuration.logLevel == .debug)
    }

    /// Each syntax error names its line and what was expected.
    @Test func syntaxErrors() {
        let text = """
            key = before any section
            [clipboard
            [bad name]
            [table "unclosed]
            [log] trailing
            [clipboard]
            just words
            = no key
            bad key = 1
            selections = "open
            selections = "a" b
            selections = clipboard
            selections = clipboard primary
            """
        #expect(
            problems(text) == [
                "c.conf:1: \"key\" is outside any section; put it under a header such as [clipboard]",
                "c.conf:2: expected \"]\" to close the section header, as in [clipboard] or [clipboard \"name\"]",
                "c.conf:3: expected \"]\" to close the section header, as in [bad] or [bad \"name\"]",
                "c.conf:4: a quoted text is not closed with \"",
                "c.conf:5: unexpected \"trailing\" after the section header",
                "c.conf:7: expected \"key = value\", a \"[section]\" header or a \"#\" comment, found \"just words\"",
                "c.conf:8: a key name is missing before \"=\"",
                "c.conf:9: \"bad key\" is not a key name (letters, digits, \"_\", \"-\" and \"+\" only)",
                "c.conf:10: selections: a quoted text is not closed with \"",
                "c.conf:11: selections: unexpected \"b\" after the quoted value",
                "c.conf:13: \"selections\" is already set on line 12 of this section; keep one",
            ])
    }

    /// Bytes that are not UTF-8, and NUL, are reported by line.
    @Test func encodingErrors() {
        var bytes = Array("[log]\nlevel = info\n".utf8)
        bytes += [0x6B, 0x20, 0x3D, 0x20, 0xFF, 0x0A]
        bytes += Array("k2 = a".utf8) + [0] + [0x0A]
        let file = ConfigFile(parsing: bytes, path: "c.conf")
        #expect(
            file.problems.map(\.description) == [
                "c.conf:3: this line is not valid UTF-8; save the file as UTF-8",
                "c.conf:4: this line holds a NUL character, which no setting can use",
            ])
    }

    /// An empty file is the defaults, and the defaults are the contract's.
    @Test func emptyFileIsTheDefaults() {
        let parsed = parse("")
        #expect(parsed.problems == [])
        #expect(parsed.configuration == DaemonConfiguration())
        let defaults = DaemonConfiguration()
        #expect(defaults.limits == Limits.defaults)
        #expect(!defaults.ownPrimary && defaults.durability == .full && defaults.logLevel == .info)
        #expect(defaults.secretClearMilliseconds == 30_000 && defaults.pasteTimeoutMilliseconds == 2_000)
        #expect(defaults.dataDirectory == nil && defaults.tables.isEmpty)
    }

    /// Every key, set away from its default, reaches the typed configuration.
    @Test func everyKey() {
        let parsed = parse(
            """
            [clipboard]
            selections = primary, clipboard
            secret_clear_ms = 1500
            paste_timeout_ms = 60000
            [store]
            data_dir = ~/tables
            durability = normal
            [limits]
            cell_bytes = 1024
            rows_per_table = 7
            sections_per_table = 3
            [log]
            level = debug
            [table "passwords"]
            actions = copy
            secret = true
            [table "snippets"]
            actions = copy, paste insert
            [table "frozen"]
            actions = none
            secret = off
            [table "open"]
            actions = all
            """)
        #expect(parsed.problems == [])
        var expected = DaemonConfiguration()
        expected.ownPrimary = true
        expected.secretClearMilliseconds = 1500
        expected.pasteTimeoutMilliseconds = 60_000
        expected.dataDirectory = "/home/u/tables"
        expected.durability = .normal
        expected.limits = Limits(maxCellBytes: 1024, maxRowsPerTable: 7, maxSectionsPerTable: 3)
        expected.logLevel = .debug
        expected.tables = [
            TableSettings(name: "passwords", actions: ActionSet(.copy), isSecret: true),
            TableSettings(name: "snippets", actions: ActionSet([.copy, .paste, .insert])),
            TableSettings(name: "frozen", actions: [], isSecret: false),
            TableSettings(name: "open", actions: .all),
        ]
        #expect(parsed.configuration == expected)
        #expect(parsed.lines["store.data_dir"] == 6 && parsed.lines["store.durability"] == 7)
    }

    /// Unknown sections and keys, and values that do not fit, name the file, the line and
    /// what was expected.
    @Test func badValues() {
        let text = """
            [clipboard]
            selections = primary
            secret_clear_ms = 30 s
            paste_timeout_ms = 60001
            colour = blue
            [store]
            data_dir = relative/path
            durability = fast
            [limits]
            cell_bytes = 0
            rows_per_table = -5
            sections_per_table = 99999999999999999999
            [log]
            level = verbose
            [logging]
            level = info
            [table "a/b"]
            secret = true
            [table "ok"]
            actions = copy launch
            secret = maybe
            colour = red
            [table]
            [log "x"]
            """
        #expect(
            problems(text) == [
                "c.conf:2: selections: expected \"clipboard\" or \"clipboard primary\": a copy always goes to the clipboard",
                "c.conf:3: secret_clear_ms: expected a whole number of milliseconds from 1 to 86400000, found \"30 s\"",
                "c.conf:4: paste_timeout_ms: expected a whole number of milliseconds from 1 to 60000, found 60001",
                "c.conf:5: unknown key \"colour\" in [clipboard] (known: backend, selections, secret_clear_ms, paste_timeout_ms)",
                "c.conf:7: data_dir: expected an absolute path (or one starting with \"~/\"), or nothing for the default, found \"relative/path\"",
                "c.conf:8: durability: expected full or normal, found \"fast\"",
                "c.conf:10: cell_bytes: expected a whole number of bytes from 1 to 134217728, found 0",
                "c.conf:11: rows_per_table: expected a whole number of rows from 1 to 2147483647, found \"-5\"",
                "c.conf:12: sections_per_table: expected a whole number of sections from 1 to 2147483647, found 99999999999999999999",
                "c.conf:14: level: expected one of error, warning, info, debug, found \"verbose\"",
                "c.conf:15: unknown section [logging] (known: [clipboard], [store], [limits], [log], [paste_to_focus], [cli], [search], [sequence], [tables], [menu], [keys], [table \"NAME\"])",
                "c.conf:17: [table \"a/b\"]: table name \"a/b\" contains \"/\", which is not allowed",
                "c.conf:20: actions: expected action names from \"copy cut paste delete move edit insert\", or all, or none, found \"launch\"",
                "c.conf:21: secret: expected true or false, found \"maybe\"",
                "c.conf:22: unknown key \"colour\" in [table \"ok\"] (known: actions, secret, templates)",
                "c.conf:23: a table section names its table: [table \"NAME\"]",
                "c.conf:24: [log] takes no name; write [log], not [log \"x\"]",
            ])
        #expect(
            problems("[clipboard]\nselections = clipboard, secondary").first?.contains("\"secondary\"")
                == true)
        #expect(problems("[table \"t\"]\nactions =").first?.contains("found nothing") == true)
        #expect(parse("[store]\ndata_dir = ~/x", home: nil).problems.first?.message.contains("HOME") == true)
    }

    /// `[search]`: its keys reach the configuration, and values that do not fit are named.
    @Test func searchKeys() {
        let parsed = parse("[search]\nactivate = copy\nmax_results = 1000\n")
        #expect(parsed.problems == [])
        var expected = DaemonConfiguration()
        expected.search.activate = .copy
        expected.search.maxResults = 1000
        #expect(parsed.configuration == expected)
        #expect(DaemonConfiguration().search == SearchSettings())
        #expect(SearchSettings().activate == .paste && SearchSettings().maxResults == 20)
        #expect(
            problems("[search]\nactivate = type\nmax_results = 0\nlimit = 3\n") == [
                "c.conf:2: activate: expected paste or copy, found \"type\"",
                "c.conf:3: max_results: expected a whole number of results from 1 to 1000, found 0",
                "c.conf:4: unknown key \"limit\" in [search] (known: activate, max_results)",
            ])
        #expect(
            problems("[search]\nmax_results = 1001\n") == [
                "c.conf:2: max_results: expected a whole number of results from 1 to 1000, found 1001"
            ])
    }

    /// Two sections for one table are one table; a key set in both is reported.
    @Test func repeatedTableSections() {
        let parsed = parse("[table \"t\"]\nactions = copy\n[table \"t\"]\nsecret = true\n")
        #expect(parsed.problems == [])
        #expect(
            parsed.configuration.tables == [
                TableSettings(name: "t", actions: ActionSet(.copy), isSecret: true)
            ])
        #expect(
            problems("[table \"t\"]\nsecret = true\n[table \"t\"]\nsecret = false\n") == [
                "c.conf:4: \"secret\" is already set on line 2 of this section; keep one"
            ])
    }

    /// The default file is under `XDG_CONFIG_HOME` when it is absolute, else under `HOME`.
    @Test func defaultLocation() {
        let both = ["XDG_CONFIG_HOME": "/x/config", "HOME": "/home/u"]
        #expect(ConfigLocation.defaultPath(environment: { both[$0] }) == "/x/config/cliptab/cliptab.conf")
        let relative = ["XDG_CONFIG_HOME": "config", "HOME": "/home/u"]
        #expect(
            ConfigLocation.defaultPath(environment: { relative[$0] })
                == "/home/u/.config/cliptab/cliptab.conf")
        #expect(ConfigLocation.defaultPath(environment: { _ in nil }) == nil)
    }

    /// The shipped example sets every key, each to its default, without a problem; its
    /// commented table example works once uncommented.
    @Test func shippedExample() throws {
        let text = try Repository.text("config/cliptab.conf")
        let parsed = parse(text)
        #expect(parsed.problems == [])
        #expect(parsed.configuration == DaemonConfiguration())
        let file = ConfigFile(parsing: Array(text.utf8), path: "cliptab.conf")
        for (section, keys) in DaemonConfiguration.keys where section != "table" {
            let present = file.entries.filter { $0.section == section }.map(\.key)
            #expect(present == keys, "[\(section)] of the example")
        }
        let uncommented = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            for prefix in ["# [table", "# actions", "# secret", "# templates"] where line.hasPrefix(prefix) {
                return String(line.dropFirst(2))
            }
            return String(line)
        }.joined(separator: "\n")
        let example = parse(uncommented)
        #expect(example.problems == [])
        #expect(
            example.configuration.tables == [
                TableSettings(
                    name: "passwords", actions: ActionSet(.copy), isSecret: true, isTemplates: false)
            ])
        #expect(
            DaemonConfiguration.keys.last?.keys.allSatisfy { key in
                uncommented.contains("\n\(key) = ")
            } == true)
    }

    /// Command-line settings win over the file.
    @Test func overrides() {
        var overrides = ConfigurationOverrides()
        overrides.dataDirectory = "/cmd"
        overrides.durability = .normal
        overrides.ownPrimary = true
        overrides.secretClearMilliseconds = 5
        overrides.pasteTimeoutMilliseconds = 6
        var file = DaemonConfiguration()
        file.dataDirectory = "/file"
        file.limits.maxCellBytes = 10
        let result = overrides.applied(to: file)
        #expect(result.dataDirectory == "/cmd" && result.durability == .normal && result.ownPrimary)
        #expect(result.secretClearMilliseconds == 5 && result.pasteTimeoutMilliseconds == 6)
        #expect(result.limits.maxCellBytes == 10)
        #expect(ConfigurationOverrides().applied(to: file) == file)
    }
}
