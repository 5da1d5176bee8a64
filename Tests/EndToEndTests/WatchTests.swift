// SPDX-License-Identifier: MIT
import Glibc
import Posix
import Testing

/// `watch`: one line per signal, in order, until interrupted; clean ends.
@Suite(.serialized, .withDaemon) struct WatchTests {
    /// A running `cliptab watch`, started and synchronised on its "watching" line.
    final class Watcher {
        /// The `cliptab watch` process.
        let process: ChildProcess
        private var outBuffer: [UInt8] = []
        private var errBuffer: [UInt8] = []

        /// Starts `cliptab` with `arguments`, its stdout and stderr on pipes.
        init(_ arguments: [String]) throws {
            process = try ChildProcess.spawn(
                cliptabPath, arguments, environment: cli.environment, stdout: .pipe, stderr: .pipe)
        }

        /// The next line on stderr.
        func errorLine() -> String? { readLine(from: process.standardError, buffer: &errBuffer) }

        /// The next `count` lines on stdout.
        func lines(_ count: Int) -> [String] {
            (0..<count).compactMap { _ in readLine(from: process.standardOutput, buffer: &outBuffer) }
        }

        /// True when nothing more arrives on stdout within `milliseconds`.
        func isQuiet(for milliseconds: Int = 300) -> Bool {
            readLine(from: process.standardOutput, buffer: &outBuffer, timeoutMilliseconds: milliseconds)
                == nil
        }

        deinit { process.terminate() }
    }

    /// Every kind of change, one line each, in order; SIGINT ends the watch with 0.
    @Test func everySignalOnItsLine() throws {
        defer { for table in ["seen", "other name", "moved"] { _ = try? cli.run("drop", table) } }
        let watcher = try Watcher(["watch"])
        #expect(watcher.errorLine() == "cliptab: watching every table; Ctrl-C stops")
        for arguments in [
            ["create", "seen"], ["add", "seen", "a", "b", "c"], ["mv", "seen", "0:0", "0:2"],
            ["set", "seen", "1", "B"], ["section", "add", "seen", "--header", "S"],
            ["mv", "seen", "0:0", "1:0"],
            ["section", "mv", "seen", "1", "0"], ["section", "title", "seen", "0", "--footer", "f"],
            ["rm", "seen", "1:0", "1:1"], ["section", "rm", "seen", "1"], ["create", "other name"],
            ["rename", "other name", "moved"], ["drop", "moved"],
        ] {
            #expect(try cli.run(arguments).status == 0, "\(arguments)")
        }
        #expect(
            watcher.lines(13) == [
                "TableAdded seen",
                "RowsInserted seen r1 0:0 0:1 0:2",
                "RowMoved seen r2 0:0 -> 0:2",
                "RowsChanged seen r3 0:1",
                "SectionsInserted seen r4 1",
                "RowMoved seen r5 0:0 -> 1:0",
                "SectionMoved seen r6 1 -> 0",
                "SectionChanged seen r7 0",
                "RowsDeleted seen r8 1:0 1:1",
                "SectionsDeleted seen r9 1",
                "TableAdded 'other name'",
                "TableRenamed 'other name' moved",
                "TableRemoved moved",
            ])
        watcher.process.signal(SIGINT)
        #expect(watcher.process.waitForExit(timeoutMilliseconds: 5000) == .exited(0))
        #expect(watcher.errorLine() == nil, "nothing more on stderr")
    }

    /// `--json watch TABLE`: only that table, one object a line, still after a rename.
    @Test func oneTableAsJSONFollowedThroughRenames() throws {
        defer { for table in ["mine", "theirs", "renamed"] { _ = try? cli.run("drop", table) } }
        #expect(try cli.run("create", "mine").status == 0)
        let watcher = try Watcher(["--json", "watch", "mine"])
        #expect(watcher.errorLine() == "cliptab: watching table mine; Ctrl-C stops")
        #expect(try cli.run("create", "theirs").status == 0)
        #expect(try cli.run("add", "theirs", "x").status == 0)
        #expect(try cli.run("add", "mine", "y").status == 0)
        #expect(try cli.run("rename", "mine", "renamed").status == 0)
        #expect(try cli.run("mv", "renamed", "0", "0").status == 0)
        #expect(try cli.run("section", "add", "renamed").status == 0)
        #expect(
            watcher.lines(4) == [
                #"{"signal":"RowsInserted","table":"mine","revision":1,"paths":[{"section":0,"row":0}]}"#,
                #"{"signal":"TableRenamed","old_name":"mine","new_name":"renamed"}"#,
                #"{"signal":"RowMoved","table":"renamed","revision":2,"from":{"section":0,"row":0},"to":{"section":0,"row":0}}"#,
                #"{"signal":"SectionsInserted","table":"renamed","revision":3,"sections":[1]}"#,
            ])
        #expect(watcher.isQuiet(), "the other table's signals are filtered out")
        watcher.process.signal(SIGTERM)
        #expect(watcher.process.waitForExit(timeoutMilliseconds: 5000) == .exited(0))
    }

    /// A reader that goes away ends the watch with status 0: at once when nothing is being
    /// written (the pipe reports it), and on the next write otherwise (EPIPE).
    @Test func endsCleanlyWhenTheReaderLeaves() throws {
        defer { _ = try? cli.run("drop", "pipe") }
        let idle = try Watcher(["watch"])
        #expect(idle.errorLine() != nil)
        idle.process.closeStandardOutput()
        #expect(idle.process.waitForExit(timeoutMilliseconds: 5000) == .exited(0))
        #expect(idle.errorLine() == nil)

        let busy = try Watcher(["watch", "pipe"])
        #expect(busy.errorLine() != nil)
        #expect(try cli.run("create", "pipe").status == 0)
        #expect(busy.lines(1) == ["TableAdded pipe"])
        busy.process.closeStandardOutput()
        #expect(try cli.run("add", "pipe", "x").status == 0)
        #expect(busy.process.waitForExit(timeoutMilliseconds: 5000) == .exited(0))
        #expect(busy.errorLine() == nil)
    }
}
