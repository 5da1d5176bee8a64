// SPDX-License-Identifier: MIT
import DBus
import DaemonTestSupport
import Foundation
import Posix
import TestSupport
import Testing

/// Linked tables on two machines, each a cliptabd with its own home and bus, whose folders
/// real `git` and real `syncthing` keep in step (issue 39).
@Suite(.serialized) struct LinkedTablesOnTwoMachinesTests {
    /// Two machines kept in step by git: a change made with cliptab on one, committed and
    /// pushed to a bare repository, pulled on the other, shows there with the ids of the
    /// unchanged rows kept.
    @Test func twoMachinesByGit() throws {
        let origin = try TemporaryDirectory(prefix: "cliptab-git")
        let bare = origin.appending("dotfiles.git")
        let gitEnvironment = [
            "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_NOSYSTEM": "1", "HOME": origin.path,
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        ]
        func git(_ directory: String, _ arguments: String...) throws {
            let result = try ChildProcess.run(
                "/usr/bin/git", ["-C", directory] + arguments, environment: gitEnvironment)
            guard result.termination == .exited(0) else {
                throw FixtureError("git \(arguments.joined(separator: " ")): \(result.errorText)")
            }
        }
        try git(origin.path, "init", "--bare", "-b", "main", bare)
        let seed = origin.appending("seed")
        try git(origin.path, "clone", bare, seed)
        try LinkedTableTests.snippets.write(
            toFile: seed + "/snippets.yaml", atomically: false, encoding: .utf8)
        try git(seed, "add", "snippets.yaml")
        try git(seed, "commit", "-m", "snippets")
        try git(seed, "push", "origin", "main")
        let machines = try TwoMachines { home, folder in
            try FileManager.default.removeItem(atPath: folder)
            try git(home.path, "clone", bare, folder)
        }
        defer { machines.stop() }
        let (first, second) = (machines.first, machines.second)
        #expect(
            try LinkedTableTests.texts(second, "snippets") == [
                "Best regards, Ada", "ada@example.com", "git log --oneline",
            ])
        let before = try LinkedTableTests.ids(second, "snippets")

        #expect(try first.cliptab("set", "snippets", "0:1", "ada@new.example").termination == .exited(0))
        #expect(try first.cliptab("add", "snippets", "from the first machine").termination == .exited(0))
        try git(first.folder, "commit", "-am", "changed with cliptab")
        try git(first.folder, "push", "origin", "main")
        try git(second.folder, "pull", "--ff-only", "origin", "main")
        #expect(
            eventually(within: 20_000) {
                (try? second.cliptab("get", "snippets", "0:3").outputText) == "from the first machine"
            })
        #expect(try second.cliptab("get", "snippets", "0:1").outputText == "ada@new.example")
        let after = try LinkedTableTests.ids(second, "snippets")
        #expect(after["Best regards, Ada"] == before["Best regards, Ada"])
        #expect(after["git log --oneline"] == before["git log --oneline"])
        #expect(after["ada@new.example"] == before["ada@example.com"])
        // The file cliptab wrote is the one git carried, comments and all.
        #expect(
            LinkedTableTests.read(second.file("snippets.yaml"))
                == LinkedTableTests.read(first.file("snippets.yaml")))
    }

    /// Two machines kept in step by two real Syncthing instances: each change made with
    /// cliptab on the first (a set, an add, a move) is written to its file, carried by
    /// Syncthing (after a rescan, or by its watcher) and applied on the second with the ids of
    /// the unchanged rows kept; a change made on both while apart gives Syncthing's conflict
    /// copy, listed by `cliptab status` where it is; Syncthing's temporaries and its folder
    /// marker are never tables.
    ///
    /// Prints how long each change takes from the cliptab command on the first machine to
    /// `cliptab get` showing it on the second (`two machines by syncthing: …`).
    @Test func twoMachinesBySyncthing() throws {
        let seed = try TemporaryDirectory(prefix: "cliptab-syncthing-seed")
        let folders: [SyncthingPair.Side: String] = [.a: seed.appending("a"), .b: seed.appending("b")]
        try FileManager.default.createDirectory(atPath: folders[.a]!, withIntermediateDirectories: true)
        try LinkedTableTests.snippets.write(
            toFile: folders[.a]! + "/snippets.yaml", atomically: false, encoding: .utf8)
        let pair = try SyncthingPair(folders: folders)
        defer { pair.stop() }
        // A temporary file of a pull cut short stays until Syncthing's next pull of the file:
        // it has a table file's rows and a table file's name inside, and is no table.
        let leftover = pair.path(of: ".syncthing.notes.yaml.tmp", on: .b)
        try "rows:\n  - half a pull\n".write(toFile: leftover, atomically: false, encoding: .utf8)
        let machines = try TwoMachines(syncedBy: pair)
        defer { machines.stop() }
        let (first, second) = (machines.first, machines.second)
        #expect(
            try LinkedTableTests.texts(second, "snippets") == [
                "Best regards, Ada", "ada@example.com", "git log --oneline",
            ])
        let before = try LinkedTableTests.ids(second, "snippets")

        /// Runs `change` with cliptab on the first machine, makes Syncthing see it (a rescan,
        /// or with `rescan` false its watcher), waits for the file on the second and then for
        /// `cliptab get TABLE path` there to print `expected`; prints the times.
        func crossing(
            _ what: String, _ change: String..., rescan: Bool, path: String, expected: String
        ) throws {
            let started = MonotonicClock.milliseconds()
            let changed = try first.cliptab(change)
            #expect(changed.termination == .exited(0), "\(what): \(changed.errorText)")
            let written = MonotonicClock.milliseconds()
            if rescan { try pair.rescan(on: .a) }
            let bytes = [UInt8](FileManager.default.contents(atPath: first.file("snippets.yaml")) ?? Data())
            try pair.waitForFile(named: "snippets.yaml", containing: bytes, on: .b)
            let arrived = MonotonicClock.milliseconds()
            let shown = eventually(within: 20_000, every: 10) {
                (try? second.cliptab("get", "snippets", path).outputText) == expected
            }
            let applied = MonotonicClock.milliseconds()
            #expect(shown, "\(what): cliptab get snippets \(path) on the second machine")
            #expect(applied - arrived < 10_000, "\(what): applied within seconds of the file's arrival")
            print(
                "two machines by syncthing: \(what) (\(rescan ? "rescan" : "watcher")): cliptab on the first "
                    + "\(written - started) ms, file on the second \(arrived - written) ms later, cliptab get "
                    + "shows it \(applied - arrived) ms after that; \(applied - started) ms in all")
        }
        try crossing(
            "set", "set", "snippets", "0:1", "ada@new.example", rescan: true, path: "0:1",
            expected: "ada@new.example")
        try crossing(
            "add", "add", "snippets", "from the first machine", rescan: false, path: "0:3",
            expected: "from the first machine")
        let added = try LinkedTableTests.ids(second, "snippets")["from the first machine"]
        try crossing(
            "move", "mv", "snippets", "0:3", "0:0", rescan: true, path: "0:0",
            expected: "from the first machine")
        let after = try LinkedTableTests.ids(second, "snippets")
        #expect(after["Best regards, Ada"] == before["Best regards, Ada"])
        #expect(after["git log --oneline"] == before["git log --oneline"])
        #expect(after["ada@new.example"] == before["ada@example.com"])
        #expect(added != nil && after["from the first machine"] == added)
        try pair.waitUntilInSync()
        #expect(
            LinkedTableTests.read(second.file("snippets.yaml"))
                == LinkedTableTests.read(first.file("snippets.yaml")))

        // Changed on both while apart: Syncthing keeps one and puts the other beside it.
        try pair.pauseConnection()
        #expect(try first.cliptab("add", "snippets", "only on the first").termination == .exited(0))
        #expect(try second.cliptab("add", "snippets", "only on the second").termination == .exited(0))
        try pair.rescan(on: .a)
        try pair.rescan(on: .b)
        let resumed = MonotonicClock.milliseconds()
        try pair.resumeConnection()
        let reconnected = MonotonicClock.milliseconds()
        let copies = try pair.waitForConflictCopy(of: "snippets.yaml", timeoutMilliseconds: 60_000)
        print(
            "two machines by syncthing: connected again \(reconnected - resumed) ms after resuming, "
                + "conflict copy \(copies) \(MonotonicClock.milliseconds() - resumed) ms after resuming")
        let machineOf: [SyncthingPair.Side: Machine] = [.a: first, .b: second]
        func listsConflicts(on side: SyncthingPair.Side) -> Bool {
            let machine = machineOf[side]!
            let copies = pair.conflictCopies(of: "snippets.yaml", on: side)
            return !copies.isEmpty
                && eventually(within: 20_000) {
                    let status = (try? machine.cliptab("status").outputText) ?? ""
                    return copies.allSatisfy { name in
                        let copy = machine.file(name)
                        return status.contains(
                            "\(copy); compare: diff \(machine.file("snippets.yaml")) \(copy)")
                    }
                }
        }
        for side in SyncthingPair.Side.allCases where !(copies[side] ?? []).isEmpty {
            #expect(listsConflicts(on: side), "\((try? machineOf[side]!.cliptab("status").outputText) ?? "")")
        }
        // The copy is an ordinary file to Syncthing: in the end both have it, both list it,
        // and both tables are the file that won.
        try pair.rescan(on: .a)
        try pair.rescan(on: .b)
        try pair.waitUntilInSync(timeoutMilliseconds: 60_000)
        for side in SyncthingPair.Side.allCases {
            #expect(listsConflicts(on: side), "\((try? machineOf[side]!.cliptab("status").outputText) ?? "")")
        }
        #expect(
            eventually(within: 20_000) {
                let texts = try? LinkedTableTests.texts(first, "snippets")
                return texts != nil && texts == (try? LinkedTableTests.texts(second, "snippets"))
            })
        let kept = try LinkedTableTests.texts(first, "snippets") ?? []
        #expect(kept.contains("only on the first") != kept.contains("only on the second"), "\(kept)")

        // Neither Syncthing's temporaries (every pull above wrote one) nor its marker were
        // taken for a table, reported, or touched.
        for machine in [first, second] {
            let tables = try machine.cliptab("tables").outputText
            #expect(
                !tables.contains("syncthing") && !tables.contains("stfolder") && !tables.contains("notes"))
            let status = try machine.cliptab("status").outputText
            #expect(!status.contains(".syncthing") && !status.contains(".stfolder"), "\(status)")
            #expect(!machine.daemon.log.contains(".syncthing") && !machine.daemon.log.contains(".stfolder"))
        }
        #expect(LinkedTableTests.read(leftover) == "rows:\n  - half a pull\n")
    }
}
