// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabContract
import DBus
import Glibc
import Testing

/// Every command against one daemon.
///
/// Each test works on tables of its own and drops them.
@Suite(.serialized, .withDaemon) struct CommandTests {
    /// Creates `table` with `rows` in section 0 and returns the rows' ids.
    @discardableResult
    func make(_ table: String, _ rows: [String] = []) throws -> [UInt64] {
        #expect(try cli.run("create", table) == Outcome(0, ""))
        if rows.isEmpty { return [] }
        let added = try cli.run(["add", table] + rows)
        #expect(added.status == 0 && added.err.isEmpty)
        // The tests index these ids: a short answer fails the test, it does not crash the run.
        let made = try ids(added)
        try #require(made.count == rows.count, "\(rows.count) rows added, ids printed: \(added.out)")
        return made
    }

    /// The ids an `add` or `insert` printed, one `#ID` a line (and nothing else).
    func ids(_ outcome: Outcome) throws -> [UInt64] {
        try outcome.out.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map {
            try #require($0.hasPrefix("#") ? UInt64($0.dropFirst()) : nil, "not an id line: \($0)")
        }
    }

    /// Drops `tables`, ignoring failures (for cleanup).
    func drop(_ tables: String...) {
        for table in tables { _ = try? cli.run("drop", table) }
    }

    /// `tables`, `create`, `rename`, `drop`, with their errors.
    @Test func tablesCreateRenameDrop() throws {
        defer { drop("beta", "gamma", "alpha") }
        let before = try cli.run("tables").out
        #expect(before == "")
        #expect(try cli.run("create", "beta") == Outcome(0, ""))
        #expect(try cli.run("create", "alpha") == Outcome(0, ""))
        #expect(try cli.run("tables") == Outcome(0, "alpha\nbeta\n"))
        #expect(try cli.run("--json", "tables") == Outcome(0, "[\"alpha\",\"beta\"]\n"))
        #expect(try cli.run("tables", "--json") == Outcome(0, "[\"alpha\",\"beta\"]\n"))
        #expect(try cli.run("rename", "beta", "gamma") == Outcome(0, ""))
        #expect(try cli.run("tables") == Outcome(0, "alpha\ngamma\n"))
        #expect(
            try cli.run("create", "alpha")
                == Outcome(
                    1, "",
                    "cliptab: a table named \"alpha\" already exists (\(CliptabBus.errorPrefix)TableExists)\n"
                ))
        #expect(
            try cli.run("create", "a/b")
                == Outcome(
                    1, "",
                    "cliptab: table name \"a/b\" contains \"/\", which is not allowed (\(CliptabBus.errorPrefix)InvalidName)\n"
                ))
        #expect(try cli.run("drop", "gamma") == Outcome(0, ""))
        #expect(
            try cli.run("drop", "gamma")
                == Outcome(
                    1, "", "cliptab: no table named \"gamma\" (\(CliptabBus.errorPrefix)NoSuchTable)\n"))
        #expect(try cli.run("tables") == Outcome(0, "alpha\n"))
    }

    /// `show`: titles, numbered rows in one column, continuation lines, empty sections, JSON.
    @Test func showLaysOutSectionsAndRows() throws {
        defer { drop("layout", "bare") }
        let numbers = try make("layout", (0...10).map { "row \($0)" })
        #expect(
            try cli.run("section", "title", "layout", "0", "--header", "Numbers", "--footer", "eleven rows")
                .status == 0)
        #expect(try cli.run("section", "add", "layout", "--header", "Notes") == Outcome(0, "1\n"))
        let notes = try ids(cli.run("add", "layout", "--section", "1", "first line\nsecond\tline", ""))
        try #require(notes.count == 2, "\(notes)")
        #expect(notes.count == 2)
        #expect(try cli.run("section", "add", "layout") == Outcome(0, "2\n"))
        let expected = """
            == [0] Numbers
               0:0   row 0
               0:1   row 1
               0:2   row 2
               0:3   row 3
               0:4   row 4
               0:5   row 5
               0:6   row 6
               0:7   row 7
               0:8   row 8
               0:9   row 9
               0:10  row 10
            -- eleven rows
            == [1] Notes
               1:0   first line
                     second\tline
               1:1   
            == [2]
               (no rows)

            """
        #expect(try cli.run("show", "layout") == Outcome(0, expected))
        #expect(
            try cli.run("show", "layout", "--json").out
                == #"{"name":"layout","revision":6,"sections":[{"header":"Numbers","footer":"eleven rows","rows":["#
                + (0...10).map { #"{"id":\#(numbers[$0]),"text":"row \#($0)"}"# }.joined(separator: ",")
                + #"]},{"header":"Notes","footer":"","rows":[{"id":\#(notes[0]),"text":"first line\nsecond\tline"},"#
                + #"{"id":\#(notes[1]),"text":""}]},{"header":"","footer":"","rows":[]}]}"# + "\n")
        #expect(try cli.run("section", "rm", "bare", "0").status == 1)
        try make("bare")
        #expect(try cli.run("section", "rm", "bare", "0") == Outcome(0, ""))
        #expect(try cli.run("show", "bare") == Outcome(0, "(no sections)\n"))
        #expect(
            try cli.run("show", "bare", "--json")
                == Outcome(0, #"{"name":"bare","revision":1,"sections":[]}"# + "\n"))
    }

    /// `show` escapes control characters in cells and titles for people; `--json` and `get`
    /// keep the exact text.
    @Test func showEscapesControlCharacters() throws {
        defer { drop("controls") }
        let hostile = "red\u{1B}[31m\u{1B}]0;owned\u{07}\u{9B}2J\u{7F}\ttab"
        try make("controls", [hostile])
        #expect(try cli.run("section", "title", "controls", "0", "--header", "h\u{1B}c").status == 0)
        let shown = try cli.run("show", "controls")
        #expect(shown.status == 0)
        #expect(
            !shown.out.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B })
        #expect(shown.out == "== [0] h\\x1bc\n   0:0  red\\x1b[31m\\x1b]0;owned\\x07\\u{9b}2J\\x7f\ttab\n")
        #expect(try cli.run("get", "controls", "0:0") == Outcome(0, hostile))
        #expect(try cli.run("show", "controls", "--json").out.contains(#"\u001b[31m"#))
        // Bidirectional controls reorder the rest of the line (U+202E shows "txt.exe" as
        // "exe.txt"): written escaped as well.
        let reversing = "invoice\u{202E}fdp.exe \u{2066}x\u{2069} \u{200F}"
        try make("bidi", [reversing])
        defer { drop("bidi") }
        let bidi = try cli.run("show", "bidi")
        #expect(bidi.out == "== [0]\n   0:0  invoice\\u{202e}fdp.exe \\u{2066}x\\u{2069} \\u{200f}\n")
        #expect(try cli.run("get", "bidi", "0:0") == Outcome(0, reversing))
    }

    /// `get` writes the text byte for byte; every addressing form reaches the same cells.
    @Test func getPrintsTextExactly() throws {
        defer { drop("exact", "other") }
        let texts = ["line one\nline two\n", "\ttabbed,\tcomma, \"quoted\"\r\n", "ünïcödé ✓", ""]
        try make("exact", texts)
        #expect(try cli.run("section", "add", "exact", "--header", "a:b").status == 0)
        #expect(try cli.run("add", "exact", "--section", "@a:b", "x", "y").status == 0)
        for (index, text) in texts.enumerated() {
            #expect(try cli.run("get", "exact", "0:\(index)") == Outcome(0, text))
            #expect(try cli.run("get", "exact", "\(index)") == Outcome(0, text))
        }
        #expect(try cli.run("get", "exact", "-1:-1") == Outcome(0, "y"))
        #expect(try cli.run("get", "exact", "0:-4") == Outcome(0, texts[0]))
        #expect(try cli.run("get", "exact", "-2") == Outcome(0, texts[2]))
        #expect(try cli.run("get", "exact", "@a:b:0") == Outcome(0, "x"))
        #expect(try cli.run("get", "exact", "@a:b:-1") == Outcome(0, "y"))
        #expect(try cli.run("get", "exact", "@:1") == Outcome(0, texts[1]))
        let id = try #require(ids(cli.run("insert", "exact", "1:1", "by id")).first)
        #expect(try cli.run("get", "exact", "#\(id)") == Outcome(0, "by id"))
        #expect(
            try cli.run("--json", "get", "exact", "0:1")
                == Outcome(0, #"{"text":"\ttabbed,\tcomma, \"quoted\"\r\n"}"# + "\n"))
        try make("other", ["elsewhere"])
        #expect(
            try cli.run("get", "other", "#\(id)")
                == Outcome(
                    1, "",
                    "cliptab: row #\(id) is in table \"exact\", not in \"other\" (\(CliptabBus.errorPrefix)NoSuchRow)\n"
                )
        )
        #expect(
            try cli.run("get", "exact", "#99999999")
                == Outcome(
                    1, "", "cliptab: no row has the id 99999999 (\(CliptabBus.errorPrefix)NoSuchRow)\n"))
        #expect(
            try cli.run("get", "exact", "@Nope:0")
                == Outcome(
                    1, "",
                    "cliptab: table \"exact\" has no section with the header \"Nope\" (\(CliptabBus.errorPrefix)NoSuchSection)\n"
                ))
        #expect(
            try cli.run("get", "exact", "5:0")
                == Outcome(
                    1, "",
                    "cliptab: section index 5 is out of range (valid: 0...1 or -2...-1) (\(CliptabBus.errorPrefix)IndexOutOfRange)\n"
                ))
    }

    /// `add` with arguments and `-`; refused input adds nothing.
    @Test func addReadsStandardInput() throws {
        defer { drop("stdin") }
        try make("stdin")
        #expect(try ids(cli.run("add", "stdin", "-", input: "one\n\ntwo\tcols\nlast")).count == 4)
        let three = try ids(cli.run("add", "stdin", "first", "-", "after", input: "middle\n"))
        #expect(three.count == 3)
        #expect(try cli.run("--json", "add", "stdin", "-", input: "") == Outcome(0, "[]\n"))
        let json = try cli.run("add", "stdin", "--json", "j")
        #expect(json.status == 0 && json.out.hasPrefix("[") && json.out.hasSuffix("]\n"))
        #expect(try cli.run("get", "stdin", "#\(json.out.dropFirst().dropLast(2))") == Outcome(0, "j"))
        #expect(
            try cli.run("export", "stdin", "--format", "tsv").out
                == "section\theader\tfooter\trow\ttext\n0\t\t\t0\tone\n0\t\t\t1\t\n0\t\t\t2\ttwo\\tcols\n0\t\t\t3\tlast\n"
                + "0\t\t\t4\tfirst\n0\t\t\t5\tmiddle\n0\t\t\t6\tafter\n0\t\t\t7\tj\n")
        #expect(
            try cli.run("add", "stdin", "-", input: "ok\nbad\u{0}nul\n")
                == Outcome(
                    1, "",
                    "cliptab: standard input, line 2, contains a NUL byte, which cell text cannot hold\n"))
        let invalid = try runCliptab(
            ["add", "stdin", "-"], environment: cli.environment, input: [0x6f, 0x6b, 0x0a, 0xff])
        #expect(invalid == Outcome(1, "", "cliptab: standard input, line 2, is not valid UTF-8 text\n"))
        #expect(try cli.run("get", "stdin", "-1") == Outcome(0, "j"), "a refused add adds nothing")
        #expect(
            try cli.run("add", "nosuch", "x")
                == Outcome(
                    1, "", "cliptab: no table named \"nosuch\" (\(CliptabBus.errorPrefix)NoSuchTable)\n"))
    }

    /// `insert`, `set`, `rm` (a batch: all or nothing) and `mv`, by path and by id.
    @Test func insertSetRemoveMove() throws {
        defer { drop("edit") }
        let id = try make("edit", ["a", "b", "c", "d"])
        #expect(try ids(cli.run("insert", "edit", "0:0", "first")).count == 1)
        let appended = try cli.run("--json", "insert", "edit", "-1", "appended")
        #expect(appended.status == 0 && appended.out.hasPrefix("{\"id\":") && appended.out.hasSuffix("}\n"))
        #expect(try ids(cli.run("insert", "edit", "#\(id[1])", "before b")).count == 1)
        #expect(try cli.run("set", "edit", "-1", "last") == Outcome(0, ""))
        #expect(try cli.run("set", "edit", "#\(id[0])", "A") == Outcome(0, ""))
        #expect(
            try cli.run("show", "edit").out
                == "== [0]\n   0:0  first\n   0:1  A\n   0:2  before b\n   0:3  b\n   0:4  c\n   0:5  d\n   0:6  last\n"
        )
        #expect(try cli.run("rm", "edit", "0:0", "-1", "#\(id[2])") == Outcome(0, ""))
        #expect(
            try cli.run("show", "edit").out == "== [0]\n   0:0  A\n   0:1  before b\n   0:2  b\n   0:3  d\n")
        #expect(
            try cli.run("rm", "edit", "0:1", "1")
                == Outcome(
                    1, "",
                    "cliptab: row 0:1 is named twice in the batch (\(CliptabBus.errorPrefix)InvalidArgument)\n"
                ))
        #expect(
            try cli.run("rm", "edit", "0:1", "0:9")
                == Outcome(
                    1, "",
                    "cliptab: row index 9 is out of range (valid: 0...3 or -4...-1) (\(CliptabBus.errorPrefix)IndexOutOfRange)\n"
                ))
        #expect(
            try cli.run("show", "edit").out == "== [0]\n   0:0  A\n   0:1  before b\n   0:2  b\n   0:3  d\n",
            "all or nothing")
        #expect(try cli.run("mv", "edit", "0:0", "-1") == Outcome(0, ""))
        #expect(try cli.run("mv", "edit", "#\(id[3])", "0:0") == Outcome(0, ""))
        #expect(
            try cli.run("show", "edit").out == "== [0]\n   0:0  d\n   0:1  before b\n   0:2  b\n   0:3  A\n")
    }

    /// `rm-where`: dry runs, the numeric and text operators, the printed paths.
    @Test func removeWhere() throws {
        defer { drop("where") }
        try make("where", ["1", "2.5", "-3", "x10", "10"])
        #expect(try cli.run("rm-where", "where", ">", "2", "--dry-run") == Outcome(0, "0:1\n0:4\n"))
        #expect(
            try cli.run("--json", "rm-where", "where", "<=", "-3", "--dry-run")
                == Outcome(0, "[{\"section\":0,\"row\":2}]\n"))
        #expect(try cli.run("rm-where", "where", "matches", "^x", "--dry-run") == Outcome(0, "0:3\n"))
        #expect(try cli.run("rm-where", "where", "contains", "zzz") == Outcome(0, ""))
        #expect(try cli.run("rm-where", "where", ">", "2") == Outcome(0, "0:1\n0:4\n"))
        #expect(try cli.run("export", "where", "--format", "lines") == Outcome(0, "1\n-3\nx10\n"))
        let bad = try cli.run("rm-where", "where", "matches", "(")
        #expect(
            bad.status == 1 && bad.out.isEmpty
                && bad.err.hasSuffix("(\(CliptabBus.errorPrefix)InvalidArgument)\n"))
    }

    /// `section add`, `title`, `mv` and `rm`, by index and by header.
    @Test func sections() throws {
        defer { drop("sec") }
        try make("sec", ["r"])
        #expect(try cli.run("section", "add", "sec", "--header", "B", "--footer", "b") == Outcome(0, "1\n"))
        #expect(try cli.run("section", "add", "sec", "--at", "0", "--header", "A") == Outcome(0, "0\n"))
        #expect(
            try cli.run("--json", "section", "add", "sec", "--header", "C") == Outcome(0, "{\"index\":3}\n"))
        #expect(try cli.run("section", "title", "sec", "1", "--header", "Plain") == Outcome(0, ""))
        #expect(
            try cli.run("section", "title", "sec", "@B", "--header", "", "--footer", "") == Outcome(0, ""))
        #expect(
            try cli.run("show", "sec").out
                == "== [0] A\n   (no rows)\n== [1] Plain\n   1:0  r\n== [2]\n   (no rows)\n== [3] C\n   (no rows)\n"
        )
        #expect(try cli.run("section", "mv", "sec", "0", "-1") == Outcome(0, ""))
        #expect(try cli.run("section", "mv", "sec", "@C", "0") == Outcome(0, ""))
        #expect(
            try cli.run("show", "sec").out
                == "== [0] C\n   (no rows)\n== [1] Plain\n   1:0  r\n== [2]\n   (no rows)\n== [3] A\n   (no rows)\n"
        )
        #expect(try cli.run("section", "rm", "sec", "@A", "-2", "0") == Outcome(0, ""))
        #expect(try cli.run("show", "sec").out == "== [0] Plain\n   0:0  r\n")
        #expect(
            try cli.run("section", "rm", "sec", "0", "0")
                == Outcome(
                    1, "",
                    "cliptab: section 0 is named twice in the batch (index 0) (\(CliptabBus.errorPrefix)InvalidArgument)\n"
                )
        )
    }

    /// `actions` and `do`, on a table that allows everything and on a read-only one.
    @Test func actionsAndDo() throws {
        defer { drop("menu", "locked") }
        try make("menu", ["keep", "gone"])
        #expect(
            try cli.run("actions", "menu", "0:0")
                == Outcome(0, "copy\ncut\npaste\ndelete\nmove\nedit\ninsert\n"))
        #expect(
            try cli.run("--json", "actions", "menu", "-2")
                == Outcome(0, "[\"copy\",\"cut\",\"paste\",\"delete\",\"move\",\"edit\",\"insert\"]\n"))
        #expect(try cli.run("do", "menu", "delete", "0:1") == Outcome(0, "gone"))
        #expect(try cli.run("show", "menu").out == "== [0]\n   0:0  keep\n")
        #expect(
            try cli.run("do", "menu", "move", "0:0")
                == Outcome(
                    1, "",
                    "cliptab: action \"move\" needs more than an index path: call MoveRow instead (\(CliptabBus.errorPrefix)InvalidArgument)\n"
                ))
        try make("locked", ["read only"])
        try cli.cliptab.setAllowedActions("locked", ["copy"])
        #expect(try cli.run("actions", "locked", "0") == Outcome(0, "copy\n"))
        let refused = try cli.run("do", "locked", "delete", "0")
        #expect(
            refused.status == 1 && refused.out.isEmpty
                && refused.err.hasSuffix("(\(CliptabBus.errorPrefix)NotPermitted)\n"))
        let edit = try cli.run("set", "locked", "0", "changed")
        #expect(edit.status == 1 && edit.err.hasSuffix("(\(CliptabBus.errorPrefix)NotPermitted)\n"))
        #expect(try cli.run("get", "locked", "0") == Outcome(0, "read only"))
    }

    /// Without a display every clipboard command reports the clipboard unavailable (exit 1,
    /// message and error name), and cut deletes nothing.
    @Test func clipboardCommandsWithoutADisplay() throws {
        defer { drop("clip") }
        try make("clip", ["text"])
        let unavailable = Outcome(
            1, "",
            "cliptab: \(noDisplay) (\(CliptabBus.errorPrefix)ClipboardUnavailable)\n")
        #expect(try cli.run("copy", "clip", "0:0") == unavailable)
        #expect(try cli.run("cut", "clip", "0:0") == unavailable)
        #expect(try cli.run("paste", "clip") == unavailable)
        #expect(try cli.run("paste", "clip", "0:0") == unavailable)
        #expect(try cli.run("clip") == unavailable)
        #expect(try cli.run("do", "clip", "copy", "0") == unavailable)
        #expect(try cli.run("show", "clip").out == "== [0]\n   0:0  text\n", "cut deleted nothing")
        // Errors about the cell come before the clipboard is touched.
        #expect(
            try cli.run("copy", "clip", "0:5")
                == Outcome(
                    1, "",
                    "cliptab: row index 5 is out of range (valid: 0...0 or -1...-1) (\(CliptabBus.errorPrefix)IndexOutOfRange)\n"
                ))
    }

    /// `export` and `import` through stdout, stdin and files, in each format.
    @Test func exportAndImport() throws {
        defer { drop("src", "copy", "fromlines") }
        try make("src", ["a", "multi\nline"])
        #expect(try cli.run("section", "title", "src", "0", "--header", "H", "--footer", "F").status == 0)
        let json = try cli.run("export", "src")
        #expect(json.status == 0 && json.err.isEmpty)
        #expect(try cli.run("export", "src", "--format", "json") == json)
        #expect(json.out.hasPrefix("{\n  \"name\": \"src\",\n"))
        let file = cli.data.appending("src.json")
        #expect(try cli.run("export", "src", "-o", file) == Outcome(0, ""))
        #expect(try cli.run("import", "copy", file) == Outcome(0, "imported 2 rows into copy\n"))
        #expect(try cli.run("show", "copy") == cli.run("show", "src"))
        #expect(
            try cli.run("--json", "import", "copy", "-", "--replace", input: json.out)
                == Outcome(0, "{\"rows\":2}\n"))
        #expect(try cli.run("show", "copy") == cli.run("show", "src"))
        #expect(
            try cli.run("import", "fromlines", "--format", "lines", input: "x\n## Shell\nls\n")
                == Outcome(0, "imported 2 rows into fromlines\n"))
        #expect(try cli.run("show", "fromlines").out == "== [0]\n   0:0  x\n== [1] Shell\n   1:0  ls\n")
        #expect(try cli.run("export", "fromlines", "--format", "lines") == Outcome(0, "x\n## Shell\nls\n"))
        let refused = try cli.run(
            "export", "src", "--format", "lines", "--output", cli.data.appending("never"))
        #expect(refused.status == 1 && refused.err.hasSuffix("(\(CliptabBus.errorPrefix)InvalidArgument)\n"))
        #expect(access(cli.data.appending("never"), F_OK) != 0, "a failed export writes no file")
        #expect(
            try cli.run("import", "copy", "--format", "json", input: "{")
                == Outcome(
                    1, "",
                    "cliptab: bad JSON at byte offset 1: expected a string key in double quotes, found the end of the data (\(CliptabBus.errorPrefix)InvalidArgument)\n"
                ))
        #expect(
            try cli.run("import", "copy", cli.data.appending("missing.json"))
                == Outcome(
                    1, "",
                    "cliptab: cannot open \(cli.data.appending("missing.json")): No such file or directory\n")
        )
    }

    /// `status`, `reload` and `menu` (without a display).
    @Test func statusReloadMenu() throws {
        defer { drop("st") }
        try make("st")
        let tables = try cli.run("tables").out.split(separator: "\n").joined(separator: ", ")
        let count = try cli.run("tables").out.split(separator: "\n").count
        #expect(
            try cli.run("status")
                == Outcome(
                    0,
                    """
                    cliptab:    0.1.0
                    cliptabd:   0.1.0 on io.github.cliptab.Cliptab1, API version 4
                    tables:     \(count) (\(tables))
                    clipboard:  unavailable (\(noDisplay))
                    backend:    x11 (no display)

                    """))
        let json = try cli.run("status", "--json")
        #expect(json.status == 0)
        #expect(
            json.out.hasPrefix("{\"cliptab\":\"0.1.0\",\"version\":\"0.1.0\",\"api_version\":4,\"tables\":[")
                && json.out.hasSuffix(
                    "],\"clipboard\":{\"state\":\"unavailable\",\"backend\":\"x11 (no display)\",\"message\":\"\(noDisplay)\"},\"properties\":{}}\n"
                ))
        #expect(try cli.run("reload") == Outcome(0, ""))
        #expect(try cli.run("reload", "--json") == Outcome(0, "{\"problems\":[]}\n"))
        // The popup needs a display (MenuTests show it on one); without, it says so.
        #expect(
            try cli.run("menu", "st")
                == Outcome(1, "", "cliptab menu: cannot open the X display: DISPLAY is not set\n"))
        #expect(
            try cli.run("menu", "nosuch")
                == Outcome(
                    1, "", "cliptab: no table named \"nosuch\" (\(CliptabBus.errorPrefix)NoSuchTable)\n"))
    }

    /// The client never touches a store: the data directory its environment names stays
    /// empty, and the binary does not even link SQLite (nor X11, nor Foundation).
    @Test func neverOpensTheStore() throws {
        #expect(try cli.run("tables").status == 0)
        #expect(access(cli.data.appending("client-data"), F_OK) != 0)
    }
}

/// What a daemon started without DISPLAY says of its clipboard.
let noDisplay =
    "no X display: DISPLAY was not set when cliptabd started (import it into the user manager, then restart cliptabd)"
