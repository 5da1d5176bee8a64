// SPDX-License-Identifier: MIT
import CliptabContract
import DBus
import DaemonTestSupport
import Foundation
import Glibc
import Posix
import TestSupport
import Testing

/// The built daemon reading its configuration file: at the start, on `Reload` and on
/// SIGHUP.
@Suite(.serialized)
struct ConfigDaemonTests {
    /// The file at `~/.config/cliptab/cliptab.conf` sets up tables and limits at the start.
    @Test func tablesAndLimitsAtStart() throws {
        let daemon = try DaemonProcess(
            config: """
                [limits]
                cell_bytes = 8
                rows_per_table = 2
                sections_per_table = 2
                [table "passwords"]
                actions = copy insert
                secret = true
                [table "notes"]
                """)
        #expect(try daemon.tables() == ["notes", "passwords"])
        #expect(try stringList(daemon.call("GetAllowedActions", [s("passwords")])) == ["copy", "insert"])
        #expect(
            daemon.errorName("DeleteRow", [s("passwords"), i(0), i(0)]) == CliptabBus.errorPrefix
                + "NotPermitted")
        let limit = CliptabBus.errorPrefix + "LimitExceeded"
        #expect(daemon.errorName("InsertRow", [s("notes"), i(0), i(-1), s("123456789")]) == limit)
        try daemon.call("InsertRow", [s("notes"), i(0), i(-1), s("12345678")])
        try daemon.call("InsertRow", [s("notes"), i(0), i(-1), s("two")])
        #expect(daemon.errorName("InsertRow", [s("notes"), i(0), i(-1), s("three")]) == limit)
        try daemon.call("InsertSection", [s("notes"), i(-1), s(""), s("")])
        #expect(daemon.errorName("InsertSection", [s("notes"), i(-1), s(""), s("")]) == limit)
    }

    /// A bad file stops the daemon at the start with exit status 78 and one line per
    /// problem naming the file, the line and what was expected.
    @Test func badFileStopsTheStart() throws {
        let home = try TemporaryDirectory(prefix: "cliptabd-config")
        let path = home.appending("bad.conf")
        try writeFile(path, "[clipboard]\nsecret_clear_ms = soon\n[colours]\n")
        let environment = ["HOME": home.path, "PATH": String(cString: getenv("PATH"))]
        let result = try runDaemon(["--config", path], environment: environment)
        #expect(result.termination == .exited(78))
        #expect(
            result.errorText.contains(
                "cliptabd: \(path):2: secret_clear_ms: expected a whole number of milliseconds from 1 to 86400000, found \"soon\"\n"
            ))
        #expect(result.errorText.contains("cliptabd: \(path):3: unknown section [colours]"))
        // The same file at the default place stops it too; a missing --config file as well.
        try writeFile(home.appending(".config/cliptab/cliptab.conf"), "[log]\nlevel = chatty\n")
        let atDefault = try runDaemon([], environment: environment)
        #expect(atDefault.termination == .exited(78))
        #expect(atDefault.errorText.contains(".config/cliptab/cliptab.conf:2: level: expected one of"))
        let missing = try runDaemon(["--config", home.appending("none.conf")], environment: environment)
        #expect(missing.termination == .exited(78))
        #expect(missing.errorText.contains("none.conf: cannot read it: No such file or directory"))
        // --check-config says the same without starting, and accepts a good file.
        let check = try runDaemon(["--config", path, "--check-config"], environment: environment)
        #expect(check.termination == .exited(78) && check.errorText.contains("\(path):2:"))
        try writeFile(path, "[clipboard]\nsecret_clear_ms = 10\n")
        let good = try runDaemon(["--config", path, "--check-config"], environment: environment)
        #expect(good.termination == .exited(0) && good.outputText == "\(path): ok\n")
    }

    /// A FIFO at the configuration path is refused at once as not a regular file (exit 78),
    /// where opening it for reading waited for a writer: the daemon never started.
    @Test func fifoAtTheConfigPathIsRefused() throws {
        let home = try TemporaryDirectory(prefix: "cliptabd-config")
        let path = home.appending(".config/cliptab/cliptab.conf")
        try writeFile(path, "")
        unlink(path)
        #expect(mkfifo(path, 0o600) == 0)
        let environment = ["HOME": home.path, "PATH": String(cString: getenv("PATH"))]
        for arguments in [["--check-config"], [], ["--config", path]] {
            let result = try runDaemon(arguments, environment: environment)
            #expect(!result.timedOut, "cliptabd \(arguments) waited on the FIFO")
            #expect(result.termination == .exited(78), "\(arguments): \(result.errorText)")
            #expect(result.errorText.contains("\(path): cannot read it: it is a FIFO, not a regular file"))
        }
    }

    /// `XDG_CONFIG_HOME` is where the file is looked for first, `~/.config` otherwise, and
    /// `--config` wins over both.
    @Test func fileLocations() throws {
        func prepare(_ home: TemporaryDirectory) throws {
            try writeFile(home.appending(".config/cliptab/cliptab.conf"), "[table \"from-home\"]\n")
            try writeFile(home.appending("xdg/cliptab/cliptab.conf"), "[table \"from-xdg\"]\n")
            try writeFile(home.appending("given.conf"), "[table \"given\"]\n")
        }
        let plain = try DaemonProcess(config: nil, prepare: prepare)
        #expect(try plain.tables() == ["from-home"])
        let xdg = try DaemonProcess(config: nil, environment: ["XDG_CONFIG_HOME": "@"]) { home in
            try prepare(home)
        }
        // "@" is not absolute, so it is ignored as the specification asks.
        #expect(try xdg.tables() == ["from-home"])
        let home = try TemporaryDirectory(prefix: "cliptabd-xdg")
        try writeFile(home.appending("cliptab/cliptab.conf"), "[table \"from-xdg\"]\n")
        let withXDG = try DaemonProcess(
            config: nil, environment: ["XDG_CONFIG_HOME": home.path], prepare: prepare)
        #expect(try withXDG.tables() == ["from-xdg"])
        let given = try DaemonProcess(
            config: nil, arguments: ["--config", home.appending("cliptab/cliptab.conf")])
        #expect(try given.tables() == ["from-xdg"])
    }

    /// `data_dir` (with `~/`) places the store.
    ///
    /// `durability` and `level = debug` show in the log.
    @Test func storeAndLogSettings() throws {
        let daemon = try DaemonProcess(
            config: "[store]\ndata_dir = ~/tables\ndurability = normal\n[log]\nlevel = debug\n")
        #expect(exists(daemon.home.appending("tables/cliptab.db")))
        #expect(!exists(daemon.home.appending("data/cliptab")))
        let log = daemon.log
        #expect(
            log.contains(
                "cliptabd: configuration from \(daemon.configPath): backend=auto selections=clipboard "))
        #expect(log.contains("data_dir=\(daemon.home.path)/tables durability=normal"))
        #expect(log.contains("from \(daemon.home.path)/tables/cliptab.db (durability normal)"))
    }

    /// `--data-dir` on the command line wins over `data_dir` in the file.
    @Test func commandLineWins() throws {
        let home = try TemporaryDirectory(prefix: "cliptabd-config")
        let daemon = try DaemonProcess(
            config: "[store]\ndata_dir = ~/from-file\n",
            arguments: ["--data-dir", home.appending("from-options")])
        #expect(exists(home.appending("from-options/cliptab.db")))
        #expect(!exists(daemon.home.appending("from-file")))
    }

    /// `level = warning` drops the start line but keeps a refused reload.
    @Test func quietLogLevel() throws {
        let daemon = try DaemonProcess(config: "[log]\nlevel = warning\n")
        try daemon.rewriteConfig("[log]\nlevel = warning\nbogus = 1\n")
        #expect(try daemon.reload().count == 1)
        #expect(!daemon.log.contains("serving"))
        #expect(
            daemon.log.contains(
                "cliptabd: reload of \(daemon.configPath): \(daemon.configPath):3: unknown key"))
        let chatty = try DaemonProcess(config: "[log]\nlevel = info\n")
        #expect(chatty.log.contains("cliptabd: serving io.github.cliptab.Cliptab1"))
        #expect(!chatty.log.contains("configuration from"))
    }

    /// `Reload` applies a good file at once, changes nothing for a bad one and returns its
    /// problems, and reports `data_dir` and `durability` changes as waiting for a restart.
    @Test func reloadMethod() throws {
        let daemon = try DaemonProcess(config: "[limits]\ncell_bytes = 8\n[table \"a\"]\n")
        let limit = CliptabBus.errorPrefix + "LimitExceeded"
        #expect(daemon.errorName("InsertRow", [s("a"), i(0), i(-1), s("123456789")]) == limit)

        try daemon.rewriteConfig("[limits]\ncell_bytes = 100\n[table \"b\"]\nactions = copy\n")
        #expect(try daemon.reload() == [])
        try daemon.call("InsertRow", [s("a"), i(0), i(-1), s("123456789")])
        #expect(try daemon.tables() == ["a", "b"])
        #expect(try stringList(daemon.call("GetAllowedActions", [s("b")])) == ["copy"])
        #expect(daemon.log.contains("cliptabd: reloaded \(daemon.configPath)\n"))

        try daemon.rewriteConfig(
            "[limits]\ncell_bytes = 4\n[table \"c\"]\n[table \"b\"]\nactions = all\nsize = 3\n")
        #expect(
            try daemon.reload() == [
                "\(daemon.configPath):6: unknown key \"size\" in [table \"b\"] (known: actions, secret, templates)"
            ])
        try daemon.call("InsertRow", [s("a"), i(0), i(-1), s(String(repeating: "x", count: 50))])
        #expect(try daemon.tables() == ["a", "b"])
        #expect(try stringList(daemon.call("GetAllowedActions", [s("b")])) == ["copy"])

        try daemon.rewriteConfig(
            "[store]\ndata_dir = ~/elsewhere\ndurability = normal\n[limits]\ncell_bytes = 8\n")
        let problems = try daemon.reload()
        #expect(problems.count == 2)
        #expect(
            problems.first?.hasPrefix(
                "\(daemon.configPath):2: data_dir changes take effect at the next start") == true)
        #expect(
            problems.last?.hasPrefix(
                "\(daemon.configPath):3: durability changes take effect at the next start") == true)
        #expect(daemon.errorName("InsertRow", [s("a"), i(0), i(-1), s("123456789")]) == limit)
        #expect(!exists(daemon.home.appending("elsewhere")))
    }

    /// SIGHUP reloads as `Reload` does, and a bad file leaves everything as it was.
    @Test func hangUpReloads() throws {
        let daemon = try DaemonProcess(config: "[table \"a\"]\n")
        try daemon.rewriteConfig("[table \"a\"]\n[table \"d\"]\n")
        daemon.process.signal(SIGHUP)
        #expect(try eventually { try daemon.tables() == ["a", "d"] })
        try daemon.rewriteConfig("[table \"e\"]\n[limits]\nrows_per_table = many\n")
        daemon.process.signal(SIGHUP)
        #expect(eventually { daemon.log.contains(":3: rows_per_table: expected a whole number of rows") })
        #expect(try daemon.tables() == ["a", "d"])
        #expect(daemon.process.isRunning)
    }

    /// SIGHUP and the `Reload` method take the one path: for the same files, the same
    /// problems (a key that waits for the next start, a linked file that does not parse, a
    /// bad key) are reported, in the log and in the answer, and the same settings applied.
    @Test func hangUpAndReloadMethodAgree() throws {
        let byMethod = try Self.daemonWithABrokenLinkedFile()
        let bySignal = try Self.daemonWithABrokenLinkedFile()
        let files = [
            "[store]\ndurability = normal\n[limits]\ncell_bytes = 100\n[table \"b\"]\nactions = copy\n",
            "[limits]\ncell_bytes = 4\n[table \"c\"]\nsize = 3\n",
        ]
        for file in files {
            for daemon in [byMethod, bySignal] { try daemon.rewriteConfig(file) }
            let answered = try byMethod.reload()
            let signalled = try Self.logLine(of: bySignal) { bySignal.process.signal(SIGHUP) }
            #expect(answered.count >= 2 && answered.contains { $0.contains("snippets.yaml: line 4") })
            #expect(
                Self.relative(Self.lastReloadLine(of: byMethod), byMethod)
                    == Self.relative(
                        "cliptabd: reload of \(byMethod.configPath): " + answered.joined(separator: "; "),
                        byMethod))
            #expect(
                Self.relative(signalled, bySignal)
                    == Self.relative(Self.lastReloadLine(of: byMethod), byMethod))
            #expect(try Self.settings(of: byMethod) == Self.settings(of: bySignal))
        }
    }

    /// A daemon whose folder of linked tables holds a file that does not parse.
    private static func daemonWithABrokenLinkedFile() throws -> DaemonProcess {
        try DaemonProcess(config: "[limits]\ncell_bytes = 8\n[table \"a\"]\n") { home in
            try writeFile(
                home.appending(".config/cliptab/tables/snippets.yaml"),
                "rows:\n  - one\n  - text: two\n    txt: typo\n")
        }
    }

    /// The last line the daemon logged of a reload.
    private static func lastReloadLine(of daemon: DaemonProcess) -> String {
        daemon.log.split(separator: "\n").last { $0.hasPrefix("cliptabd: reload") }.map(String.init) ?? ""
    }

    /// The line of a reload that `trigger` makes the daemon log.
    private static func logLine(of daemon: DaemonProcess, after trigger: () -> Void) throws -> String {
        let before = daemon.log.split(separator: "\n").count
        trigger()
        #expect(
            eventually(within: 30_000) {
                daemon.log.split(separator: "\n").dropFirst(before).contains {
                    $0.hasPrefix("cliptabd: reload")
                }
            })
        return lastReloadLine(of: daemon)
    }

    /// `text` with the daemon's home written `~`, so that two daemons' lines compare.
    private static func relative(_ text: String, _ daemon: DaemonProcess) -> String {
        text.replacingOccurrences(of: daemon.home.path, with: "~")
    }

    /// What a reload puts in force, as clients see it: the tables, their actions, and
    /// whether a 9-byte cell fits.
    private static func settings(of daemon: DaemonProcess) throws -> [String] {
        let tables = try daemon.tables()
        return try tables.map { "\($0): \(stringList(try daemon.call("GetAllowedActions", [s($0)])))" } + [
            daemon.errorName("InsertRow", [s("a"), i(0), i(-1), s("123456789")]) ?? "fits"
        ]
    }
}
