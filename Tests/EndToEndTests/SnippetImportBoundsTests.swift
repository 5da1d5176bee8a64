// SPDX-License-Identifier: MIT
import Glibc
import Posix
import TestSupport
import Testing

/// `cliptab import --from` at the reader's bounds, with a relative path, and espanso 2's
/// form variables, through the built CLI and a daemon on a private bus.
@Suite(.serialized, .withDaemon) struct SnippetImportBoundsTests {
    /// Writes `text` at `name` below the test's data folder (folders made on the way).
    @discardableResult
    private func write(_ name: String, _ text: String) -> String {
        cli.writeDataFile(name, bytes: Array(text.utf8))
    }

    private func yaml(_ table: String) throws -> String { try cli.yaml(table) }

    /// Runs `cliptab import` with a generous bound: the daemon reads thousands of files.
    private func importing(_ arguments: String...) throws -> Outcome {
        try runCliptab(["import"] + arguments, environment: cli.environment, timeoutMilliseconds: 300_000)
    }

    @Test func aFolderAtTheFileBoundImportsWholeAndOnePastIsRefusedWhole() throws {
        for n in 0..<10_000 { write("many/r\(n)", "text \(n)") }
        let path = cli.data.appending("many")
        let outcome = try importing("many", path, "--from", "folder")
        #expect(outcome.status == 0, "\(outcome)")
        #expect(
            outcome.out.hasPrefix(
                "imported 10000 rows in 1 section: 0 moved, 0 changed, 10000 added, 0 deleted"),
            "\(outcome)")
        let before = try yaml("many")
        #expect(before.hasSuffix("- name: r9999\n  text: text 9999\n"), "\(before.suffix(200))")
        // One file more, and one changed: refused, and neither reaches the table.
        write("many/r0", "changed")
        write("many/r10000", "text 10000")
        let past = try importing("many", path, "--from", "folder")
        #expect(past.status != 0 && past.err.contains("more than 10000"), "\(past)")
        #expect(past.err.contains("nothing was imported") || past.out.isEmpty, "\(past)")
        #expect(try yaml("many") == before)
        let fresh = try importing("fresh", path, "--from", "folder")
        #expect(fresh.status != 0, "\(fresh)")
        #expect(try !cli.run("tables").out.contains("fresh"))
    }

    @Test func aRelativePathIsReadFromTheWorkingDirectory() throws {
        write("work/notes/greeting.txt", "hello")
        write("work/deeper/.keep", "")
        // The built cliptab run by a shell that first moves to another working directory.
        func run(in directory: String, _ path: String) throws -> Outcome {
            Outcome(
                try ChildProcess.run(
                    "/bin/sh",
                    [
                        "-c", "cd \"$1\" && exec \"$2\" import rel \"$3\" --from folder", "sh", directory,
                        cliptabPath, path,
                    ],
                    environment: cli.environment, timeoutMilliseconds: 60_000))
        }
        let here = try run(in: cli.data.appending("work"), "notes")
        #expect(here.status == 0 && here.out.hasPrefix("imported 1 row in 1 section"), "\(here)")
        write("work/notes/farewell.txt", "bye")
        let above = try run(in: cli.data.appending("work/deeper"), "../notes")
        #expect(above.status == 0 && above.out.hasPrefix("imported 2 rows in 1 section"), "\(above)")
        #expect(
            try yaml("rel") == """
                rows:
                - name: greeting
                  text: hello
                - name: farewell
                  text: bye

                """)
    }

    @Test func espanso2FormVariablesBecomeInputs() throws {
        let path = write(
            "form.yml",
            """
            matches:
              - trigger: ":hi"
                replace: "Hi {{form1.name}}, from {{form1.city}}"
                vars:
                  - name: form1
                    type: form
                    params:
                      layout: "Name: [[name]] City: [[city]]"
                      fields:
                        city:
                          default: "Paris"
            """)
        let outcome = try cli.run("import", "forms", path, "--from", "espanso")
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.out.split(separator: "\n").count == 1, "\(outcome)")
        #expect(
            try yaml("forms") == """
                templates: true
                sections:
                - header: form
                  rows:
                  - name: hi
                    text: Hi {input:name}, from {input:city=Paris}

                """)
    }
}
