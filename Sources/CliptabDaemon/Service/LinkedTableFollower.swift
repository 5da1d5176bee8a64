// SPDX-License-Identifier: MIT
import CliptabCore
import Glibc
import Posix
import Quoting

/// Follows the folder of linked tables: applies each file to its table at the start and
/// whenever it changes, a poll source of the daemon's loop.
///
/// inotify reports the folder's entries (and the folders of symbolic links' targets); each
/// change is read once it has settled for `settleMilliseconds` on the daemon's clock, since
/// editors and sync tools write in steps. A file equal to what the table was last synced
/// with is not applied again (cliptabd's own writes). A file that cannot be applied leaves
/// its table as it was, marked invalid in `LinkedTables`.
public final class LinkedTableFollower: PollSource {
    /// How long a change must be quiet before it is read.
    public static let settleMilliseconds: UInt64 = 100
    /// How long a linked file must stay missing before its table is dropped: an editor that
    /// moves the file aside before writing the new one (vim with `backupcopy=no`) may take
    /// longer than the settle time between the two.
    public static let removalGraceMilliseconds: UInt64 = 1000

    private let tables: TableService
    private let links: LinkedTables
    private let watch: DirectoryWatch?
    private var settle = SettleTimer(delay: settleMilliseconds)
    /// Symbolic links' targets (`directory/name`) by the folder entry that points there.
    private var targets: [String: String] = [:]
    /// The files seen missing once, waiting for the grace time before their table is dropped.
    private var missing: Set<String> = []
    /// The time of the last `process`, for rescheduling.
    private var now: UInt64 = 0
    /// True while `start()` reads the folder: a file missing then is gone for good.
    private var starting = false
    /// Conflict copies already logged.
    private var loggedConflicts: Set<String> = []
    /// Left-alone problems already logged, by file name.
    private var loggedLeftAlone: [String: String] = [:]

    /// A follower applying `links`' folder to `tables`; `watch` reports the folder's changes
    /// (nil: read once at `start()` only).
    public init(tables: TableService, links: LinkedTables, watch: DirectoryWatch?) {
        self.tables = tables
        self.links = links
        self.watch = watch
    }

    /// Makes the folder if missing, removes temporary files a crash left, watches it, and
    /// applies every file; drops the tables whose files went while cliptabd was stopped.
    public func start() {
        starting = true
        defer { starting = false }
        do {
            try FileContents.makeDirectories(links.folder)
            try watch?.watch(links.folder)
        } catch {
            Log.line("Failed to watch \(links.folder) for linked tables: \(error), ignoring", level: .warning)
        }
        let names = (try? FileContents.names(in: links.folder)) ?? []
        for name in names where name.hasPrefix(FileContents.temporaryPrefix) {
            // A write cut short by a crash: the file it was to replace is whole.
            unlink(links.folder + "/" + name)
        }
        var seen = Set<String>()
        for name in names where !name.hasPrefix(FileContents.temporaryPrefix) {
            refresh(name)
            if case .table(let table) = LinkedFileName(name) { seen.insert(table) }
        }
        for table in links.recordedLinks.subtracting(seen).sorted() {
            refresh(LinkedFileName.fileName(of: table), recorded: true)
        }
    }

    /// The inotify descriptor.
    public var pollDescriptor: Int32? { watch?.fileDescriptor }

    /// Notes what changed, then reads the files whose changes have settled.
    public func process(now: UInt64) {
        self.now = now
        if let watch {
            for event in watch.read() { note(event, now: now) }
        }
        for name in settle.takeDue(now: now) { refresh(name) }
    }

    /// When the next settled change is due.
    public func nextDeadline() -> UInt64? { settle.nextDeadline }

    /// Notes one change of an entry at `now`.
    private func note(_ event: DirectoryWatch.Event, now: UInt64) {
        if event.overflowed || event.name.isEmpty {
            // Events were lost, or a folder itself changed: read everything again.
            if event.directory == links.folder { try? watch?.watch(links.folder) }
            for name in (try? FileContents.names(in: links.folder)) ?? [] { settle.note(name, now: now) }
            for table in links.links.keys { settle.note(LinkedFileName.fileName(of: table), now: now) }
            return
        }
        if event.directory == links.folder {
            settle.note(event.name, now: now)
        } else if let entry = targets[event.directory + "/" + event.name] {
            settle.note(entry, now: now)
        }
    }

    /// Reads the folder entry `name` and acts on what it is.
    private func refresh(_ name: String, recorded: Bool = false) {
        switch LinkedFileName(name) {
        case .ignored: return
        case .invalid(let reason):
            let exists = FileContents.signature(links.folder + "/" + name) != nil
            leaveAlone(name, exists ? "not linked: the name is not a table name (\(reason))" : nil)
        case .conflictCopy(let table):
            findConflicts(of: table)
        case .table(let table):
            sync(table, fileName: name)
        }
    }

    /// Records (or with nil clears) why file `name` is left alone, logged once.
    private func leaveAlone(_ name: String, _ reason: String?) {
        links.leftAlone[name] = reason
        guard let reason, loggedLeftAlone[name] != reason else {
            if reason == nil { loggedLeftAlone[name] = nil }
            return
        }
        loggedLeftAlone[name] = reason
        Log.line("\(links.folder)/\(name): \(reason)", level: .warning)
    }

    /// Lists the conflict copies beside `table`'s file, logging each new one once.
    private func findConflicts(of table: String) {
        let prefix = table + LinkedFileName.conflictMarker
        let copies = ((try? FileContents.names(in: links.folder)) ?? []).filter {
            $0.hasPrefix(prefix) && LinkedFileName($0) == .conflictCopy(table: table)
        }.map { links.folder + "/" + $0 }
        links.setConflicts(table, copies)
        for copy in copies where loggedConflicts.insert(copy).inserted {
            Log.line(
                "\(copy): a sync conflict copy of \(links.path(of: table)); cliptabd reads only the file itself. "
                    + "Compare: diff \(links.path(of: table)) \(copy)",
                level: .warning)
        }
    }

    /// Makes table `table` follow its file, as the file is now.
    private func sync(_ table: String, fileName: String) {
        let path = links.folder + "/" + fileName
        let signature = FileContents.signature(path)
        if links.unlinked.contains(table) {
            if signature == nil { links.forgetUnlinked(table) }
            leaveAlone(
                fileName,
                signature == nil ? nil : "not followed (cliptab unlink \(table)); the table stays as it is")
            return
        }
        guard signature != nil else {
            leaveAlone(fileName, nil)
            if starting || missing.contains(fileName) {
                missing.remove(fileName)
                drop(table, path: path)
            } else if links.links[table] != nil {
                missing.insert(fileName)
                settle.note(fileName, now: now, after: Self.removalGraceMilliseconds)
            }
            return
        }
        missing.remove(fileName)
        followTarget(of: fileName)
        if let record = try? tables.record(of: table), record.isSecret {
            links.forget(table)
            leaveAlone(
                fileName,
                "not linked: table \(Quotation.quoted(table)) is secret (cliptab.conf), and a secret table's texts never sit in a folder in plain text"
            )
            return
        }
        leaveAlone(fileName, nil)
        if links.isUnchanged(table, signature: signature) { return }
        let bytes: [UInt8]
        do {
            bytes = try FileContents.read(path, limit: LinkedTables.maximumFileBytes)
        } catch {
            invalid(table, path: path, "cannot be read: \(error)")
            return
        }
        if let synced = links.synced(table), synced == bytes {
            links.follow(table, bytes: bytes, path: path)
            return
        }
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.utf8.elementsEqual(bytes) else {
            invalid(table, path: path, "is not UTF-8 text")
            return
        }
        if let line = Self.conflictMarkerLine(text) {
            invalid(table, path: path, "line \(line): a merge conflict marker (<<<<<<<); resolve the merge")
            return
        }
        let wasLinked = links.links[table] != nil
        links.following = table
        defer { links.following = nil }
        do {
            let existed = (try? tables.record(of: table)) != nil
            let result = try tables.apply(table, data: text, revision: 0, dryRun: false)
            links.follow(table, bytes: bytes, path: path)
            if !existed || !wasLinked {
                Log.line("linked table \(Quotation.quoted(table)) to \(path)")
            } else if !result.counts.isEmpty {
                Log.line("applied \(path) to table \(Quotation.quoted(table))", level: .debug)
            }
        } catch let error as CliptabError {
            invalid(table, path: path, error.message)
        } catch {
            invalid(table, path: path, "\(error)")
        }
        findConflicts(of: table)
    }

    /// Marks `table`'s file invalid with `problem` and logs it (once per problem).
    private func invalid(_ table: String, path: String, _ problem: String) {
        let message = "\(path): \(problem)"
        if links.links[table]?.state != .invalid(message) {
            Log.line(
                "\(message); table \(Quotation.quoted(table)) stays as it was, and changes to it are refused until the file is fixed",
                level: .warning)
        }
        links.markInvalid(table, path: path, problem: message)
    }

    /// Drops the table whose file went away, if it was linked.
    private func drop(_ table: String, path: String) {
        guard links.links[table] != nil || links.recordedLinks.contains(table) else { return }
        links.following = table
        defer { links.following = nil }
        let rows = (try? tables.sections(of: table))?.reduce(0) { $0 + $1.rows } ?? 0
        links.forget(table)
        links.setConflicts(table, [])
        do {
            try tables.dropTable(table)
            Log.line("\(path) was removed: dropped table \(Quotation.quoted(table)) with its \(rows) rows")
        } catch let error as CliptabError where error.code == .noSuchTable {
            return
        } catch {
            Log.line(
                "Failed to drop table \(Quotation.quoted(table)) after \(path) was removed: \(error)",
                level: .error)
        }
    }

    /// Watches the folder of the target of entry `fileName` when it is a symbolic link.
    private func followTarget(of fileName: String) {
        let path = links.folder + "/" + fileName
        guard let resolved = FileContents.realPath(path),
            resolved != FileContents.realPath(links.folder).map({ $0 + "/" + fileName })
        else { return }
        if targets[resolved] == nil {
            for (target, entry) in targets where entry == fileName { targets[target] = nil }
            targets[resolved] = fileName
            try? watch?.watch(FileContents.directory(of: resolved))
        }
    }

    /// The line number of the first git conflict marker in `text`, if any.
    static func conflictMarkerLine(_ text: String) -> Int? {
        var number = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            if line.hasPrefix("<<<<<<< ") || line == "<<<<<<<" { return number }
        }
        return nil
    }
}
