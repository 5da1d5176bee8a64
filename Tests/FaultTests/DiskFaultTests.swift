// SPDX-License-Identifier: MIT
import CliptabClient
import DBus
import DaemonTestSupport
import Foundation
import Posix
import TestSupport
import Testing

/// A full disk, failing writes and syncs, a read-only data directory,
/// and damaged store files.
@Suite(.serialized)
struct DiskFaultTests {
    /// Makes `count` random valid changes on table `t`, keeping `replica` in step.
    ///
    /// Changes that succeed are applied to the replica, those refused with StorageFailure are
    /// counted, anything else is an issue. Returns the number of StorageFailures.
    static func change(
        _ connection: BusConnection, _ replica: inout ReplicaTable, count: Int, random: inout SeededRandom,
        bigText: Bool = false
    ) -> Int {
        var failures = 0
        for _ in 0..<count {
            var (mutation, _) = replica.randomMutation(&random, invalid: 0)
            if bigText {
                // A cell of 256 KiB needs new pages of the log whatever else happened.
                mutation = .insertRow(section: 0, row: -1, text: String(repeating: "x", count: 256 << 10))
            }
            do {
                let reply = try CliptabClient.call(connection, mutation.member, mutation.arguments("t"))
                replica.apply(mutation, reply: reply)
            } catch let error as BusError where Cliptab.short(error.name) == "StorageFailure" {
                failures += 1
            } catch {
                Issue.record("\(mutation) failed with \(error)")
            }
        }
        return failures
    }

    /// Expects the daemon's table `t` to equal `replica`.
    static func expectTable(
        _ connection: BusConnection, _ replica: ReplicaTable, _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let table = try #require(try TableSnapshot.read(connection, "t"), sourceLocation: sourceLocation)
        let matches = replica.matches(table)
        #expect(matches, "\(what): the table differs from its replica", sourceLocation: sourceLocation)
    }

    /// A full filesystem: changes answer StorageFailure and change nothing, reads go on, a
    /// restart on the full disk works, and changes succeed again once there is room.
    @Test func filesystemFillsUp() throws {
        var random = SeededRandom("disk full")
        let base = try TemporaryDirectory(prefix: "cliptab-full")
        let mountPoint = base.appending("mnt")
        mkdir(mountPoint, 0o700)
        // A 2 MiB tmpfs when the test may mount one (as root); otherwise the preloaded
        // library fails the daemon's file writes with ENOSPC.
        let mount = Mount.tmpfs(at: mountPoint, kibibytes: 2048)
        defer { mount?.unmount() }
        let control = base.appending("control")
        mkdir(control, 0o700)
        let faults = FaultSwitch(directory: control)
        var environment: [String: String] = [:]
        if mount == nil {
            environment = ["LD_PRELOAD": try FaultInjection.build(in: base), "CLIPTAB_FAULT_DIR": control]
        }
        print(
            "disk full: \(mount == nil ? "preloaded ENOSPC injection (mounting not permitted)" : "2 MiB tmpfs")"
        )
        let daemon = try DaemonProcess(dataDirectory: mountPoint + "/data", environment: environment)
        let client = try BusConnection.connect(address: daemon.bus.address)
        try CliptabClient.call(client, "CreateTable", [s("t")])
        var replica = ReplicaTable()
        #expect(Self.change(client, &replica, count: 30, random: &random) == 0)

        var filler = ""
        if mount != nil { filler = fillFilesystem(mountPoint) } else { faults.on("enospc") }
        var refused = Self.change(client, &replica, count: 20, random: &random, bigText: true)
        refused += Self.change(client, &replica, count: 30, random: &random)
        #expect(refused >= 20, "only \(refused) of 50 changes on a full disk answered StorageFailure")
        try Self.expectTable(client, replica, "on the full disk")
        #expect(try CliptabClient.call(client, "ExportTable", [s("t"), s("json")]).count == 1)

        // Killed and started again while the disk is still full: it serves what it had.
        try daemon.restart()
        try Self.expectTable(client, replica, "after a restart on the full disk")
        refused += Self.change(client, &replica, count: 5, random: &random, bigText: true)

        if mount != nil { unlink(filler) } else { faults.off("enospc") }
        #expect(
            Self.change(client, &replica, count: 30, random: &random) == 0,
            "changes fail after space returned")
        #expect(Self.change(client, &replica, count: 3, random: &random, bigText: true) == 0)
        try daemon.restart()
        try Self.expectTable(client, replica, "after space returned and a restart")
        print("disk full: \(refused) changes refused with StorageFailure, none half-applied")
    }

    /// A change whose sync failed (EIO) answers StorageFailure, and stays undone even when
    /// the daemon is killed right after the reply: its pages reached the log, so without
    /// care a restart would bring it back.
    @Test func failedSyncStaysUndoneAfterACrash() throws {
        var random = SeededRandom("failed sync")
        let base = try TemporaryDirectory(prefix: "cliptab-sync")
        let control = base.appending("control")
        mkdir(control, 0o700)
        let faults = FaultSwitch(directory: control)
        let daemon = try DaemonProcess(
            environment: ["LD_PRELOAD": try FaultInjection.build(in: base), "CLIPTAB_FAULT_DIR": control])
        let client = try BusConnection.connect(address: daemon.bus.address)
        try CliptabClient.call(client, "CreateTable", [s("t")])
        var replica = ReplicaTable()
        #expect(Self.change(client, &replica, count: 20, random: &random) == 0)
        var injected = 0
        var resurrected: [String] = []
        for round in 0..<12 {
            let fault = round % 3 == 2 ? "enospc" : "eio-sync"
            faults.on(fault)
            let refused = Self.change(client, &replica, count: 1, random: &random, bigText: round % 2 == 0)
            faults.off(fault)
            #expect(refused == 1, "round \(round): the change with \(fault) was not refused")
            injected += refused
            try Self.expectTable(client, replica, "round \(round), before the kill")
            try daemon.restart()
            let table = try #require(try TableSnapshot.read(client, "t"))
            if !replica.matches(table) {
                resurrected.append("round \(round) (\(fault))")
                replica = ReplicaTable(table)
            }
            #expect(Self.change(client, &replica, count: 3, random: &random) == 0)
        }
        #expect(resurrected.isEmpty, "refused changes came back after a kill: \(resurrected)")
        print(
            "failed sync: \(injected) write and sync failures injected, \(resurrected.count) came back after a kill"
        )
    }

    /// Runs the daemon on `dataDirectory` expecting it to refuse to start.
    static func refusedStart(_ bus: PrivateBus, _ home: TemporaryDirectory, dataDirectory: String) throws
        -> CommandResult
    {
        try ChildProcess.run(
            BuiltProducts.path(of: "cliptabd"), ["--data-dir", dataDirectory],
            environment: DaemonProcess.environment(bus: bus, home: home), timeoutMilliseconds: 5000)
    }

    /// A read-only data directory at start: a message that says so, and a non-zero exit.
    @Test func readOnlyDataDirectory() throws {
        let bus = try PrivateBus()
        let home = try TemporaryDirectory(prefix: "cliptab-ro")
        let storeDirectory = home.appending("store")
        // A directory holding a store, an empty one, and one that is still to be made.
        do {
            let daemon = try DaemonProcess(dataDirectory: storeDirectory)
            try CliptabClient.call(
                try BusConnection.connect(address: daemon.bus.address), "CreateTable", [s("t")])
            daemon.kill()
        }
        let empty = home.appending("empty")
        mkdir(empty, 0o700)
        var mounts: [Mount] = []
        defer { for mount in mounts { mount.unmount() } }
        for directory in [storeDirectory, empty] {
            // Root ignores permission bits, so as root the directory is made read-only by a
            // read-only bind mount; other users get mode 0500.
            if let mount = Mount.readOnly(directory) { mounts.append(mount) } else { chmod(directory, 0o500) }
        }
        let storeBefore = fileBytes(storeDirectory + "/cliptab.db")
        for directory in [storeDirectory, empty, empty + "/cliptab"] {
            let result = try Self.refusedStart(bus, home, dataDirectory: directory)
            #expect(result.termination != .exited(0), "\(directory): \(result.termination)")
            let started = result.termination == .signaled(SIGKILL)
            #expect(!started, "cliptabd started on the read-only directory \(directory)")
            #expect(
                result.errorText.contains(directory),
                "the message does not name \(directory): \(result.errorText)")
            #expect(
                result.errorText.lowercased().contains("read-only"),
                "the message does not say read-only: \(result.errorText)")
        }
        let unchanged = fileBytes(storeDirectory + "/cliptab.db") == storeBefore
        #expect(unchanged, "the store in the read-only directory changed")
        print("read-only: \(mounts.count == 2 ? "read-only bind mounts" : "mode 0500"), 3 starts refused")
    }

    /// A store file that was truncated or overwritten with garbage is refused at start,
    /// with a message naming it, and kept byte for byte.
    @Test func damagedStoreFile() throws {
        let bus = try PrivateBus()
        let home = try TemporaryDirectory(prefix: "cliptab-damaged")
        let original = home.appending("original")
        do {
            let daemon = try DaemonProcess(dataDirectory: original)
            let client = try BusConnection.connect(address: daemon.bus.address)
            try CliptabClient.call(client, "CreateTable", [s("t")])
            try CliptabClient.call(
                client, "InsertRows",
                [s("t"), i(0), i(0), strings((0..<5000).map { "row \($0) with some text" })])
            // A clean stop leaves one self-contained store file.
            #expect(daemon.kill(SIGTERM) == .exited(0))
        }
        let store = try #require(fileBytes(original + "/cliptab.db"))
        let logLeft = fileBytes(original + "/cliptab.db-wal") != nil
        #expect(!logLeft, "a clean stop left the write-ahead log")
        var random = SeededRandom("damaged store")
        let garbage = (0..<store.count).map { _ in UInt8.random(in: 0...255, using: &random) }
        let cases: [(String, [UInt8])] = [
            ("empty", []), ("100 bytes", Array(store.prefix(100))), ("one page", Array(store.prefix(4096))),
            ("half", Array(store.prefix(store.count / 2))), ("garbage", garbage),
            ("garbage after the header", Array(store.prefix(4096)) + garbage.dropFirst(4096)),
        ]
        for (name, bytes) in cases {
            let directory = home.appending(name.replacingOccurrences(of: " ", with: "-"))
            mkdir(directory, 0o700)
            let path = directory + "/cliptab.db"
            _ = FileManager.default.createFile(
                atPath: path, contents: Data(bytes), attributes: [.posixPermissions: 0o600])
            let result = try Self.refusedStart(bus, home, dataDirectory: directory)
            #expect(
                result.termination != .exited(0) && !result.timedOut,
                "\(name): started (\(result.termination))")
            #expect(
                result.errorText.contains(path),
                "\(name): the message does not name the file: \(result.errorText)")
            let unchanged = fileBytes(path) == bytes
            #expect(unchanged, "\(name): the file was changed")
        }
        // The store truncated to nothing while its write-ahead log still holds changes.
        let logged = home.appending("logged")
        do {
            let daemon = try DaemonProcess(dataDirectory: logged)
            let client = try BusConnection.connect(address: daemon.bus.address)
            try CliptabClient.call(client, "CreateTable", [s("t")])
            try CliptabClient.call(client, "InsertRow", [s("t"), i(0), i(0), s("only in the log")])
            daemon.kill()
        }
        truncate(logged + "/cliptab.db", 0)
        let log = fileBytes(logged + "/cliptab.db-wal")
        let result = try Self.refusedStart(bus, home, dataDirectory: logged)
        #expect(
            result.termination != .exited(0) && !result.timedOut, "an emptied store with its log: started")
        let storeKept = fileBytes(logged + "/cliptab.db") == []
        let logKept = fileBytes(logged + "/cliptab.db-wal") == log
        #expect(storeKept, "the emptied store was written to")
        #expect(logKept, "the write-ahead log was changed")
        print("damaged store: \(cases.count + 1) damaged store files refused and kept")
    }
}
