// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabContract
import DBus
import Glibc
import Posix
import TestSupport
import Testing

/// `cliptab edit`, `apply` and the yaml format through the built CLI and daemon, with a
/// scripted `$EDITOR` that edits as a person does.
@Suite(.serialized, .withDaemon) struct EditCommandTests {
    private func editor() throws -> ScriptedEditor {
        let directory = cli.data.appending("editor")
        mkdir(directory, 0o700)
        return try ScriptedEditor(directory: directory)
    }

    /// Runs `cliptab` with the scripted editor doing `rounds`.
    private func edit(
        _ arguments: [String], _ rounds: [[[String]]], editor: ScriptedEditor,
        environment: [String: String]? = nil
    )
        throws -> Outcome
    {
        var base = environment ?? cli.environment
        base["PATH"] = BuiltProducts.directory + ":" + (base["PATH"] ?? "/usr/bin:/bin")
        return try runCliptab(
            arguments, environment: editor.environment(base, rounds: rounds), timeoutMilliseconds: 60_000)
    }

    private func ids(_ table: String) throws -> [UInt64] {
        try cli.cliptab.rows(table, section: 0).map(\.id)
    }

    private func texts(_ table: String) throws -> [String] {
        try cli.run("export", table, "--format", "lines").out.split(separator: "\n").map(String.init)
    }

    @Test func aPersonsEditsAreAppliedWithTheFewestChanges() throws {
        let editor = try editor()
        #expect(try cli.run("import", "snip", "--format", "lines", input: "a\nb\nc\nd\ne\n").status == 0)
        let before = try ids("snip")
        let outcome = try edit(
            ["edit", "snip"],
            [
                [
                    ["move", "- e", "- a"], ["replace", "- c", "- C!"], ["delete", "- a"],
                    ["add-after", "- d", "- new"],
                ]
            ],
            editor: editor)
        #expect(outcome == Outcome(0, "1 moved, 1 changed, 1 added, 1 deleted\n"), "\(outcome)")
        #expect(try texts("snip") == ["e", "b", "C!", "d", "new"])
        let after = try ids("snip")
        #expect(Array(after[0..<4]) == [before[4], before[1], before[2], before[3]])
        // The file was private, in the runtime directory, named after the table, and gone after.
        let log = editor.log()
        #expect(log.count == 1)
        let runtime = cli.environment["XDG_RUNTIME_DIR"]!
        #expect(log.first?.contains("\"path\": \"\(runtime)/snip-") == true, "\(log)")
        #expect(log.first?.contains(".yaml\", \"mode\": 384") == true, "\(log)")
        #expect(log.first?.contains("\"text\": \"rows:\\n- a\\n- b\\n") == true, "\(log)")
        #expect(try directoryEntries(runtime).filter { $0.hasPrefix("snip-") }.isEmpty)
    }

    @Test func savedUnchangedIsNoChange() throws {
        let editor = try editor()
        #expect(try cli.run("import", "same", "--format", "lines", input: "x\n").status == 0)
        let revision = try cli.cliptab.revision("same")
        #expect(try edit(["edit", "same"], [[]], editor: editor) == Outcome(0, "no changes\n"))
        #expect(try cli.cliptab.revision("same") == revision)
    }

    @Test func aBrokenFileReopensWithTheErrorThenApplies() throws {
        let editor = try editor()
        #expect(try cli.run("import", "broken", "--format", "lines", input: "one\ntwo\n").status == 0)
        let outcome = try edit(
            ["edit", "broken"],
            [
                [["replace", "- two", "- {name: 9bad, text: two}"]],
                [["replace", "{name: 9bad", "{name: good"]],
            ],
            editor: editor)
        #expect(outcome == Outcome(0, "0 moved, 1 changed, 0 added, 0 deleted\n"), "\(outcome)")
        let log = editor.log()
        #expect(log.count == 2)
        // The error as comments at the top, its line counted in the reopened file.
        #expect(
            log.count == 2
                && log[1].contains(
                    "\"mode\": 384, \"text\": \"# cliptab: line 5, column 10: \\\"9bad\\\" is not a row name"),
            "\(log)")
        #expect(try cli.run("get", "broken", "good") == Outcome(0, "two"))
    }

    @Test func aBrokenFileSavedUnchangedCancelsAndKeepsTheText() throws {
        let editor = try editor()
        #expect(try cli.run("import", "cancel", "--format", "lines", input: "one\n").status == 0)
        let outcome = try edit(
            ["edit", "cancel"], [[["write", "rows:\n  - [unclosed\n"]], []], editor: editor)
        #expect(outcome.status == 1)
        #expect(
            outcome.err.contains("cancelled (the file was saved unchanged); nothing was applied"),
            "\(outcome)")
        let path = try #require(outcome.err.split(separator: " ").last.map { String($0.dropLast()) })
        let kept = try InputReaderForTests.read(path)
        #expect(kept.contains("- [unclosed") && kept.hasPrefix("# cliptab: line"), "\(kept)")
        #expect(try texts("cancel") == ["one"])
        unlink(path)
    }

    @Test func anEmptiedFileOrAFailedEditorChangesNothingAndKeepsTheFile() throws {
        let editor = try editor()
        #expect(try cli.run("import", "keep", "--format", "lines", input: "one\n").status == 0)
        let emptied = try edit(["edit", "keep"], [[["write", ""]]], editor: editor)
        #expect(
            emptied.status == 1 && emptied.err.contains("cancelled (the file was saved empty)"), "\(emptied)")
        let failed = try edit(
            ["edit", "keep"], [[["replace", "- one", "- two"], ["fail"]]], editor: editor)
        #expect(failed.status == 1 && failed.err.contains("did not exit cleanly"), "\(failed)")
        #expect(try texts("keep") == ["one"])
        for outcome in [emptied, failed] {
            let path = try #require(outcome.err.split(separator: " ").last.map { String($0.dropLast()) })
            #expect(access(path, F_OK) == 0, "\(path) was not kept")
            unlink(path)
        }
    }

    @Test func aTableChangedMeanwhileIsRefusedAndTheTextKept() throws {
        let editor = try editor()
        #expect(try cli.run("import", "race", "--format", "lines", input: "one\n").status == 0)
        let outcome = try edit(
            ["edit", "race"], [[["run", "cliptab add race meanwhile"], ["replace", "- one", "- mine"]]],
            editor: editor)
        #expect(outcome.status == 1)
        #expect(outcome.err.contains("RevisionMismatch"), "\(outcome)")
        #expect(try texts("race") == ["one", "meanwhile"])
        let line = try #require(
            outcome.err.split(separator: "\n").last { $0.contains("cliptab apply race ") })
        let path = String(line.split(separator: " ").last!)
        // The line given applies the kept text over the changes.
        #expect(try cli.run("apply", "race", path) == Outcome(0, "0 moved, 1 changed, 0 added, 1 deleted\n"))
        #expect(try texts("race") == ["mine"])
        unlink(path)
    }

    @Test func aSecretTableNeedsTheRuntimeDirectory() throws {
        let editor = try editor()
        #expect(try cli.run("import", "vault", "--format", "lines", input: "pw\n").status == 0)
        try cli.cliptab.setSecret("vault", true)
        var environment = cli.environment
        environment["XDG_RUNTIME_DIR"] = nil
        environment["TMPDIR"] = cli.data.path
        let outcome = try edit(
            ["edit", "vault"], [[["replace", "pw", "new"]]], editor: editor, environment: environment)
        #expect(outcome.status == 1 && outcome.err.contains("XDG_RUNTIME_DIR"), "\(outcome)")
        #expect(editor.log().isEmpty)
        #expect(try edit(["edit", "vault"], [[["replace", "pw", "new"]]], editor: editor).status == 0)
    }

    @Test func oneRowIsEditedAsPlainText() throws {
        let editor = try editor()
        #expect(try cli.run("import", "row", "--format", "lines", input: "no newline\n").status == 0)
        let outcome = try edit(["edit", "row", "0:0"], [[["write", "changed\n"]]], editor: editor)
        #expect(outcome == Outcome(0, "1 changed\n"))
        #expect(try cli.run("get", "row", "0:0") == Outcome(0, "changed"))
        #expect(editor.log().first?.contains("\"text\": \"no newline\"") == true)
    }

    @Test func aRowTheDaemonRefusesReopensThenApplies() throws {
        let editor = try editor()
        #expect(try cli.run("import", "tpl", "--format", "lines", input: "hello\n").status == 0)
        try cli.cliptab.setTemplates("tpl", true)
        let outcome = try edit(
            ["edit", "tpl", "0:0"], [[["write", "{unclosed"]], [["write", "fixed"]]], editor: editor)
        #expect(outcome.status == 0 && outcome.out == "1 changed\n", "\(outcome)")
        #expect(
            outcome.err.contains("InvalidTemplate") && outcome.err.contains("save it unchanged to cancel"))
        // Reopened on the text as saved.
        let log = editor.log()
        #expect(log.count == 2 && log[1].contains("\"text\": \"{unclosed\""), "\(log)")
        #expect(try cli.run("get", "tpl", "0:0") == Outcome(0, "fixed"))
    }

    @Test func aRefusedRowSavedUnchangedCancelsAndKeepsTheText() throws {
        let editor = try editor()
        #expect(try cli.run("import", "tpl2", "--format", "lines", input: "hello\n").status == 0)
        try cli.cliptab.setTemplates("tpl2", true)
        let revision = try cli.cliptab.revision("tpl2")
        let outcome = try edit(["edit", "tpl2", "0:0"], [[["write", "{unclosed"]], []], editor: editor)
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.err.contains("cancelled (the file was saved unchanged)"), "\(outcome)")
        let path = try #require(outcome.err.split(separator: " ").last.map { String($0.dropLast()) })
        #expect(try InputReaderForTests.read(path) == "{unclosed")
        #expect(try cli.run("get", "tpl2", "0:0") == Outcome(0, "hello"))
        #expect(try cli.cliptab.revision("tpl2") == revision)
        unlink(path)
    }

    @Test func aRowWhoseTableChangedMeanwhileIsRefusedAndTheTextKept() throws {
        let editor = try editor()
        #expect(try cli.run("import", "rowrace", "--format", "lines", input: "one\n").status == 0)
        let outcome = try edit(
            ["edit", "rowrace", "0:0"], [[["run", "cliptab add rowrace meanwhile"], ["write", "mine"]]],
            editor: editor)
        #expect(outcome.status == 1, "\(outcome)")
        // Refused by the daemon (EditCell at the revision read), not by a separate check.
        #expect(outcome.err.contains("RevisionMismatch"), "\(outcome)")
        let path = try #require(outcome.err.split(separator: " ").last.map { String($0.dropLast()) })
        #expect(try InputReaderForTests.read(path) == "mine")
        #expect(try texts("rowrace") == ["one", "meanwhile"])
        unlink(path)
    }

    @Test func applyRefusesRowsThatTogetherMakeACycle() throws {
        #expect(
            try cli.run(
                "apply", "cyc",
                input: "templates: true\nrows:\n  - {name: a, text: x}\n  - {name: b, text: y}\n"
            )
            .status == 0)
        let revision = try cli.cliptab.revision("cyc")
        let outcome = try cli.run(
            "apply", "cyc",
            input: "rows:\n  - {name: a, text: '{snippet:b}'}\n  - {name: b, text: '{snippet:a}'}\n")
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.err.contains("cycle") && outcome.err.contains("InvalidTemplate"), "\(outcome)")
        #expect(try texts("cyc") == ["x", "y"])
        #expect(try cli.cliptab.revision("cyc") == revision)
    }

    @Test func applyCountsAndDryRuns() throws {
        #expect(try cli.run("import", "ap", "--format", "lines", input: "a\nb\n").status == 0)
        let document = "sections:\n  - rows: [b, a, c]\n  - header: New\n    rows: []\n"
        #expect(
            try cli.run("apply", "ap", "--dry-run", input: document)
                == Outcome(
                    0,
                    "would change: 1 moved, 0 changed, 1 added, 0 deleted; sections: 0 moved, 0 changed, 1 added, 0 deleted\n"
                ))
        #expect(try texts("ap") == ["a", "b"])
        #expect(try cli.run("apply", "ap", "-", input: document).status == 0)
        #expect(try texts("ap") == ["b", "a", "c", "## New"])
        let bad = try cli.run("apply", "ap", input: "rows:\n  - name: x\n")
        #expect(
            bad
                == Outcome(
                    1, "",
                    "cliptab: line 2, column 5: this row has no \"text\" (\(CliptabBus.errorPrefix)InvalidArgument)\n"
                ))
        let stale = try cli.run("apply", "ap", "--revision", "1", input: "rows: []\n")
        #expect(stale.status == 1 && stale.err.contains("RevisionMismatch"), "\(stale)")
    }

    @Test(arguments: [false, true]) func hostileTextsRoundTripExactly(named: Bool) throws {
        let table = named ? "hostile-named" : "hostile"
        var document = "sections:\n  - header: \"h\"\n    rows:\n"
        for (index, entry) in HostileTexts.catalogue.enumerated() {
            document +=
                "      - " + (named ? "{name: n\(index), text: " : "") + jsonQuoted(entry.text)
                + (named ? "}" : "") + "\n"
        }
        #expect(try cli.run("apply", table, input: document).status == 0)
        let exported = try cli.run("export", table, "--format", "yaml")
        #expect(exported.status == 0)
        // Export → apply changes nothing.
        #expect(try cli.run("apply", table, input: exported.out) == Outcome(0, "no changes\n"))
        for (index, entry) in HostileTexts.catalogue.enumerated() {
            let cell = try cli.cliptab.cell(TableCell(table, section: 0, row: Int32(index)))
            #expect(cell == entry.text, "\(entry.label)")
        }
        // Export → import gives the same table.
        #expect(try cli.run("import", table + "-copy", "--format", "yaml", input: exported.out).status == 0)
        #expect(try cli.run("export", table + "-copy", "--format", "yaml") == exported)
    }
}

/// `text` as a JSON string, which YAML reads as a double-quoted scalar.
private func jsonQuoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar.value {
        case 0x22: out += "\\\""
        case 0x5C: out += "\\\\"
        case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF:
            out += "\\u" + hex4(scalar.value)
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

private func hex4(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}

/// The names in `path`.
private func directoryEntries(_ path: String) throws -> [String] {
    guard let directory = opendir(path) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) {
            String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
        }
        names.append(name)
    }
    return names
}

/// Reads a file the CLI kept.
enum InputReaderForTests {
    static func read(_ path: String) throws -> String {
        guard let file = fopen(path, "r") else { throw EditorScriptError(message: "cannot open \(path)") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count == 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// An applied document is durable once `cliptab apply` has answered.
@Suite struct ApplyDurabilityTests {
    @Test func anAnsweredApplySurvivesKill9() throws {
        let fixture = try CLIFixture()
        defer { fixture.stop() }
        #expect(try fixture.run("import", "d", "--format", "lines", input: "a\nb\n").status == 0)
        let outcome = try fixture.run(
            "apply", "d", input: "sections:\n  - header: H\n    rows: [b, {name: n, text: c}]\n")
        #expect(
            outcome
                == Outcome(
                    0,
                    "0 moved, 0 changed, 1 added, 1 deleted; sections: 0 moved, 1 changed, 0 added, 0 deleted\n"
                ))
        try fixture.session.restart(SIGKILL)
        #expect(
            try fixture.run("export", "d", "--format", "yaml")
                == Outcome(0, "sections:\n- header: H\n  rows:\n  - b\n  - name: n\n    text: c\n"))
    }
}
