// SPDX-License-Identifier: MIT
import CliptabContract
import CliptabDaemon
import DBus
import DaemonTestSupport
import Foundation
import Glibc
import Posix
import TestSupport
import Testing

/// How the built daemon ends where the unit must not loop: replaced (a clean stop, status 0,
/// which `Restart=on-failure` leaves stopped) and on a store only the user can mend (its own
/// status, in the unit's `RestartPreventExitStatus=`).
@Suite(.serialized)
struct StopStatusTests {
    /// A daemon replaced by `cliptabd --replace --data-dir OTHER` stops with status 0.
    ///
    /// The replacement takes OTHER's lock at once and loads a large store, and the replaced
    /// daemon, asking only then who took its name, still finds a cliptabd owning it. It once
    /// found the name ownerless between the replacement's two connections and exited 69,
    /// which the unit restarts; stopping it until its name has moved makes it ask in that gap.
    @Test func replacedByADaemonOnAnotherStoreStopsCleanly() throws {
        let other = try TemporaryDirectory(prefix: "cliptab-other-store")
        let otherStore = other.appending("data")
        do {
            let filler = try DaemonProcess(dataDirectory: otherStore)
            try filler.call("CreateTable", [s("big")])
            for chunk in 0..<10 {
                let texts = (0..<10_000).map { "row \(chunk * 10_000 + $0) of a store that loads a while" }
                try filler.call("InsertRows", [s("big"), i(0), i(-1), strings(texts)], timeout: 60_000)
            }
            filler.stop()
        }
        let daemon = try DaemonProcess()
        let replaced = try #require(Self.owner(on: daemon))
        daemon.process.signal(SIGSTOP)
        let replacement = try daemon.spawnOther(arguments: ["--replace", "--data-dir", otherStore])
        defer { replacement.terminate() }
        _ = eventually(within: 20_000, every: 1) {
            Self.owner(on: daemon) != replaced || !replacement.isRunning
        }
        daemon.process.signal(SIGCONT)
        #expect(daemon.process.waitForExit(timeoutMilliseconds: 20_000) == .exited(0), "\(daemon.log)")
        try daemon.waitUntilServingBy(replacement)
        #expect(daemon.log.contains("another cliptabd"), "\(daemon.log)")
        #expect(try daemon.tables() == ["big"])
    }

    /// The unique name owning cliptab's bus name on `daemon`'s bus, nil when none does.
    static func owner(on daemon: DaemonProcess) -> String? {
        guard
            let message = try? BusMessage.methodCall(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                interface: "org.freedesktop.DBus", member: "GetNameOwner"),
            (try? message.append([.string(CliptabBus.name)])) != nil,
            let reply = try? daemon.client.call(message, timeoutMilliseconds: 5_000),
            case .string(let name)? = try? reply.readValues().first
        else { return nil }
        return name
    }

    /// A store file truncated behind the daemon's back: the start stops with
    /// `Daemon.unusableStoreExitStatus`, says where the file is and what to do, and leaves the
    /// file as it was.
    @Test func damagedStoreStopsWithItsOwnStatus() throws {
        let daemon = try DaemonProcess()
        try daemon.call("CreateTable", [s("t")])
        for index in 0..<400 {
            try daemon.call(
                "InsertRow", [s("t"), i(0), i(-1), s("row \(index) " + String(repeating: "x", count: 200))])
        }
        #expect(daemon.kill(SIGTERM) == .exited(0))
        let path = daemon.dataDirectory + "/cliptab.db"
        let whole = try #require(FileManager.default.contents(atPath: path))
        #expect(whole.count > 10 * 4096)
        #expect(truncate(path, 3 * 4096) == 0)
        let damaged = try #require(FileManager.default.contents(atPath: path))

        let start = try daemon.spawnOther(arguments: [])
        #expect(
            start.waitForExit(timeoutMilliseconds: 20_000) == .exited(Daemon.unusableStoreExitStatus),
            "\(daemon.log)")
        let log = daemon.log
        for part in [
            path, "left untouched", "status \(Daemon.unusableStoreExitStatus)", "mv \(path) \(path).damaged",
            "-wal and -shm", "systemctl --user restart cliptabd",
        ] {
            #expect(log.contains(part), "the log lacks \"\(part)\": \(log)")
        }
        #expect(FileManager.default.contents(atPath: path) == damaged, "the damaged file was changed")
    }
}
