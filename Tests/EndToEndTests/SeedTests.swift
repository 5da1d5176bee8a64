// SPDX-License-Identifier: MIT
import Testing

/// The worked examples of the seed recipes, done through the CLI only.
@Suite(.serialized, .withDaemon) struct SeedTests {
    /// 4.7: three sections of three cells; move section 1 to position 3, cell 1 to cell 2,
    /// and cell 2 of section 1 to cell 1 of section 2.
    @Test func movingCellsAndSections() throws {
        defer { _ = try? cli.run("drop", "seed") }
        #expect(try cli.run("create", "seed") == Outcome(0, ""))
        #expect(try cli.run("section", "title", "seed", "0", "--header", "Section 1") == Outcome(0, ""))
        #expect(try cli.run("section", "add", "seed", "--header", "Section 2") == Outcome(0, "1\n"))
        #expect(try cli.run("section", "add", "seed", "--header", "Section 3") == Outcome(0, "2\n"))
        for section in 1...3 {
            let cells = (1...3).map { "Section \(section) Cell \($0)" }
            #expect(try cli.run(["add", "seed", "--section", "@Section \(section)"] + cells).status == 0)
        }
        #expect(try cli.run("section", "mv", "seed", "0", "2") == Outcome(0, ""))
        #expect(try cli.run("mv", "seed", "0:0", "0:1") == Outcome(0, ""))
        #expect(try cli.run("mv", "seed", "0:1", "1:0") == Outcome(0, ""))
        let expected = """
            == [0] Section 2
               0:0  Section 2 Cell 2
               0:1  Section 2 Cell 3
            == [1] Section 3
               1:0  Section 2 Cell 1
               1:1  Section 3 Cell 1
               1:2  Section 3 Cell 2
               1:3  Section 3 Cell 3
            == [2] Section 1
               2:0  Section 1 Cell 1
               2:1  Section 1 Cell 2
               2:2  Section 1 Cell 3

            """
        #expect(try cli.run("show", "seed") == Outcome(0, expected))
    }

    /// 4.8 and 4.5: the Odd/Even table; find "Odd Numbers" by header, delete that section,
    /// then every number greater than 2.
    @Test func oddAndEvenNumbers() throws {
        defer { _ = try? cli.run("drop", "numbers") }
        let lines = "## Even Numbers\n0\n2\n4\n6\n## Odd Numbers\n1\n3\n5\n7\n"
        #expect(
            try cli.run("import", "numbers", "-", "--format", "lines", input: lines)
                == Outcome(0, "imported 8 rows into numbers\n"))
        #expect(try cli.run("get", "numbers", "@Odd Numbers:0") == Outcome(0, "1"))
        #expect(
            try cli.run("rm-where", "numbers", ">", "2", "--dry-run")
                == Outcome(0, "0:2\n0:3\n1:1\n1:2\n1:3\n"))
        #expect(try cli.run("section", "rm", "numbers", "@Odd Numbers") == Outcome(0, ""))
        #expect(try cli.run("rm-where", "numbers", ">", "2") == Outcome(0, "0:2\n0:3\n"))
        #expect(try cli.run("show", "numbers") == Outcome(0, "== [0] Even Numbers\n   0:0  0\n   0:1  2\n"))
    }

    /// 4.3, 4.4 and 4.6: a row found again by its id after the table changed; the context
    /// menu; swipe to delete.
    @Test func idsMenusAndDeleting() throws {
        defer { _ = try? cli.run("drop", "cells") }
        #expect(try cli.run("create", "cells") == Outcome(0, ""))
        let added = try cli.run("add", "cells", "first", "tagged", "last")
        let tagged = try #require(added.out.split(separator: "\n").dropFirst().first)
        #expect(try cli.run("insert", "cells", "0", "new first").status == 0)
        #expect(try cli.run("mv", "cells", "2", "-1") == Outcome(0, ""))
        #expect(try cli.run("get", "cells", String(tagged)) == Outcome(0, "tagged"))
        #expect(
            try cli.run("actions", "cells", String(tagged))
                == Outcome(0, "copy\ncut\npaste\ndelete\nmove\nedit\ninsert\n"))
        #expect(try cli.run("do", "cells", "delete", String(tagged)) == Outcome(0, "tagged"))
        #expect(try cli.run("rm", "cells", "0") == Outcome(0, ""))
        #expect(try cli.run("show", "cells") == Outcome(0, "== [0]\n   0:0  first\n   0:1  last\n"))
    }
}
