// SPDX-License-Identifier: MIT
import Foundation
import Glibc
import Posix

/// Two real Syncthing instances (the system's `syncthing`) on loopback keeping one folder in
/// step, for the tests of folders synced between two machines.
///
/// Each has its own home, keys and device id, listens (BEP) and serves its REST API on
/// 127.0.0.1 only, and knows the other at its explicit `tcp://127.0.0.1:PORT` address: global
/// and local discovery, relays, NAT traversal, STUN, usage and crash reporting and upgrades
/// are off, so nothing leaves the loopback. The folder is `sendreceive`, watched with the
/// shortest delay (1 s); tests need not wait for the watcher: `rescan(on:)` scans at once.
///
/// Syncthing runs as the test's user (as root it only warns), so that the files it writes
/// belong to whoever runs the rest of the test (cliptabd). Both processes are stopped by pid
/// at `stop()` and when the pair is released. Their logs stay in the pair's temporary
/// directory, and every wait that runs out of time throws with their ends.
public final class SyncthingPair {
    /// One of the two instances ("machines").
    public enum Side: String, CaseIterable, Sendable, CustomStringConvertible {
        /// The first instance.
        case a
        /// The second instance.
        case b

        /// The other instance.
        public var other: Side { self == .a ? .b : .a }

        /// The side's letter.
        public var description: String { rawValue }
    }

    /// What one instance is: its home, identity, folder and addresses.
    public struct Instance: Sendable {
        /// The instance's home (`--home`: keys, config.xml, database).
        public let home: String
        /// The device id, as Syncthing prints it (`XXXXXXX-XXXXXXX-…`).
        public let deviceID: String
        /// The shared folder's path on this instance.
        public let folderPath: String
        /// The port of its BEP listener on 127.0.0.1.
        public let listenPort: UInt16
        /// The port of its GUI and REST API on 127.0.0.1.
        public let guiPort: UInt16
        /// Its log (standard output and error, with microsecond times).
        public let logPath: String

        /// The first 7 characters of the device id, which name it in conflict copies.
        public var shortID: String { String(deviceID.prefix(7)) }
    }

    /// The shared folder's id.
    public let folderID: String
    /// The API key of both REST APIs (`X-API-Key`).
    public let apiKey: String
    /// How long the start took, in milliseconds: keys, configuration, both up, connected and
    /// in sync.
    public private(set) var startMilliseconds: UInt64 = 0
    /// Whether Syncthing watches the folder (inotify, 1 s delay); without it, only
    /// `rescan(on:)` (or the hourly scan) finds a change.
    public let watchesFolder: Bool
    private let directory: TemporaryDirectory
    private var instances: [Side: Instance] = [:]
    private var processes: [Side: ChildProcess] = [:]

    /// Generates two identities and starts both instances sharing the folder `folderID`, at
    /// `folders[side]` (made when missing) or in the pair's temporary directory; returns when
    /// they are connected and the folder is in sync, or throws (with the logs) after
    /// `timeoutMilliseconds`.
    ///
    /// The folders may hold files already: Syncthing merges them, as on a first sync.
    /// `watchesFolder` false turns the watcher off, for tests that make each change known
    /// with `rescan(on:)` and nothing else.
    public init(
        folders: [Side: String] = [:], folderID: String = "tables", watchesFolder: Bool = true,
        timeoutMilliseconds: Int = 60_000
    ) throws {
        let started = MonotonicClock.milliseconds()
        let allowed = CharacterSet(
            charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        guard !folderID.isEmpty, folderID.unicodeScalars.allSatisfy(allowed.contains) else {
            throw FixtureError("syncthing pair: the folder id \(folderID) is not of [A-Za-z0-9._-]")
        }
        self.folderID = folderID
        self.watchesFolder = watchesFolder
        apiKey = "cliptab-test-\(UInt64.random(in: 0...UInt64.max))"
        directory = try TemporaryDirectory(prefix: "cliptab-syncthing")

        var identities: [Side: (home: String, deviceID: String, folder: String)] = [:]
        for side in Side.allCases {
            let home = directory.appending("\(side)-home")
            let folder = folders[side] ?? directory.appending("\(side)-folder")
            try Self.prepareFolder(folder)
            identities[side] = (home, try Self.generateIdentity(home: home), folder)
        }

        // The ports are free when picked, but another program may take one before Syncthing
        // binds it: then the pair starts again on new ones.
        let deadline = started + UInt64(timeoutMilliseconds)
        for attempt in 1...3 {
            let ports = try LoopbackHTTP.freePorts(4)
            for (index, side) in Side.allCases.enumerated() {
                let identity = identities[side]!
                instances[side] = Instance(
                    home: identity.home, deviceID: identity.deviceID, folderPath: identity.folder,
                    listenPort: ports[index], guiPort: ports[2 + index],
                    logPath: directory.appending(attempt == 1 ? "\(side).log" : "\(side)-start\(attempt).log")
                )
            }
            do {
                for side in Side.allCases {
                    try configuration(of: side).write(
                        toFile: "\(instance(side).home)/config.xml", atomically: true, encoding: .utf8)
                    processes[side] = try spawn(side)
                }
                try waitUntil("both instances answer and are connected", deadline: deadline, startup: true) {
                    try Side.allCases.allSatisfy { try isConnected(on: $0) }
                }
                break
            } catch is PortTaken {
                let logs = logTails()
                stop()
                if attempt == 3 {
                    throw FixtureError("syncthing pair: ports taken by others at three starts\n\(logs)")
                }
            } catch {
                stop()
                throw error
            }
        }
        do {
            try waitUntil("the folder is in sync after the start", deadline: deadline) { try isInSync() }
        } catch {
            stop()
            throw error
        }
        startMilliseconds = MonotonicClock.milliseconds() - started
    }

    /// What `side` is: home, device id, folder, ports, log.
    public func instance(_ side: Side) -> Instance { instances[side]! }

    /// The shared folder's path on `side`.
    public func folderPath(on side: Side) -> String { instance(side).folderPath }

    /// The path of the file `name` (relative to the folder) on `side`.
    public func path(of name: String, on side: Side) -> String { "\(folderPath(on: side))/\(name)" }

    /// The process ids of the running instances (empty once stopped).
    public var processIDs: [pid_t] { processes.values.map(\.pid) }

    // MARK: REST

    /// Sends `method path` to the REST API of `side` with the API key; throws unless the
    /// answer is a success (2xx).
    @discardableResult
    public func rest(
        _ method: String = "GET", _ path: String, on side: Side, timeoutMilliseconds: Int = 30_000
    )
        throws -> HTTPReply
    {
        let reply = try LoopbackHTTP.request(
            method, port: instance(side).guiPort, path: path, headers: ["X-API-Key": apiKey],
            timeoutMilliseconds: timeoutMilliseconds)
        guard (200..<300).contains(reply.status) else {
            throw FixtureError(
                "syncthing \(side): \(method) \(path) answered \(reply.status): \(reply.bodyText.prefix(500))"
            )
        }
        return reply
    }

    /// The JSON object that `GET path` answers on `side`.
    public func json(_ path: String, on side: Side) throws -> [String: Any] {
        let reply = try rest("GET", path, on: side)
        guard let object = try JSONSerialization.jsonObject(with: Data(reply.body)) as? [String: Any] else {
            throw FixtureError(
                "syncthing \(side): \(path) answered no JSON object: \(reply.bodyText.prefix(500))")
        }
        return object
    }

    /// Scans the folder (`folder`, by default the shared one) on `side` now and returns when
    /// the scan is done (Syncthing answers `POST /rest/db/scan` after it), so that a change
    /// is announced without waiting for the watcher's delay.
    public func rescan(folder: String? = nil, on side: Side, timeoutMilliseconds: Int = 60_000) throws {
        try rest(
            "POST", "/rest/db/scan?folder=\(folder ?? folderID)", on: side,
            timeoutMilliseconds: timeoutMilliseconds)
    }

    /// True when `side` has a connection to the other instance.
    public func isConnected(on side: Side) throws -> Bool {
        let connections = try json("/rest/system/connections", on: side)["connections"] as? [String: Any]
        let other = connections?[instance(side.other).deviceID] as? [String: Any]
        return other?["connected"] as? Bool == true
    }

    /// True when both instances have the same files as each other: each is idle, needs
    /// nothing, sees the other complete, and both count the same global files.
    ///
    /// A change that no scan has seen yet is not known to either: `rescan(on:)` first.
    public func isInSync() throws -> Bool {
        var globals: [[Double]] = []
        for side in Side.allCases {
            let status = try json("/rest/db/status?folder=\(folderID)", on: side)
            let remote = try json(
                "/rest/db/completion?folder=\(folderID)&device=\(instance(side.other).deviceID)", on: side)
            guard status["state"] as? String == "idle", number(status["needTotalItems"]) == 0,
                number(status["pullErrors"]) == 0, number(remote["completion"]) == 100,
                number(remote["needItems"]) == 0, number(remote["needDeletes"]) == 0
            else { return false }
            globals.append(
                ["globalFiles", "globalDirectories", "globalDeleted", "globalBytes", "globalSymlinks"].map {
                    number(status[$0]) ?? -1
                })
        }
        return globals[0] == globals[1]
    }

    // MARK: Waits

    /// Waits until both instances report the folder in sync (`isInSync()`).
    public func waitUntilInSync(timeoutMilliseconds: Int = 30_000) throws {
        try waitUntil("the folder is in sync", timeoutMilliseconds: timeoutMilliseconds) { try isInSync() }
    }

    /// Waits until the file `name` on `side` holds exactly `bytes`.
    public func waitForFile(
        named name: String, containing bytes: [UInt8], on side: Side, timeoutMilliseconds: Int = 30_000
    ) throws {
        let path = path(of: name, on: side)
        do {
            try waitUntil(
                "\(name) with \(bytes.count) bytes on \(side)", timeoutMilliseconds: timeoutMilliseconds
            ) {
                FileManager.default.contents(atPath: path).map { [UInt8]($0) } == bytes
            }
        } catch let error as FixtureError {
            let now = FileManager.default.contents(atPath: path).map { "\($0.count) bytes" } ?? "no file"
            throw FixtureError("\(error.description)\n(\(path) has \(now))")
        }
    }

    /// Waits until the file `name` on `side` holds exactly `text` (UTF-8).
    public func waitForFile(
        named name: String, containing text: String, on side: Side, timeoutMilliseconds: Int = 30_000
    ) throws {
        try waitForFile(
            named: name, containing: Array(text.utf8), on: side, timeoutMilliseconds: timeoutMilliseconds)
    }

    /// Waits until there is no file `name` on `side`.
    public func waitForNoFile(named name: String, on side: Side, timeoutMilliseconds: Int = 30_000) throws {
        let path = path(of: name, on: side)
        try waitUntil("\(name) gone on \(side)", timeoutMilliseconds: timeoutMilliseconds) {
            access(path, F_OK) != 0
        }
    }

    /// Waits until a conflict copy of `name` is on either side; returns the conflict copies
    /// of `name` on each side then (one side may have none yet: the copy is synced as any file).
    public func waitForConflictCopy(of name: String, timeoutMilliseconds: Int = 30_000) throws -> [Side:
        [String]]
    {
        try waitUntil("a conflict copy of \(name)", timeoutMilliseconds: timeoutMilliseconds) {
            Side.allCases.contains { !conflictCopies(of: name, on: $0).isEmpty }
        }
        return Dictionary(uniqueKeysWithValues: Side.allCases.map { ($0, conflictCopies(of: name, on: $0)) })
    }

    // MARK: Connection

    /// Pauses the connection: a pauses b (`POST /rest/system/pause`), which closes the
    /// connection and refuses b's dials; returns when neither is connected, so that changes
    /// made now on both sides are concurrent.
    ///
    /// One side is enough; with both paused, the first to resume also dialled one still
    /// paused, a dial lost.
    public func pauseConnection(timeoutMilliseconds: Int = 30_000) throws {
        try rest("POST", "/rest/system/pause?device=\(instance(.b).deviceID)", on: .a)
        try waitUntil("both instances disconnected", timeoutMilliseconds: timeoutMilliseconds) {
            try Side.allCases.allSatisfy { try !isConnected(on: $0) }
        }
    }

    /// Resumes the connection paused by `pauseConnection()`; returns when both are connected.
    ///
    /// Syncthing 1.19 does not dial at a resume: the next round of its connection loop does
    /// (every 5 s at best, its least reconnection interval), so this takes from a few
    /// milliseconds to some 20 s (seen under load).
    public func resumeConnection(timeoutMilliseconds: Int = 60_000) throws {
        try rest("POST", "/rest/system/resume?device=\(instance(.b).deviceID)", on: .a)
        try waitUntil("both instances connected again", timeoutMilliseconds: timeoutMilliseconds) {
            try Side.allCases.allSatisfy { try isConnected(on: $0) }
        }
    }

    // MARK: Conflict copies

    /// The names of Syncthing's conflict copies in the folder on `side` (of the file `name`
    /// when given), sorted; `subdirectory` looks in a folder below the shared one.
    ///
    /// Syncthing names a copy `NAME.sync-conflict-YYYYMMDD-HHMMSS-DEVICE.ext` (`DEVICE`: the
    /// short id of the device whose change lost).
    public func conflictCopies(of name: String? = nil, in subdirectory: String = "", on side: Side)
        -> [String]
    {
        let folder = subdirectory.isEmpty ? folderPath(on: side) : path(of: subdirectory, on: side)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { entry in
            guard let original = Self.originalName(ofConflictCopy: entry) else { return false }
            return name == nil || original == name
        }.sorted()
    }

    /// The name of the file that `name` is a conflict copy of (`x.sync-conflict-20261203-183242-ABCDEF7.yaml`
    /// → `x.yaml`), or nil when `name` is not a conflict copy.
    public static func originalName(ofConflictCopy name: String) -> String? {
        let marker = ".sync-conflict-"
        guard let found = name.range(of: marker, options: .backwards) else { return nil }
        // YYYYMMDD-HHMMSS-DEVICE: digits, a dash, digits, a dash, 7 base32 characters.
        let stamp = Array(name[found.upperBound...].utf8)
        let shape = "dddddddd-dddddd-sssssss"
        guard stamp.count >= shape.utf8.count else { return nil }
        for (byte, kind) in zip(stamp, shape.utf8) {
            switch kind {
            case UInt8(ascii: "d"):
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            case UInt8(ascii: "s"):
                guard
                    (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                        || (UInt8(ascii: "2")...UInt8(ascii: "7")).contains(byte)
                else { return nil }
            default: guard byte == kind else { return nil }
            }
        }
        let suffix = stamp.dropFirst(shape.utf8.count)
        guard suffix.isEmpty || suffix.first == UInt8(ascii: ".") else { return nil }
        return String(name[..<found.lowerBound]) + String(decoding: suffix, as: UTF8.self)
    }

    // MARK: Logs and stopping

    /// The log of `side` so far.
    public func log(of side: Side) -> String {
        (try? String(contentsOfFile: instance(side).logPath, encoding: .utf8)) ?? "(no log)"
    }

    /// The ends of both logs, with each instance's identity, for failure messages.
    public func logTails(characters: Int = 4000) -> String {
        Side.allCases.map { side in
            let running =
                processes[side].map { $0.exitStatusIfEnded().map { "ended: \($0)" } ?? "running" }
                ?? "stopped"
            let instance = instance(side)
            return
                "--- syncthing \(side) (\(instance.shortID), \(running), gui \(instance.guiPort), listen \(instance.listenPort)), \(instance.logPath):\n"
                + String(log(of: side).suffix(characters))
        }.joined(separator: "\n")
    }

    /// Stops both instances by pid (SIGTERM, then SIGKILL); nothing of them keeps running.
    public func stop() {
        for side in Side.allCases {
            // Syncthing closes its database and listeners first: under a second when idle.
            processes[side]?.terminate(graceMilliseconds: 15_000)
            processes[side] = nil
        }
    }

    deinit { stop() }

    // MARK: Private

    /// A port that another program took before Syncthing bound it.
    private struct PortTaken: Error {}

    /// Waits until `condition` holds, looking every 50 ms for at most `timeoutMilliseconds`;
    /// throws with the logs when it does not, or at once when an instance has ended.
    private func waitUntil(_ what: String, timeoutMilliseconds: Int, _ condition: () throws -> Bool) throws {
        try waitUntil(what, deadline: MonotonicClock.milliseconds() + UInt64(timeoutMilliseconds), condition)
    }

    /// Waits until `condition` holds or `deadline`; `startup` turns a port that is in use into
    /// `PortTaken`.
    private func waitUntil(
        _ what: String, deadline: UInt64, startup: Bool = false, _ condition: () throws -> Bool
    ) throws {
        let started = MonotonicClock.milliseconds()
        var lastProblem: String?
        var ended: Side?
        let timeout = deadline > started ? deadline - started : 0
        let met = eventually(within: timeout, every: 50) {
            if let side = Side.allCases.first(where: { processes[$0]?.isRunning == false }) {
                ended = side
                return true
            }
            do {
                return try condition()
            } catch {
                lastProblem = "\(error)"
                return false
            }
        }
        if startup && (!met || ended != nil)
            && Side.allCases.contains(where: { log(of: $0).contains("address already in use") })
        {
            throw PortTaken()
        }
        if let ended {
            throw FixtureError("syncthing pair: \(ended) ended while waiting for \(what)\n\(logTails())")
        }
        guard met else {
            let spent = MonotonicClock.milliseconds() - started
            throw FixtureError(
                "syncthing pair: no \(what) in \(spent) ms\(lastProblem.map { " (last: \($0))" } ?? "")\n\(logTails())"
            )
        }
    }

    /// The environment Syncthing runs in: its own home, nothing of the test's.
    private static func environment(home: String) -> [String: String] {
        [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin",
            "HOME": home, "LC_ALL": "C.UTF-8",
            // Syncthing 1.19 otherwise runs a monitor that forks the real one (even with
            // --no-restart): one process is what a pid stops.
            "STMONITORED": "yes", "STNORESTART": "1", "STNOUPGRADE": "1", "STNODEFAULTFOLDER": "1",
            // A named hash implementation skips the benchmark that picks one (a second per start).
            "STHASHING": "standard",
        ]
    }

    /// Makes `folder` (and its parents) and Syncthing's folder marker in it (`.stfolder`:
    /// Syncthing makes it at a folder's first start, and refuses to sync a folder it knows
    /// once the marker is gone); a folder given with its files keeps them.
    private static func prepareFolder(_ folder: String) throws {
        try FileManager.default.createDirectory(
            atPath: "\(folder)/.stfolder", withIntermediateDirectories: true)
    }

    /// Generates keys and a first configuration in `home`; returns the device id.
    private static func generateIdentity(home: String) throws -> String {
        let generated = try ChildProcess.run(
            "syncthing", ["generate", "--home=\(home)", "--no-default-folder"],
            environment: environment(home: home))
        guard generated.termination == .exited(0) else {
            throw FixtureError(
                "syncthing generate --home=\(home) ended with \(generated.termination): \(generated.errorText)"
            )
        }
        let shown = try ChildProcess.run(
            "syncthing", ["serve", "--home=\(home)", "--device-id"], environment: environment(home: home))
        let deviceID = shown.outputText.trimmingCharacters(in: .whitespacesAndNewlines)
        guard shown.termination == .exited(0), deviceID.split(separator: "-").count == 8 else {
            throw FixtureError(
                "syncthing serve --device-id gave no device id: \(shown.outputText) \(shown.errorText)")
        }
        return deviceID
    }

    /// Starts the instance of `side`, its output appended to its log.
    private func spawn(_ side: Side) throws -> ChildProcess {
        let instance = instance(side)
        let command = [
            "syncthing", "serve", "--home=\(instance.home)", "--no-browser", "--no-restart", "--no-upgrade",
            "--logflags=7",
        ].map(shellQuoted).joined(separator: " ")
        // The shell opens the log and becomes syncthing: the pid is Syncthing's.
        return try ChildProcess.spawn(
            "/bin/sh", ["-c", "exec \(command) >>\(shellQuoted(instance.logPath)) 2>&1"],
            environment: Self.environment(home: instance.home), stdout: .null, stderr: .null)
    }
}

/// A JSON number (NSNumber) as a Double, or nil.
private func number(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }
