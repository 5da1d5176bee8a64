// SPDX-License-Identifier: MIT
import DBus
import DaemonTestSupport
import Foundation
import Posix
import TestSupport
import Testing

/// Tables linked to files (issue 39): real inotify on a real folder, editor stand-ins that
/// save by rename and in place, the built `cliptabd` and `cliptab`, and real `git` between
/// two machines.
@Suite(.serialized) struct LinkedTableTests {
    static let snippets = """
        # My snippets, kept in my dotfiles.
        # Edited by hand and by cliptab.
        rows:
          - name: sig
            text: Best regards, Ada
          - ada@example.com
          - git log --oneline

        """

    /// Saves `text` to `path` as most editors do: a new file renamed over the old one.
    static func saveByRename(_ path: String, _ text: String) throws {
        try runShell(#"printf %s "$2" > "$1.tmp" && mv "$1.tmp" "$1""#, path, text)
    }

    /// Saves `text` to `path` as vim with backupcopy=no: the old file renamed to a backup,
    /// a new file written under the name, the backup removed.
    static func saveLikeVim(_ path: String, _ text: String) throws {
        try runShell(#"mv "$1" "$1~" && printf %s "$2" > "$1" && rm "$1~""#, path, text)
    }

    /// Rewrites `path` in place, as `git checkout` and `git pull` do.
    static func rewriteInPlace(_ path: String, _ text: String) throws {
        try runShell(#"printf %s "$2" > "$1""#, path, text)
    }

    static func runShell(_ script: String, _ arguments: String...) throws {
        let result = try ChildProcess.run("/bin/sh", ["-c", script, "sh"] + arguments)
        guard result.termination == .exited(0) else { throw FixtureError("sh failed: \(result.errorText)") }
    }

    static func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    /// The texts of table `name`'s rows, nil when it does not exist.
    static func texts(_ machine: Machine, _ name: String) throws -> [String]? {
        try TableSnapshot.read(machine.daemon.client, name)?.sections.flatMap { $0.rows.map(\.text) }
    }

    /// The ids of table `name`'s rows by text.
    static func ids(_ machine: Machine, _ name: String) throws -> [String: UInt64] {
        let rows = try TableSnapshot.read(machine.daemon.client, name)?.sections.flatMap(\.rows) ?? []
        return Dictionary(rows.map { ($0.text, $0.id) }) { first, _ in first }
    }

    /// A file in the folder at the start is a table; saved by rename, by vim's way and in
    /// place, each change reaches the table with the ids of the rows that stayed.
    @Test func fileLeadsThroughEverySaveStyle() throws {
        let machine = try Machine(name: "leads") { _, folder in
            try Self.snippets.write(toFile: folder + "/snippets.yaml", atomically: false, encoding: .utf8)
        }
        defer { machine.stop() }
        #expect(
            try Self.texts(machine, "snippets") == [
                "Best regards, Ada", "ada@example.com", "git log --oneline",
            ])
        let before = try Self.ids(machine, "snippets")
        let path = machine.file("snippets.yaml")

        try Self.saveByRename(
            path, Self.snippets.replacingOccurrences(of: "ada@example.com", with: "ada@work.example"))
        #expect(
            eventually(within: 20_000) {
                (try? Self.texts(machine, "snippets"))?.contains("ada@work.example") == true
            })
        var after = try Self.ids(machine, "snippets")
        #expect(after["Best regards, Ada"] == before["Best regards, Ada"])
        #expect(after["git log --oneline"] == before["git log --oneline"])
        #expect(after["ada@work.example"] == before["ada@example.com"], "an edit in place keeps the row's id")

        try Self.saveLikeVim(
            path, Self.read(path).replacingOccurrences(of: "git log --oneline", with: "git status"))
        #expect(
            eventually(within: 20_000) {
                (try? Self.texts(machine, "snippets"))?.contains("git status") == true
            })
        try Self.rewriteInPlace(path, Self.read(path) + "  - a row added in place\n")
        #expect(
            eventually(within: 20_000) {
                (try? Self.texts(machine, "snippets"))?.last == "a row added in place"
            })
        after = try Self.ids(machine, "snippets")
        #expect(after["Best regards, Ada"] == before["Best regards, Ada"])
        #expect(try machine.cliptab("get", "snippets", "0:0").outputText == "Best regards, Ada")

        // A new file is a new table; a file removed drops its table, logged with its rows.
        try Self.saveByRename(machine.file("shell.yaml"), "rows:\n  - ls -la\n")
        #expect(eventually(within: 20_000) { (try? Self.texts(machine, "shell")) == ["ls -la"] })
        unlink(machine.file("shell.yaml"))
        #expect(eventually(within: 20_000) { (try? Self.texts(machine, "shell")) == .some(nil) })
        #expect(
            machine.daemon.log.contains("dropped table \"shell\" with its 1 rows"), "\(machine.daemon.log)")
        // Removed while cliptabd was stopped (a git pull meanwhile): dropped at the start.
        machine.daemon.kill(SIGTERM)
        unlink(path)
        try machine.daemon.start()
        #expect(try Self.texts(machine, "snippets") == nil)
        #expect(
            machine.daemon.log.contains("dropped table \"snippets\" with its 4 rows"), "\(machine.daemon.log)"
        )
    }

    /// A change made with cliptab is in the file when the command returns, the file's leading
    /// comments kept; cliptabd does not apply its own write again.
    @Test func changesThroughCliptabGoToTheFile() throws {
        let machine = try Machine(name: "writes") { _, folder in
            try Self.snippets.write(toFile: folder + "/snippets.yaml", atomically: false, encoding: .utf8)
        }
        defer { machine.stop() }
        let path = machine.file("snippets.yaml")
        let add = try machine.cliptab("add", "snippets", "a row from the CLI")
        #expect(add.termination == .exited(0), "\(add.errorText)")
        let text = Self.read(path)
        #expect(
            text.hasPrefix("# My snippets, kept in my dotfiles.\n# Edited by hand and by cliptab.\n"),
            "\(text)")
        #expect(text.contains("- a row from the CLI"), "\(text)")
        let export = try machine.cliptab("export", "snippets", "--format", "yaml").outputText
        #expect(text.hasSuffix(export), "the file is the export after its comments:\n\(text)\n\(export)")
        let revision = try TableSnapshot.read(machine.daemon.client, "snippets")?.revision
        // A marker file changed after the write: once it is applied, the write's own events
        // have been read too, and the table must not have been applied again.
        try Self.saveByRename(machine.file("marker.yaml"), "rows:\n  - m\n")
        #expect(eventually(within: 20_000) { (try? Self.texts(machine, "marker")) == ["m"] })
        #expect(try TableSnapshot.read(machine.daemon.client, "snippets")?.revision == revision)
        #expect(!machine.daemon.log.contains("applied \(path)"))
        // Moves and deletes, as the menu makes them, go to the file too.
        #expect(try machine.cliptab("mv", "snippets", "0:3", "0:0").termination == .exited(0))
        #expect(Self.read(path).contains("rows:\n- a row from the CLI\n"), "\(Self.read(path))")
        #expect(try machine.cliptab("rm", "snippets", "0:0").termination == .exited(0))
        #expect(!Self.read(path).contains("a row from the CLI"))
    }

    /// A file that does not parse leaves the table as it was; the problem with its line and
    /// column is in the log, `cliptab status` and `Reload`; changes to the table are refused
    /// naming the file, which is never overwritten; fixing it applies it.
    @Test func aBrokenFileLosesNothing() throws {
        let machine = try Machine(name: "broken") { _, folder in
            try Self.snippets.write(toFile: folder + "/snippets.yaml", atomically: false, encoding: .utf8)
        }
        defer { machine.stop() }
        let path = machine.file("snippets.yaml")
        let broken = "rows:\n  - one\n  - text: two\n    txt: typo\n"
        try Self.saveByRename(path, broken)
        #expect(
            eventually(within: 20_000) {
                (try? machine.cliptab("status").outputText)?.contains("invalid") == true
            })
        let status = try machine.cliptab("status").outputText
        #expect(
            status.contains("linked:")
                && status.contains("snippets: \(path) (invalid, changes refused: \(path): line 4, column 5"),
            "\(status)")
        #expect(
            try Self.texts(machine, "snippets") == [
                "Best regards, Ada", "ada@example.com", "git log --oneline",
            ])
        #expect(machine.daemon.log.contains("\(path): line 4, column 5"), "\(machine.daemon.log)")
        #expect(try machine.daemon.reload().contains { $0.hasPrefix("\(path): line 4, column 5") })
        let add = try machine.cliptab("add", "snippets", "lost?")
        #expect(add.termination == .exited(1))
        #expect(
            add.errorText.contains("LinkedFileInvalid") && add.errorText.contains(path), "\(add.errorText)")
        #expect(Self.read(path) == broken, "the half-edited file is never overwritten")
        // git's conflict markers are never taken as content either.
        try Self.rewriteInPlace(
            path, "<<<<<<< HEAD\nrows:\n  - mine\n=======\nrows:\n  - theirs\n>>>>>>> origin\n")
        #expect(
            eventually(within: 20_000) {
                (try? machine.cliptab("status").outputText)?.contains("merge conflict marker") == true
            })
        #expect(
            try Self.texts(machine, "snippets") == [
                "Best regards, Ada", "ada@example.com", "git log --oneline",
            ])
        try Self.saveByRename(path, "rows:\n  - fixed\n")
        #expect(eventually(within: 20_000) { (try? Self.texts(machine, "snippets")) == ["fixed"] })
        #expect(try machine.cliptab("add", "snippets", "again").termination == .exited(0))
        #expect(Self.read(path).contains("- again"))
    }

    /// Conflict copies are listed with a diff command and logged once; names that are not
    /// tables and secret tables' files are reported and left alone.
    @Test func conflictCopiesAndFilesLeftAlone() throws {
        let machine = try Machine(name: "alone", config: "[table \"vault\"]\nsecret = true\n") { _, folder in
            try Self.snippets.write(toFile: folder + "/snippets.yaml", atomically: false, encoding: .utf8)
            try "rows:\n  - pw\n".write(toFile: folder + "/vault.yaml", atomically: false, encoding: .utf8)
            try "rows:\n  - x\n".write(
                toFile: folder + "/bad\u{1}name.yaml", atomically: false, encoding: .utf8)
            try "rows:\n  - y\n".write(toFile: folder + "/.hidden.yaml", atomically: false, encoding: .utf8)
        }
        defer { machine.stop() }
        let copy = machine.file("snippets.sync-conflict-20260101-120000-ABCDEFG.yaml")
        try Self.saveByRename(copy, "rows:\n  - theirs\n")
        #expect(
            eventually(within: 20_000) {
                (try? machine.cliptab("status").outputText)?.contains("conflict:") == true
            })
        let status = try machine.cliptab("status").outputText
        #expect(
            status.contains("\(copy); compare: diff \(machine.file("snippets.yaml")) \(copy)"), "\(status)")
        #expect(status.contains("vault.yaml: not linked: table \"vault\" is secret"), "\(status)")
        #expect(status.contains("not linked: the name is not a table name"), "\(status)")
        #expect(!status.contains(".hidden"))
        #expect(try Self.texts(machine, "vault") == [], "the secret table is left as it was")
        #expect(try Self.texts(machine, "snippets")?.contains("theirs") == false)
        let json = try machine.cliptab("status", "--json").outputText
        #expect(json.contains("\"links\":{\"folder\":\"\(machine.folder)\""), "\(json)")
        // Logged once, however often the folder changes.
        try Self.saveByRename(machine.file("other.yaml"), "rows:\n  - o\n")
        #expect(eventually(within: 20_000) { (try? Self.texts(machine, "other")) == ["o"] })
        try Self.saveByRename(copy, "rows:\n  - theirs again\n")
        try Self.saveByRename(machine.file("other.yaml"), "rows:\n  - o2\n")
        #expect(eventually(within: 20_000) { (try? Self.texts(machine, "other")) == ["o2"] })
        #expect(machine.daemon.log.components(separatedBy: "\(copy): a sync conflict copy").count == 2)
        #expect(try machine.cliptab("link", "vault").errorText.contains("secret"))
    }

    /// `cliptab link` writes a table to its file (never over one), `unlink` stops following
    /// it over restarts with both kept, and `edit` opens a linked table's file in place.
    @Test func linkUnlinkAndEdit() throws {
        let machine = try Machine(name: "link")
        defer { machine.stop() }
        #expect(try machine.cliptab("create", "notes").termination == .exited(0))
        #expect(try machine.cliptab("add", "notes", "first note").termination == .exited(0))
        let path = machine.file("notes.yaml")
        let linked = try machine.cliptab("link", "notes")
        #expect(linked.outputText == "linked notes to \(path)\n", "\(linked.errorText)")
        #expect(Self.read(path) == "rows:\n- first note\n")
        #expect(try machine.cliptab("status").outputText.contains("notes: \(path) (following)"))
        // Never over a file.
        #expect(try machine.cliptab("create", "other").termination == .exited(0))
        try "keep me\n".write(toFile: machine.file("other.yaml.orig"), atomically: false, encoding: .utf8)
        try Self.rewriteInPlace(machine.folder + "/../elsewhere.yaml", "mine\n")
        let refused = try machine.cliptab("link", "other", machine.folder + "/../elsewhere.yaml")
        #expect(
            refused.termination == .exited(1) && refused.errorText.contains("FileExists"),
            "\(refused.errorText)")
        #expect(Self.read(machine.folder + "/../elsewhere.yaml") == "mine\n")
        // A file outside the folder: written there, a symbolic link in the folder; followed.
        let outside = machine.daemon.home.appending("dotfiles-other.yaml")
        #expect(try machine.cliptab("link", "other", outside).termination == .exited(0))
        #expect(FileContents.realPath(machine.file("other.yaml")) == FileContents.realPath(outside))
        // Once a marker saved later is applied, the link's own creation has been read: the
        // change below can reach the table only through the watch on the target's folder.
        try Self.saveByRename(machine.file("marker.yaml"), "rows:\n  - m\n")
        #expect(eventually(within: 20_000) { (try? Self.texts(machine, "marker")) == ["m"] })
        try Self.saveByRename(outside, "rows:\n  - through the link\n")
        #expect(eventually(within: 20_000) { (try? Self.texts(machine, "other")) == ["through the link"] })

        // edit opens the file itself; the daemon applies it when saved.
        let editor = machine.daemon.home.appending("editor.sh")
        try
            "#!/bin/sh\nprintf 'rows:\\n  - first note\\n  - edited in place\\n' > \"$1.new\" && mv \"$1.new\" \"$1\"\n"
            .write(toFile: editor, atomically: false, encoding: .utf8)
        chmod(editor, 0o755)
        let edit = try machine.cliptab("edit", "notes", environment: ["EDITOR": editor])
        #expect(
            edit.outputText == "saved \(path); cliptabd applies it to table \"notes\"\n", "\(edit.errorText)")
        #expect(
            eventually(within: 20_000) {
                (try? Self.texts(machine, "notes")) == ["first note", "edited in place"]
            })

        // unlink: both stay; the file is no longer followed, even after a restart.
        #expect(
            try machine.cliptab("unlink", "notes").outputText
                == "unlinked notes; the file and the table stay\n")
        try Self.saveByRename(path, "rows:\n  - not followed\n")
        try machine.daemon.restart(SIGTERM)
        #expect(try Self.texts(machine, "notes") == ["first note", "edited in place"])
        #expect(try machine.cliptab("status").outputText.contains("not followed (cliptab unlink notes)"))
        #expect(try machine.cliptab("add", "notes", "table only").termination == .exited(0))
        #expect(Self.read(path) == "rows:\n  - not followed\n")
        #expect(try machine.cliptab("link", "notes").errorText.contains("FileExists"))
    }

    /// A crash mid-write leaves the old file or the new one: a temporary file left behind is
    /// removed at the next start, and the store agrees with the file; killed during a run of
    /// changes, the file parses and the store equals it after the restart.
    @Test func killNineLeavesAWholeFile() throws {
        let machine = try Machine(name: "kill") { _, folder in
            try Self.snippets.write(toFile: folder + "/snippets.yaml", atomically: false, encoding: .utf8)
        }
        defer { machine.stop() }
        let path = machine.file("snippets.yaml")
        machine.daemon.kill(SIGKILL)
        let stale = machine.file(FileContents.temporaryPrefix + "snippets.yaml.Ab12Cd")
        try "rows:\n  - torn hal".write(toFile: stale, atomically: false, encoding: .utf8)
        try machine.daemon.start()
        #expect(access(stale, F_OK) != 0, "the stale temporary file is removed")
        #expect(
            try Self.texts(machine, "snippets") == [
                "Best regards, Ada", "ada@example.com", "git log --oneline",
            ])

        // Killed while clients add rows as fast as they can.
        let writer = try ChildProcess.spawn(
            "/bin/sh",
            [
                "-c",
                #"i=0; while [ $i -lt 400 ]; do "$0" add snippets "row $i" || exit 0; i=$((i+1)); done"#,
                BuiltProducts.path(of: "cliptab"),
            ],
            environment: machine.clientEnvironment, stdin: .null, stdout: .null, stderr: .null)
        #expect(eventually(within: 20_000) { ((try? Self.texts(machine, "snippets"))?.count ?? 0) > 20 })
        machine.daemon.kill(SIGKILL)
        _ = writer.waitForExit()
        let file = Self.read(path)
        #expect(file.hasPrefix("# My snippets") && file.hasSuffix("\n"), "\(file)")
        try machine.daemon.start()
        let export = try machine.cliptab("export", "snippets", "--format", "yaml").outputText
        #expect(file.hasSuffix(export), "the store agrees with the file at the next start")
        #expect(try machine.cliptab("status").outputText.contains("(following)"))
    }
}
