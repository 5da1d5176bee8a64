// SPDX-License-Identifier: MIT
import Glibc
import Posix
import TestSupport
import Testing

/// `cliptab import --from espanso|alfred|raycast|folder` through the built CLI and a daemon
/// on a private bus, on files shaped like the peers' own (espanso's default `base.yml`, its
/// documented examples, a Raycast export, an unpacked Alfred collection) and hostile ones.
@Suite(.serialized, .withDaemon) struct SnippetImportTests {
    /// Writes `bytes` at `name` below the test's data folder (folders made on the way).
    @discardableResult
    private func write(_ name: String, _ text: String) -> String { write(name, bytes: Array(text.utf8)) }

    @discardableResult
    private func write(_ name: String, bytes: [UInt8]) -> String { cli.writeDataFile(name, bytes: bytes) }

    private func yaml(_ table: String) throws -> String { try cli.yaml(table) }

    private func tables() throws -> String { try cli.run("tables").out }

    /// espanso's default match file, as `espanso` writes it on first start.
    static let base = """
        # espanso match file

        # For a complete introduction, visit the official docs at: https://espanso.org/docs/

        # Matches are substitution rules: when you type the "trigger" string
        # it gets replaced by the "replace" string.
        matches:
          # Simple text replacement
          - trigger: ":espanso"
            replace: "Hi there!"

          # Print the current date
          - trigger: ":date"
            replace: "{{mydate}}"
            vars:
              - name: mydate
                type: date
                params:
                  format: "%m/%d/%Y"

          # Print the output of a shell command
          - trigger: ":shell"
            replace: "{{output}}"
            vars:
              - name: output
                type: shell
                params:
                  cmd: "echo 'Hello from your shell'"

        """

    @Test func espansosDefaultFileBecomesASectionOfNamedRows() throws {
        let path = write("espanso/match/base.yml", Self.base)
        let outcome = try cli.run("import", "esp", path, "--from", "espanso")
        #expect(outcome.status == 0, "\(outcome)")
        #expect(
            outcome.out == """
                imported 3 rows in 1 section: 0 moved, 0 changed, 3 added, 0 deleted; sections: 0 moved, 0 changed, 1 added, 0 deleted; settings changed
                base.yml, match 3 (line 22) ":shell": {{output}} kept as text (a shell variable)

                """, "\(outcome)")
        #expect(
            try yaml("esp") == """
                templates: true
                sections:
                - header: base
                  rows:
                  - name: espanso
                    text: Hi there!
                  - name: date
                    text: '{date:%m/%d/%Y}'
                  - name: shell
                    text: '{{{{output}}}}'

                """)
        // Importing the same file again changes nothing.
        let again = try cli.run("import", "esp", path, "--from", "espanso")
        #expect(again.out.hasPrefix("imported 3 rows in 1 section: no changes\n"), "\(again)")
    }

    @Test func espansoFolderWithVariablesFormsCursorAndConflicts() throws {
        write(
            "esp2/match/a.yml",
            """
            global_vars:
              - name: clip
                type: clipboard
              - name: tomorrow
                type: date
                params:
                  format: "%Y-%m-%d"
                  offset: 86400
            matches:
              - triggers: [":sig", ";sign"]
                replace: "Best,\\nAda {literal}"
              - trigger: ":quote"
                replace: "> {{clip}}$|$ due {{tomorrow}}"
                propagate_case: true
              - trigger: ":sig"
                replace: "second sig"
              - trigger: "two words"
                replace: "x"
              - regex: ":div\\\\((?P<text>.*)\\\\)"
                replace: "<div>{{text}}</div>"
              - trigger: ":cat"
                image_path: "$CONFIG/images/cat.png"
              - trigger: ":greet"
                form: "Hey [[name]], [[text]]"
                form_fields:
                  name:
                    default: "you"
            """)
        write("esp2/match/sub/b.yaml", "matches:\n  - trigger: \":b\"\n    replace: b text\n")
        write("esp2/match/.hidden.yml", "matches:\n  - trigger: \":h\"\n    replace: hidden\n")
        // A table that has rows already: its literal braces must stay literal.
        #expect(try cli.run("import", "esp2", "--format", "lines", input: "keep {me}\n").status == 0)
        let outcome = try cli.run("import", "esp2", cli.data.appending("esp2/match"), "--from", "espanso")
        #expect(outcome.status == 0, "\(outcome)")
        let report = outcome.out.split(separator: "\n").map(String.init)
        #expect(report.first?.hasPrefix("imported 7 rows in 2 sections (1 left out): ") == true, "\(report)")
        #expect(
            report.contains("a.yml, match 1 (line 10) \":sig\": the other triggers are left out"), "\(report)"
        )
        #expect(
            report.contains("a.yml, match 5 (line 19): unnamed: a regex trigger has no name"), "\(report)")
        #expect(
            report.contains("a.yml, match 5 (line 19): {{text}} kept as text (no such variable)"), "\(report)"
        )
        #expect(report.contains("a.yml, match 6 (line 21) \":cat\": left out: an image"), "\(report)")
        #expect(
            report.contains("a.yml, match 2 (line 12) \":quote\": \"propagate_case\" ignored"), "\(report)")
        #expect(report.contains("a, row 3: unnamed: \"sig\" names an earlier row"), "\(report)")
        #expect(report.contains("a, row 4: unnamed: \"two words\" is not a row name"), "\(report)")
        #expect(
            try yaml("esp2") == """
                templates: true
                sections:
                - rows:
                  - keep {{me}}
                - header: a
                  rows:
                  - name: sig
                    text: |-
                      Best,
                      Ada {{literal}}
                  - name: quote
                    text: '> {clipboard}{cursor} due {date +24h:%Y-%m-%d}'
                  - second sig
                  - x
                  - <div>{{{{text}}}}</div>
                  - name: greet
                    text: Hey {input:name=you}, {input:text}
                - header: b
                  rows:
                  - name: b
                    text: b text

                """)
        let again = try cli.run("import", "esp2", cli.data.appending("esp2/match"), "--from", "espanso")
        #expect(again.out.hasPrefix("imported 7 rows in 2 sections (1 left out): no changes\n"), "\(again)")
        // A row changed in the source is updated in place; --dry-run says so and changes nothing.
        write("esp2/match/sub/b.yaml", "matches:\n  - trigger: \":b\"\n    replace: new b\n")
        let revision = try cli.run("export", "esp2", "--format", "yaml").out
        let dry = try cli.run(
            "import", "esp2", cli.data.appending("esp2/match"), "--from", "espanso", "--dry-run")
        #expect(
            dry.out.hasPrefix("would import 7 rows in 2 sections (1 left out): 0 moved, 1 changed"), "\(dry)")
        #expect(try yaml("esp2") == revision)
        let changed = try cli.run("import", "esp2", cli.data.appending("esp2/match"), "--from", "espanso")
        #expect(
            changed.out.hasPrefix("imported 7 rows in 2 sections (1 left out): 0 moved, 1 changed"),
            "\(changed)")
        #expect(try yaml("esp2").contains("text: new b"))
    }

    @Test func aFolderOfFilesIsRowsAndSections() throws {
        write("notes/sig.txt", "Best,\nAda\n")
        write("notes/addr", "1 Main St {not a placeholder}")
        write("notes/.secret", "hidden")
        write("notes/job/standup.md", "Yesterday:\nToday:\n")
        write("notes/bad.txt", bytes: [0x66, 0xFF, 0xFE])
        let outcome = try cli.run("import", "notes", cli.data.appending("notes"), "--from", "folder")
        #expect(outcome.status == 0, "\(outcome)")
        #expect(
            outcome.out == """
                imported 3 rows in 2 sections (1 left out): 0 moved, 0 changed, 3 added, 0 deleted; sections: 0 moved, 0 changed, 2 added, 0 deleted
                bad.txt: left out: not UTF-8 text

                """, "\(outcome)")
        #expect(
            try yaml("notes") == """
                sections:
                - rows:
                  - name: addr
                    text: 1 Main St {not a placeholder}
                  - name: sig
                    text: |
                      Best,
                      Ada
                - header: job
                  rows:
                  - name: standup
                    text: |
                      Yesterday:
                      Today:

                """)
        // A file gone from the source stays in the table, unless --replace.
        unlink(cli.data.appending("notes/addr"))
        let merged = try cli.run("import", "notes", cli.data.appending("notes"), "--from", "folder")
        #expect(merged.out.hasPrefix("imported 2 rows in 2 sections (1 left out): no changes\n"), "\(merged)")
        let replaced = try cli.run(
            "import", "notes", cli.data.appending("notes"), "--from", "folder", "--replace")
        #expect(
            replaced.out.hasPrefix(
                "imported 2 rows in 2 sections (1 left out): 0 moved, 0 changed, 0 added, 1 deleted\n"),
            "\(replaced)")
        #expect(try !yaml("notes").contains("addr"))
    }

    @Test func aRaycastExportAndAnAlfredCollection() throws {
        let raycast = write(
            "raycast.json",
            """
            [
              {"name": "Signature", "text": "Best,\\n{clipboard}{cursor}", "keyword": "!sig"},
              {"name": "Meeting", "text": "Meet {date format=\\"yyyy-MM-dd\\" offset=\\"+1d\\"} {argument name=\\"who\\" default=\\"team\\"} {snippet name=\\"x\\"}", "keyword": ""},
              {"name": "uuid", "text": "id {uuid}", "keyword": "!sig"}
            ]
            """)
        let outcome = try cli.run("import", "ray", raycast, "--from", "raycast")
        #expect(outcome.status == 0, "\(outcome)")
        #expect(
            outcome.out.contains(
                "raycast.json, snippet 2 \"Meeting\": \"{snippet name=\\\"x\\\"}\" kept as text"),
            "\(outcome)")
        #expect(outcome.out.contains("row 3: unnamed: \"sig\" names an earlier row"), "\(outcome)")
        #expect(
            try yaml("ray") == """
                templates: true
                rows:
                - name: sig
                  text: |-
                    Best,
                    {clipboard}{cursor}
                - name: Meeting
                  text: Meet {date +1d:%Y-%m-%d} {input:who=team} {{snippet name="x"}}
                - id {uuid}

                """)
        write("alfred/info.plist", "<plist/>")
        write(
            "alfred/Greeting [AB12].json",
            #"{"alfredsnippet": {"snippet": "Hello {clipboard} at {time}, {random:1,2}", "uid": "AB12", "name": "Greeting", "keyword": "hi"}}"#
        )
        let alfred = try cli.run("import", "alf", cli.data.appending("alfred"), "--from", "alfred")
        #expect(alfred.status == 0, "\(alfred)")
        #expect(alfred.out.contains("\"{random:1,2}\" kept as text"), "\(alfred)")
        #expect(
            try yaml("alf") == """
                templates: true
                rows:
                - name: hi
                  text: Hello {clipboard} at {time}, {{random:1,2}}

                """)
    }

    @Test func hostileSourcesAreRefusedWholeAndBounded() throws {
        // A YAML alias bomb (billion laughs): refused, not expanded.
        var bomb = "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
        for level in 1...9 {
            let previous = level == 1 ? "a" : "l\(level - 1)"
            bomb +=
                "l\(level): &l\(level) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ",")
                + "]\n"
        }
        bomb += "matches:\n  - trigger: \":x\"\n    replace: *l9\n"
        let aliases = try cli.run("import", "bomb", write("bomb.yml", bomb), "--from", "espanso")
        #expect(aliases.status != 0)
        #expect(aliases.err.contains("bomb.yml: line ") && aliases.err.contains("alias"), "\(aliases)")
        #expect(aliases.err.contains("nothing was imported"), "\(aliases)")
        // Deep nesting.
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let nested = try cli.run("import", "deep", write("deep.json", deep), "--from", "raycast")
        #expect(nested.status != 0 && nested.err.contains("deep.json: line 1"), "\(nested)")
        // Invalid UTF-8 in a match file: the whole folder is refused, the good file too.
        write("mixed/a.yml", "matches:\n  - trigger: \":a\"\n    replace: a\n")
        write(
            "mixed/b.yml",
            bytes: Array("matches:\n  - trigger: \":b\"\n    replace: ".utf8) + [0xC3, 0x28, 0x0A])
        let mixed = try cli.run("import", "mixed", cli.data.appending("mixed"), "--from", "espanso")
        #expect(
            mixed.status != 0 && mixed.err.contains("b.yml: not UTF-8 text; nothing was imported"), "\(mixed)"
        )
        // A 100 MB JSON: refused after reading no more than the bound, whatever its size.
        let huge = write("huge.json", "[")
        #expect(truncate(huge, 100 << 20) == 0)
        let before = try readBytes(of: cli.daemon.pid)
        let big = try cli.run("import", "huge", huge, "--from", "raycast")
        let read = try readBytes(of: cli.daemon.pid) - before
        #expect(big.status != 0 && big.err.contains("larger than 32 MiB"), "\(big)")
        #expect(read <= (32 << 20) + (1 << 20), "the daemon read \(read) bytes")
        let names = try tables()
        for table in ["bomb", "deep", "mixed", "huge"] { #expect(!names.contains(table), "\(names)") }
        // A path that is not there is an error.
        let missing = try cli.run("import", "none", cli.data.appending("absent"), "--from", "folder")
        #expect(missing.status != 0 && missing.err.contains("No such file or directory"), "\(missing)")
    }

    /// The bytes the process `pid` has read through system calls (`rchar` of /proc/PID/io).
    private func readBytes(of pid: pid_t) throws -> Int {
        let descriptor = open("/proc/\(pid)/io", O_RDONLY)
        precondition(descriptor >= 0)
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        let text = String(decoding: buffer.prefix(max(0, count)), as: UTF8.self)
        let line = text.split(separator: "\n").first { $0.hasPrefix("rchar:") } ?? ""
        return Int(line.dropFirst(6).trimmingPrefix(while: { $0 == " " })) ?? -1
    }
}

/// `cliptab export --format espanso`, then imported back.
@Suite(.serialized, .withDaemon) struct SnippetExportTests {
    @Test func exportThenImportGivesBackTheNamedRows() throws {
        let source = """
            templates: true
            sections:
            - header: mail
              rows:
              - name: sig
                text: "Best, {{me}}"
              - name: quote
                text: "> {clipboard}{cursor} due {date +24h:%Y-%m-%d}"
              - name: greet
                text: "Hey {input:name=you}, {input:text}"
              - name: id
                text: "id {uuid}"
              - unnamed row
            """
        #expect(try cli.run("apply", "out", input: source).status == 0)
        let export = try cli.run("export", "out", "--format", "espanso")
        #expect(export.status == 0, "\(export)")
        #expect(
            export.err
                == "cliptab: 1 unnamed row left out\ncliptab: 1 row kept with cliptab's placeholders (espanso has no such)\n",
            "\(export)")
        #expect(
            export.out.contains("- trigger: :quote\n  replace: '> {{clipboard}}$|$ due {{date2}}'\n"),
            "\(export.out)")
        #expect(export.out.contains("      format: '%Y-%m-%d'\n      offset: 86400\n"), "\(export.out)")
        #expect(export.out.contains("- trigger: :greet\n  form: Hey [[name]], [[text]]\n"), "\(export.out)")
        let path = cli.data.appending("out.yml")
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        Array(export.out.utf8).withUnsafeBytes { _ = Glibc.write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        let back = try cli.run("import", "back", path, "--from", "espanso")
        #expect(back.status == 0, "\(back)")
        let rows = try cli.run("export", "back", "--format", "yaml").out
        #expect(rows.contains("  - name: sig\n    text: Best, {{me}}\n"), "\(rows)")
        #expect(
            rows.contains("  - name: quote\n    text: '> {clipboard}{cursor} due {date +24h:%Y-%m-%d}'\n"),
            "\(rows)")
        #expect(rows.contains("  - name: greet\n    text: Hey {input:name=you}, {input:text}\n"), "\(rows)")
        #expect(!rows.contains("unnamed row"), "\(rows)")
    }
}

/// Alfred's zipped collections, made by Python's zipfile as Alfred makes them, and hostile ones.
@Suite(.serialized, .withDaemon) struct AlfredArchiveTests {
    /// Makes the zip `name` of `entries` (path, text or a count of zero bytes).
    private func zip(_ name: String, _ entries: [(String, String)]) throws -> String {
        let path = cli.data.appending(name)
        var script = "import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED)\n"
        for (entry, text) in entries {
            let content = text.hasPrefix("zeros:") ? "b'\\0' * \(text.dropFirst(6))" : "'''\(text)'''"
            script += "z.writestr('''\(entry)''', \(content))\n"
        }
        script += "z.close()\n"
        let made = try ChildProcess.run("python3", ["-c", script, path])
        #expect(made.termination == .exited(0), "\(made.errorText)")
        return path
    }

    @Test func aCollectionArchiveIsImportedAndHostileOnesRefusedWhole() throws {
        let good = try zip(
            "Mail.alfredsnippets",
            [
                ("info.plist", "<plist version=\"1.0\"><dict/></plist>"),
                (
                    "Sign [B2].json",
                    #"{"alfredsnippet": {"snippet": "Best,\\nAda", "uid": "B2", "name": "Sign", "keyword": "sig"}}"#
                ),
                (
                    "Addr [A1].json",
                    #"{"alfredsnippet": {"snippet": "1 Main St", "uid": "A1", "name": "Addr", "keyword": "addr"}}"#
                ),
                ("__MACOSX/._Addr [A1].json", "junk"),
            ])
        let outcome = try cli.run("import", "alfred", good, "--from", "alfred")
        #expect(outcome.status == 0, "\(outcome)")
        #expect(
            try cli.run("export", "alfred", "--format", "yaml").out
                == "rows:\n- name: addr\n  text: 1 Main St\n- name: sig\n  text: |-\n    Best,\n    Ada\n")
        let climbing = try zip("Climb.alfredsnippets", [("a.json", "{}"), ("../../evil.json", "{}")])
        let climbed = try cli.run("import", "climb", climbing, "--from", "alfred")
        #expect(climbed.status != 0 && climbed.err.contains("climbs out of the archive"), "\(climbed)")
        let bomb = try zip("Bomb.alfredsnippets", [("a.json", "zeros:\(64 << 20)")])
        let before = try cli.run("tables").out
        let exploded = try cli.run("import", "bomb", bomb, "--from", "alfred")
        #expect(exploded.status != 0 && exploded.err.contains("unpacks to more than 32 MiB"), "\(exploded)")
        #expect(try cli.run("tables").out == before)
        #expect(!before.contains("climb") && !before.contains("bomb"), "\(before)")
    }
}
