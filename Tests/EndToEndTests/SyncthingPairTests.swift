// SPDX-License-Identifier: MIT
import Foundation
import Glibc
import Posix
import TestSupport
import Testing

/// The two-machine test bed: two real Syncthing instances on loopback keep one folder in
/// step, and changes made on both while apart give Syncthing's conflict copy.
///
/// Each test prints its figures (`syncthing pair: …`) for the CI time budget.
@Suite struct SyncthingPairTests {
    /// Writes `text` to `name` in the folder on `side` the plain way (open, write, close), as
    /// a program that is not Syncthing does.
    func write(_ text: String, to name: String, on side: SyncthingPair.Side, of pair: SyncthingPair) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: pair.path(of: name, on: side)))
    }

    /// A file written on a arrives on b with the same bytes; one changed on b arrives on a;
    /// one deleted on a goes on b; then the folder is in sync and has no conflict copy.
    ///
    /// Without the watcher, so that each change crosses because of its rescan.
    @Test func changesCrossBothWays() throws {
        let pair = try SyncthingPair(watchesFolder: false)
        print("syncthing pair: started, connected and in sync in \(pair.startMilliseconds) ms")
        let first = "# snippets\n- name: sig\n  text: \"Grüße, \\u00e9\"\n"
        try write(first, to: "snippets.yaml", on: .a, of: pair)
        try pair.rescan(on: .a)
        try pair.waitForFile(named: "snippets.yaml", containing: first, on: .b)

        let second = first + "- name: addr\n  text: 1 Main St\n"
        try write(second, to: "snippets.yaml", on: .b, of: pair)
        try pair.rescan(on: .b)
        try pair.waitForFile(named: "snippets.yaml", containing: second, on: .a)

        try FileManager.default.removeItem(atPath: pair.path(of: "snippets.yaml", on: .a))
        try pair.rescan(on: .a)
        try pair.waitForNoFile(named: "snippets.yaml", on: .b)
        try pair.waitUntilInSync()
        for side in SyncthingPair.Side.allCases {
            #expect(pair.conflictCopies(on: side).isEmpty)
        }
    }

    /// The same file changed on both sides while the connection is paused gives a conflict
    /// copy next to it, found by the pair's listing, holding the version that lost.
    @Test func concurrentChangesGiveAConflictCopy() throws {
        let pair = try SyncthingPair()
        try write("base\n", to: "t.yaml", on: .a, of: pair)
        try pair.rescan(on: .a)
        try pair.waitForFile(named: "t.yaml", containing: "base\n", on: .b)
        try pair.waitUntilInSync()

        try pair.pauseConnection()
        let texts: [SyncthingPair.Side: String] = [.a: "changed on a\n", .b: "changed on b, longer\n"]
        for side in SyncthingPair.Side.allCases {
            try write(texts[side]!, to: "t.yaml", on: side, of: pair)
            try pair.rescan(on: side)
        }
        let resumed = MonotonicClock.milliseconds()
        try pair.resumeConnection()
        print("syncthing pair: connected again \(MonotonicClock.milliseconds() - resumed) ms after resuming")
        let copies = try pair.waitForConflictCopy(of: "t.yaml")
        print(
            "syncthing pair: conflict copy \(copies) \(MonotonicClock.milliseconds() - resumed) ms after resuming"
        )

        // The copy is an ordinary file to Syncthing: in the end both sides have it, and the
        // file and its copy hold the two versions.
        try pair.rescan(on: .a)
        try pair.rescan(on: .b)
        try pair.waitUntilInSync()
        let names = pair.conflictCopies(of: "t.yaml", on: .a)
        #expect(names.count == 1)
        #expect(pair.conflictCopies(of: "t.yaml", on: .b) == names)
        #expect(pair.conflictCopies(on: .a) == names)
        guard let copy = names.first else { return }
        let shortIDs = SyncthingPair.Side.allCases.map { pair.instance($0).shortID }
        #expect(shortIDs.contains { copy.hasSuffix("-\($0).yaml") }, "\(copy)")
        for side in SyncthingPair.Side.allCases {
            let kept = try String(contentsOfFile: pair.path(of: "t.yaml", on: side), encoding: .utf8)
            let lost = try String(contentsOfFile: pair.path(of: copy, on: side), encoding: .utf8)
            #expect(Set([kept, lost]) == Set(texts.values), "\(side): \(kept) / \(lost)")
        }
    }

    /// Folders given with files are merged at the start, as at a first sync: each side ends
    /// with both files.
    @Test func givenFoldersAreMergedAtTheStart() throws {
        let directory = try TemporaryDirectory(prefix: "cliptab-synced")
        let folders: [SyncthingPair.Side: String] = [
            .a: directory.appending("a/tables"), .b: directory.appending("b/tables"),
        ]
        for (side, folder) in folders {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data("from \(side)\n".utf8).write(to: URL(fileURLWithPath: "\(folder)/\(side).yaml"))
        }
        let pair = try SyncthingPair(folders: folders, folderID: "dotfiles", watchesFolder: false)
        for side in SyncthingPair.Side.allCases {
            #expect(pair.folderPath(on: side) == folders[side])
            for name in SyncthingPair.Side.allCases {
                try pair.waitForFile(named: "\(name).yaml", containing: "from \(name)\n", on: side)
            }
        }
    }

    /// The pair is in sync only when both sides have a change: not while b cannot get it.
    @Test func inSyncOnlyWhenBothHaveTheChange() throws {
        let pair = try SyncthingPair(watchesFolder: false)
        #expect(try pair.isInSync())
        try pair.pauseConnection()
        try write("only on a\n", to: "late.yaml", on: .a, of: pair)
        try pair.rescan(on: .a)
        #expect(try !pair.isInSync())
        try pair.resumeConnection()
        try pair.waitUntilInSync()
        #expect(
            FileManager.default.contents(atPath: pair.path(of: "late.yaml", on: .b))
                == Data("only on a\n".utf8))
    }

    /// How long one small file takes from a write on one side to its arrival on the other:
    /// with a rescan (what tests do), and by the watcher alone (what a user's machine does).
    @Test func oneFileSyncTimes() throws {
        let pair = try SyncthingPair()
        var rescanned: [UInt64] = []
        for round in 0..<6 {
            let from: SyncthingPair.Side = round % 2 == 0 ? .a : .b
            let text = "round \(round)\n"
            let started = MonotonicClock.milliseconds()
            try write(text, to: "timed.yaml", on: from, of: pair)
            try pair.rescan(on: from)
            try pair.waitForFile(named: "timed.yaml", containing: text, on: from.other)
            rescanned.append(MonotonicClock.milliseconds() - started)
            try pair.waitUntilInSync()
        }
        let started = MonotonicClock.milliseconds()
        try write("by the watcher\n", to: "watched.yaml", on: .a, of: pair)
        try pair.waitForFile(named: "watched.yaml", containing: "by the watcher\n", on: .b)
        let watched = MonotonicClock.milliseconds() - started
        let stopping = MonotonicClock.milliseconds()
        pair.stop()
        print(
            "syncthing pair: start \(pair.startMilliseconds) ms; one file with a rescan \(rescanned) ms "
                + "(median \(rescanned.sorted()[rescanned.count / 2])); by the watcher \(watched) ms; "
                + "stop \(MonotonicClock.milliseconds() - stopping) ms")
    }

    /// Stopping leaves no Syncthing process: the pids it started are gone.
    @Test func stopLeavesNoProcess() throws {
        let pair = try SyncthingPair()
        let pids = pair.processIDs
        #expect(pids.count == 2)
        // One process per instance: nothing of Syncthing's runs below the pids it has.
        for pid in pids {
            #expect(children(of: pid).isEmpty, "syncthing \(pid) has children")
        }
        pair.stop()
        #expect(pair.processIDs.isEmpty)
        for pid in pids {
            #expect(kill(pid, 0) == -1 && errno == ESRCH, "syncthing \(pid) still runs")
        }
    }

    /// Conflict copy names are read as Syncthing makes them, and nothing else is taken for one.
    @Test func conflictCopyNames() {
        let original = SyncthingPair.originalName(ofConflictCopy:)
        #expect(original("t.sync-conflict-20261203-183242-VKLW3U3.yaml") == "t.yaml")
        #expect(original("notes.sync-conflict-20261203-183242-VKLW3U3") == "notes")
        #expect(original("a.b.sync-conflict-20261203-183242-ABCDEF2.yaml") == "a.b.yaml")
        #expect(original("t.yaml") == nil)
        #expect(original("t.sync-conflict-2026.yaml") == nil)
        #expect(original("t.sync-conflict-20261203-183242-vklw3u3.yaml") == nil)
        #expect(original("t.sync-conflict-20261203-183242-VKLW3U3yaml") == nil)
    }

    /// The pids whose parent is `pid`, from the `PPid:` line of each /proc/PID/status.
    func children(of pid: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { pid_t($0) }.filter {
            ProcessFigures.field("PPid:", pid: $0, file: "status") == Int(pid)
        }
    }
}
