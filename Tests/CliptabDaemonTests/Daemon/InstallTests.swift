// SPDX-License-Identifier: MIT
import CliptabContract
import CliptabDaemon
import Foundation
import Glibc
import Posix
import TestSupport
import Testing

/// `.ci/install` and `.ci/uninstall`, run on the debug binaries already built (the release
/// build is the same script with `CLIPTAB_BIN_DIR` unset), and the man pages they install.
@Suite(.serialized)
struct InstallTests {
    /// Runs `.ci/<script>` with exactly `environment` (plus `PATH`).
    func run(_ script: String, _ environment: [String: String]) throws -> CommandResult {
        let result = try ChildProcess.run(
            "bash", ["\(Repository.root)/.ci/\(script)"],
            environment: environment.merging(["PATH": String(cString: getenv("PATH"))]) { $1 },
            timeoutMilliseconds: 120_000)
        #expect(result.termination == .exited(0), "\(script): \(result.errorText)")
        return result
    }

    /// The regular files and links under `root`, relative to it, sorted.
    func files(under root: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var found: [String] = []
        while let path = walker.nextObject() as? String {
            var info = stat()
            if lstat("\(root)/\(path)", &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR { found.append(path) }
        }
        return found.sorted()
    }

    /// The installed files below PREFIX, with the unit's and zsh completion's directories given.
    func expectedFiles(unitDirectory: String, zshDirectory: String) -> [String] {
        [
            "bin/cliptab", "bin/cliptab-menu", "bin/cliptab-menu-wayland", "bin/cliptabd",
            "\(unitDirectory)/cliptabd.service",
            "share/bash-completion/completions/cliptab", "\(zshDirectory)/_cliptab",
            "share/fish/vendor_completions.d/cliptab.fish",
            "share/dbus-1/services/io.github.cliptab.Cliptab1.service", "share/doc/cliptab/cliptab.conf",
            "share/man/man1/cliptab.1", "share/man/man5/cliptab.conf.5", "share/man/man8/cliptabd.8",
            "share/applications/\(DesktopSearchBus.desktopID)",
            "share/gnome-shell/search-providers/io.github.cliptab.Cliptab.search-provider.ini",
            "share/krunner/dbusplugins/io.github.cliptab.Cliptab.desktop",
        ].sorted()
    }

    /// The search provider's ini names the daemon's bus name, the provider's object and the
    /// installed application entry; KRunner's plugin names the bus name and the runner's object.
    static func checkDesktopSearch(_ installed: String) throws {
        let provider = try String(
            contentsOfFile:
                "\(installed)/share/gnome-shell/search-providers/io.github.cliptab.Cliptab.search-provider.ini",
            encoding: .utf8)
        let group = "Shell Search Provider"
        #expect(SystemdUnitTests.values(provider, group, "DesktopId") == [DesktopSearchBus.desktopID])
        #expect(SystemdUnitTests.values(provider, group, "BusName") == [CliptabBus.name])
        #expect(
            SystemdUnitTests.values(provider, group, "ObjectPath") == [DesktopSearchBus.searchProviderPath])
        #expect(SystemdUnitTests.values(provider, group, "Version") == ["2"])
        #expect(
            FileManager.default.fileExists(
                atPath: "\(installed)/share/applications/\(DesktopSearchBus.desktopID)"))
        let runner = try String(
            contentsOfFile: "\(installed)/share/krunner/dbusplugins/io.github.cliptab.Cliptab.desktop",
            encoding: .utf8)
        #expect(SystemdUnitTests.values(runner, "Desktop Entry", "X-Plasma-API") == ["DBus"])
        #expect(
            SystemdUnitTests.values(runner, "Desktop Entry", "X-Plasma-DBusRunner-Service") == [
                CliptabBus.name
            ])
        #expect(
            SystemdUnitTests.values(runner, "Desktop Entry", "X-Plasma-DBusRunner-Path") == [
                DesktopSearchBus.runnerPath
            ])
    }

    func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : 0
    }

    /// A packager's install: everything under DESTDIR, the unit and the activation file
    /// naming PREFIX; the binaries run; the uninstall leaves no file behind.
    @Test func packagerInstall() throws {
        let directory = try TemporaryDirectory(prefix: "cliptab-install")
        let stage = directory.appending("stage")
        let home = directory.appending("home")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let environment = [
            "DESTDIR": stage, "PREFIX": "/usr", "HOME": home, "CLIPTAB_BIN_DIR": BuiltProducts.directory,
        ]
        _ = try run("install", environment)

        let installed = stage + "/usr"
        #expect(files(under: stage).allSatisfy { $0.hasPrefix("usr/") })
        #expect(
            files(under: installed)
                == expectedFiles(
                    unitDirectory: "lib/systemd/user", zshDirectory: "share/zsh/vendor-completions"))
        let unit = try String(
            contentsOfFile: "\(installed)/lib/systemd/user/cliptabd.service", encoding: .utf8)
        #expect(SystemdUnitTests.values(unit, "Service", "ExecStart") == ["/usr/bin/cliptabd"])
        #expect(SystemdUnitTests.values(unit, "Service", "ExecReload") == ["/usr/bin/cliptab reload"])
        let activation = try String(
            contentsOfFile: "\(installed)/share/dbus-1/services/\(CliptabBus.name).service", encoding: .utf8)
        #expect(SystemdUnitTests.values(activation, "D-BUS Service", "Exec") == ["/usr/bin/cliptabd"])
        let application = try String(
            contentsOfFile: "\(installed)/share/applications/\(DesktopSearchBus.desktopID)", encoding: .utf8)
        #expect(SystemdUnitTests.values(application, "Desktop Entry", "Exec") == ["/usr/bin/cliptab menu"])
        for text in [unit, activation, application] {
            #expect(!text.contains("@bindir@") && !text.contains(stage))
        }
        try Self.checkDesktopSearch(installed)
        // Everything but the two substituted templates is copied as it is.
        let copies = [
            ("config/cliptab.conf", "share/doc/cliptab/cliptab.conf"),
            ("config/man/cliptab.1", "share/man/man1/cliptab.1"),
            ("config/man/cliptab.conf.5", "share/man/man5/cliptab.conf.5"),
            ("config/man/cliptabd.8", "share/man/man8/cliptabd.8"),
            (
                "desktop/io.github.cliptab.Cliptab.search-provider.ini",
                "share/gnome-shell/search-providers/io.github.cliptab.Cliptab.search-provider.ini"
            ),
            (
                "desktop/io.github.cliptab.Cliptab.krunner.desktop",
                "share/krunner/dbusplugins/io.github.cliptab.Cliptab.desktop"
            ),
        ]
        for (source, target) in copies {
            #expect(
                try String(contentsOfFile: "\(installed)/\(target)", encoding: .utf8)
                    == Repository.text(source))
            #expect(mode("\(installed)/\(target)") == 0o644)
        }
        #expect(mode("\(installed)/bin/cliptabd") == 0o755 && mode("\(installed)/bin/cliptab") == 0o755)

        let version = try ChildProcess.run("\(installed)/bin/cliptabd", ["--version"], environment: [:])
        #expect(
            version.termination == .exited(0)
                && version.outputText == "cliptabd \(CliptabInterface.version)\n")
        let cli = try ChildProcess.run("\(installed)/bin/cliptab", ["--version"], environment: [:])
        #expect(cli.termination == .exited(0), "cliptab --version: \(cli.errorText)")
        // A packager's install never touches the home directory.
        #expect(files(under: home) == [])

        _ = try run("uninstall", environment)
        #expect(files(under: stage) == [])
    }

    /// The default install for the current user goes under ~/.local, is accepted by
    /// systemd with its man pages found, completes commands, and comes out again without
    /// touching the user's configuration or store.
    @Test func userInstall() throws {
        let directory = try TemporaryDirectory(prefix: "cliptab-install")
        let home = directory.appending("home")
        let userConfig = "\(home)/.config/cliptab/cliptab.conf"
        let store = "\(home)/.local/share/cliptab/cliptab.db"
        try writeFile(userConfig, "# my settings\n[limits]\ncell_bytes = 5\n")
        try writeFile(store, "my tables")
        let runtime = directory.appending("runtime")
        try FileManager.default.createDirectory(
            atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let environment = [
            "HOME": home, "XDG_RUNTIME_DIR": runtime, "CLIPTAB_BIN_DIR": BuiltProducts.directory,
        ]
        let first = try run("install", environment)
        #expect(first.errorText.contains("systemctl --user enable --now cliptabd"))
        _ = try run("install", environment)

        let local = "\(home)/.local"
        let userFiles = [".config/cliptab/cliptab.conf", ".local/share/cliptab/cliptab.db"]
        #expect(
            files(under: home)
                == (expectedFiles(
                    unitDirectory: "share/systemd/user", zshDirectory: "share/zsh/site-functions"
                ).map { ".local/\($0)" } + userFiles)
                .sorted())
        let unitPath = "\(local)/share/systemd/user/cliptabd.service"
        let unit = try String(contentsOfFile: unitPath, encoding: .utf8)
        #expect(SystemdUnitTests.values(unit, "Service", "ExecStart") == ["\(local)/bin/cliptabd"])
        let activation = try String(
            contentsOfFile: "\(local)/share/dbus-1/services/\(CliptabBus.name).service", encoding: .utf8)
        #expect(SystemdUnitTests.values(activation, "D-BUS Service", "Exec") == ["\(local)/bin/cliptabd"])

        // systemd accepts the installed unit: its binaries exist and its man pages are found.
        let verify = try ChildProcess.run(
            "systemd-analyze", ["--user", "verify", unitPath],
            environment: [
                "PATH": String(cString: getenv("PATH")), "HOME": home, "XDG_RUNTIME_DIR": runtime,
                "MANPATH": "\(local)/share/man", "LANG": "C.UTF-8",
            ], timeoutMilliseconds: 60_000)
        #expect(verify.termination == .exited(0) && verify.errorText == "", "\(verify.errorText)")

        // The completion is valid bash and completes commands and options (from the
        // installed cliptab's __complete).
        let completion = try ChildProcess.run(
            "bash",
            [
                "-c",
                """
                source "$1"
                COMP_WORDS=(cliptab cre); COMP_CWORD=1; _cliptab; echo "${COMPREPLY[*]}"
                COMP_WORDS=(cliptab section m); COMP_CWORD=2; _cliptab; echo "${COMPREPLY[*]}"
                COMP_WORDS=(cliptab export t --f); COMP_CWORD=3; _cliptab; echo "${COMPREPLY[*]}"
                COMP_WORDS=(cliptab export t --format j); COMP_CWORD=4; _cliptab; echo "${COMPREPLY[*]}"
                complete -p cliptab
                """,
                "completion", "\(local)/share/bash-completion/completions/cliptab",
            ],
            // The script asks the installed cliptab, found on PATH as the user's shell finds it.
            environment: ["PATH": "\(local)/bin:" + String(cString: getenv("PATH"))])
        #expect(
            completion.outputText
                == "create\nmv\n--format\njson\ncomplete -F _cliptab cliptab\n", "\(completion.errorText)")

        _ = try run("uninstall", environment)
        #expect(files(under: home) == userFiles)
        #expect(
            try String(contentsOfFile: userConfig, encoding: .utf8)
                == "# my settings\n[limits]\ncell_bytes = 5\n")
        #expect(try String(contentsOfFile: store, encoding: .utf8) == "my tables")
    }

    /// A relative or blank PREFIX is refused before anything is written.
    @Test func badPrefixes() throws {
        let directory = try TemporaryDirectory(prefix: "cliptab-install")
        for prefix in ["relative/path", "/with blank"] {
            let result = try ChildProcess.run(
                "bash", ["\(Repository.root)/.ci/install"],
                environment: [
                    "PATH": String(cString: getenv("PATH")), "HOME": directory.path, "PREFIX": prefix,
                    "DESTDIR": directory.appending("stage"), "CLIPTAB_BIN_DIR": BuiltProducts.directory,
                ], timeoutMilliseconds: 60_000)
            #expect(result.termination == .exited(2), "PREFIX=\(prefix)")
            #expect(result.errorText.contains("PREFIX must"))
        }
        #expect(files(under: directory.path) == [])
    }

    /// The man pages render without a warning, and document every configuration key, every
    /// option of `cliptabd --help`, and every command and option of `cliptab`'s help.
    @Test func manPages() throws {
        func render(_ page: String) throws -> CommandResult {
            try ChildProcess.run(
                "groff", ["-man", "-Tascii", "-P-cbou", "-ww", "\(Repository.root)/config/man/\(page)"],
                environment: ["PATH": String(cString: getenv("PATH")), "LANG": "C.UTF-8"])
        }
        var rendered: [String: String] = [:]
        for page in ["cliptab.1", "cliptabd.8", "cliptab.conf.5"] {
            let result = try render(page)
            #expect(
                result.termination == .exited(0) && result.errorText == "", "\(page): \(result.errorText)")
            #expect(result.outputText.contains("NAME") && result.outputText.contains("SEE ALSO"))
            rendered[page] = result.outputText.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        for (section, keys) in DaemonConfiguration.keys {
            let header = section == "table" ? "[table \"NAME\"]" : "[\(section)]"
            #expect(rendered["cliptab.conf.5"]?.contains(header) == true, "\(header)")
            for key in keys { #expect(rendered["cliptab.conf.5"]?.contains(key) == true, "\(key)") }
        }
        let help = try runDaemon(["--help"], environment: [:])
        let options = help.outputText.split(whereSeparator: {
            $0 == " " || $0 == "\n" || $0 == "[" || $0 == "]"
        })
        .filter { $0.hasPrefix("--") }
        #expect(options.count > 8)
        for option in Set(options) { #expect(rendered["cliptabd.8"]?.contains(option) == true, "\(option)") }
        // Every command of `cliptab --help`, every global option, and every option of each
        // command's help is in cliptab(1).
        let cliptab = BuiltProducts.path(of: "cliptab")
        let general = try ChildProcess.run(cliptab, ["--help"]).outputText
        // "  section add     insert a section": a name is the words before the gap.
        let commands = lines(of: general, under: "commands:").map(commandName)
        #expect(commands.count > 25 && commands.contains("section title"), "\(commands)")
        var optionCount = 0
        for option in optionNames(lines(of: general, under: "global options (before or after the command):"))
        {
            optionCount += 1
            #expect(rendered["cliptab.1"]?.contains(option) == true, "global option \(option)")
        }
        for command in commands {
            #expect(rendered["cliptab.1"]?.contains(command) == true, "command \(command)")
            let help = try ChildProcess.run(
                cliptab, ["help"] + command.split(separator: " ").map(String.init))
            for option in optionNames(lines(of: help.outputText, under: "options:")) {
                optionCount += 1
                #expect(rendered["cliptab.1"]?.contains(option) == true, "\(command) \(option)")
            }
        }
        #expect(optionCount > 15)
    }

    /// The lines of `text` after the line `heading`, up to the next blank line.
    func lines(of text: String, under heading: String) -> [String] {
        let all = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = all.firstIndex(of: heading) else { return [] }
        return Array(all[(start + 1)...].prefix { !$0.isEmpty })
    }

    /// A command's name in a help listing: the words before the first gap of two blanks.
    func commandName(_ line: String) -> String {
        let trimmed = line.drop { $0 == " " }
        guard let gap = trimmed.range(of: "  ") else { return String(trimmed) }
        return String(trimmed[..<gap.lowerBound])
    }

    /// The option names (`--format`, `-o`) at the start of help lines, before their help.
    func optionNames(_ lines: [String]) -> [String] {
        lines.flatMap { line in
            commandName(line).split(whereSeparator: { $0 == "," || $0 == " " || $0 == "[" || $0 == "=" })
                .filter { $0.hasPrefix("-") }.map(String.init)
        }
    }
}
