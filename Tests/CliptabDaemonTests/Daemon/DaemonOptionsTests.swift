// SPDX-License-Identifier: MIT
import CliptabConfig
import CliptabCore
import CliptabDaemon
import CliptabStore
import DBus
import Testing

/// The daemon's command line, parsed without running anything: every option, the problems,
/// and the same validator as the configuration file for each option that sets a key.
struct DaemonOptionsTests {
    let home: (String) -> String? = { $0 == "HOME" ? "/home/u" : nil }

    func parse(_ arguments: [String]) -> Result<DaemonOptions, UsageProblem> {
        DaemonOptions.parse(arguments, environment: home)
    }

    func problem(_ arguments: [String]) -> UsageProblem? {
        if case .failure(let problem) = parse(arguments) { return problem }
        return nil
    }

    /// Every option lands in its field; no option is serving with the defaults.
    @Test func everyOption() throws {
        #expect(try parse([]).get() == DaemonOptions())
        let options = try parse([
            "--config", "/c.conf", "--replace", "--data-dir", "~/d", "--durability", "normal", "--primary",
            "--secret-clear-ms", "700", "--paste-timeout-ms", "60000",
        ]).get()
        var expected = DaemonOptions()
        expected.configPath = "/c.conf"
        expected.replace = true
        expected.overrides.dataDirectory = "/home/u/d"
        expected.overrides.durability = .normal
        expected.overrides.ownPrimary = true
        expected.overrides.secretClearMilliseconds = 700
        expected.overrides.pasteTimeoutMilliseconds = 60000
        #expect(options == expected)
        #expect(try parse(["--check-config"]).get().mode == .checkConfig)
        // An empty --data-dir is the default place, as `data_dir =` is.
        #expect(try parse(["--data-dir", ""]).get().overrides.dataDirectory == nil)
    }

    /// `--help`, `--version` and `--print-introspection` end the parsing where they stand.
    @Test func printingModesStopTheParsing() throws {
        #expect(try parse(["--help", "--bogus"]).get().mode == .help)
        #expect(try parse(["-h"]).get().mode == .help)
        #expect(try parse(["--check-config", "--version"]).get().mode == .version)
        #expect(try parse(["--print-introspection", "--paste-timeout-ms"]).get().mode == .printIntrospection)
        #expect(
            problem(["--bogus", "--help"]) == UsageProblem("unknown option \"--bogus\"", showsUsage: true))
    }

    /// A missing value, an unknown option, and the usage text after the latter only.
    @Test func problems() {
        #expect(problem(["--config"]) == UsageProblem("option --config needs a value"))
        #expect(problem(["--primary", "--durability"]) == UsageProblem("option --durability needs a value"))
        let unknown = problem(["stray"])
        #expect(unknown?.description == "unknown option \"stray\"\n\(DaemonOptions.usage)")
        #expect(
            problem(["--durability", "fast"])
                == UsageProblem("--durability: expected full or normal, found \"fast\""))
    }

    /// The numeric options are refused exactly where the file's keys are, in the same words.
    @Test func sameValidatorAsTheFile() {
        let cases: [(option: String, key: String, values: [String])] = [
            ("--paste-timeout-ms", "paste_timeout_ms", ["0", "60001", "-1", "1.5", "", "soon"]),
            ("--secret-clear-ms", "secret_clear_ms", ["0", "86400001", "x"]),
            ("--durability", "durability", ["Full", ""]),
            ("--data-dir", "data_dir", ["relative/dir", "~other"]),
        ]
        for (option, key, values) in cases {
            let section = ConfigKey(rawValue: key)?.section ?? "?"
            for value in values {
                let file = ConfigFile(parsing: Array("[\(section)]\n\(key) = \"\(value)\"\n".utf8), path: "f")
                let parsed = ParsedConfiguration(file, environment: home)
                let fileMessage = parsed.problems.first?.message ?? "accepted"
                let commandLine = problem([option, value])?.message ?? "accepted"
                #expect(fileMessage.hasPrefix("\(key): "), "\(key) = \(value)")
                #expect(
                    commandLine == "\(option): \(fileMessage.dropFirst(key.count + 2))", "\(option) \(value)")
            }
        }
        // The range's ends are accepted by both.
        #expect((try? parse(["--paste-timeout-ms", "1"]).get()) != nil)
        #expect((try? parse(["--secret-clear-ms", "86400000"]).get()) != nil)
    }

    /// Every key has its own case: the listed sections are exactly the keys' sections, in
    /// order (with cliptab-menu's `[menu]` before the tables), and only `data_dir` and
    /// `durability` wait for a restart.
    @Test func everyKeyHasACase() {
        let listed = DaemonConfiguration.keys.flatMap { section in section.keys.map { (section.section, $0) }
        }
        let expected =
            ConfigKey.allCases.map { ($0.section, $0.rawValue) }
            + DaemonConfiguration.menuKeys.map { ("menu", $0) }
            + TableKey.allCases.map { ("table", $0.rawValue) }
        #expect(listed.map(\.0) == expected.map(\.0) && listed.map(\.1) == expected.map(\.1))
        #expect(DaemonConfiguration.restartKeys == ["backend", "data_dir", "durability", "dir"])
        for key in ConfigKey.allCases where key.range != nil {
            #expect(throws: ConfigValueError.self) { try key.number("0") }
        }
    }
}
