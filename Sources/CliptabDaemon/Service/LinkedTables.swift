// SPDX-License-Identifier: MIT
import CliptabCore
import Glibc
import Posix
import Quoting

/// The tables linked to files in one folder: which table follows which file, in what
/// state, and the writing of a linked table's changes to its file before they are
/// acknowledged (the service's `TableMirror`).
///
/// The file leads: `LinkedTableFollower` applies what changes in the folder; this keeps the
/// links, refuses changes to a table whose file does not parse, and writes the others. The
/// names linked and unlinked are kept in a small state file in the data directory, so that
/// a file removed while cliptabd was stopped still drops its table, and an unlinked file
/// stays unfollowed.
public final class LinkedTables: TableMirror {
    /// Where a linked table stands.
    public enum State: Equatable, Sendable {
        /// The table equals its file.
        case following
        /// The file could not be read or applied: the table stays as it was and changes
        /// over the bus are refused; the problem, with file, line and column.
        case invalid(String)
    }

    /// One linked table.
    public struct Link: Equatable, Sendable {
        /// The table's name.
        public let table: String
        /// The file's path in the folder (a symbolic link there is followed).
        public let path: String
        /// Whether the table follows the file.
        public var state: State
        /// The bytes the table was last known to equal (written or applied).
        var synced: [UInt8]?
        /// The file's identity when it held `synced`.
        var signature: [Int]?
        /// Sync tools' conflict copies of the file, beside it (paths).
        public var conflicts: [String] = []
    }

    /// The largest file read (as `ImportSnippets`' bound).
    public static let maximumFileBytes = 32 << 20

    /// The folder of the files.
    public let folder: String
    /// The links, by table name.
    public private(set) var links: [String: Link] = [:]
    /// Files of the folder that are left alone, with the reason, by file name.
    public internal(set) var leftAlone: [String: String] = [:]
    /// Tables unlinked by `cliptab unlink` whose file is still there.
    public private(set) var unlinked: Set<String> = []
    /// The tables recorded as linked at the last stop (from the state file).
    public private(set) var recordedLinks: Set<String> = []
    /// The table whose file is being applied now: its changes are the file's, not written back.
    var following: String?

    private let codec: TableDocumentCodec
    /// The state file (`linked-tables` in the data directory); nil keeps nothing.
    private let statePath: String?
    /// Whether a file written is synced to disk before the reply (`[store] durability =
    /// full`); `normal` trades the last changes on a power cut for speed, as the store does.
    private let syncsFiles: Bool

    /// Links for the files of `folder`, reading and writing them with `codec`, the names
    /// kept in `statePath`; `syncsFiles` syncs each file written (durability full).
    public init(folder: String, codec: TableDocumentCodec, statePath: String?, syncsFiles: Bool = true) {
        self.folder = folder
        self.syncsFiles = syncsFiles
        self.codec = codec
        self.statePath = statePath
        guard let statePath, let bytes = try? FileContents.read(statePath, limit: 1 << 20) else { return }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            if line.hasPrefix("linked ") { recordedLinks.insert(String(line.dropFirst(7))) }
            if line.hasPrefix("unlinked ") { unlinked.insert(String(line.dropFirst(9))) }
        }
        savedUnlinked = unlinked
    }

    /// The path of table `table`'s file in the folder.
    public func path(of table: String) -> String { folder + "/" + LinkedFileName.fileName(of: table) }

    // MARK: - TableMirror

    /// Whether `table` is linked (and not being applied from its file now).
    public func isMirrored(_ table: String) -> Bool { links[table] != nil && following != table }

    /// Refuses changes to a table whose file does not parse, and renames and drops of a
    /// linked table (its file is its name and its existence).
    public func checkChange(to table: String, renamedTo: String?, dropped: Bool) throws {
        guard let link = links[table] else { return }
        if case .invalid(let problem) = link.state {
            throw CliptabError(
                .linkedFileInvalid,
                "table \(Quotation.quoted(table)) is linked to \(link.path), which cliptabd cannot apply "
                    + "(\(problem)); nothing was changed and the file was left as it is: fix the file "
                    + "(cliptabd applies it when saved), or cliptab unlink the table")
        }
        if let renamedTo {
            throw CliptabError(
                .notPermitted,
                "table \(Quotation.quoted(table)) is linked to \(link.path): rename the file to "
                    + "\(LinkedFileName.fileName(of: renamedTo)) instead, or cliptab unlink the table first")
        }
        if dropped {
            throw CliptabError(
                .notPermitted,
                "table \(Quotation.quoted(table)) is linked to \(link.path): remove the file to drop the "
                    + "table, or cliptab unlink the table first")
        }
    }

    /// Writes `document` to the table's file (temporary file, fsync, rename, fsync of the
    /// folder), after the file's leading comment lines.
    public func write(_ table: String, document: TableDocument, isSecret: Bool) throws {
        guard var link = links[table] else { return }
        if isSecret {
            // Made secret in cliptab.conf while linked: its texts stay out of the folder.
            links[table] = nil
            leftAlone[LinkedFileName.fileName(of: table)] =
                "not linked any more: table \(Quotation.quoted(table)) is secret (cliptab.conf), and a secret table's texts never sit in a folder in plain text"
            saveIfChanged()
            Log.line(
                "\(link.path): table \(Quotation.quoted(table)) is secret; no longer linked, its file left as it is",
                level: .warning)
            return
        }
        let bytes = Self.leadingComments(link.synced) + Array(try codec.encode(document).utf8)
        guard bytes != link.synced else { return }
        do {
            try FileContents.replace(link.path, with: bytes, sync: syncsFiles)
        } catch {
            throw CliptabError(
                .storageFailure,
                "the change could not be written to \(link.path): \(error); nothing was changed")
        }
        link.synced = bytes
        link.signature = FileContents.signature(link.path)
        links[table] = link
    }

    /// The comment lines (and blank lines among them) at the top of `text`.
    static func leadingComments(_ text: [UInt8]?) -> [UInt8] {
        guard let text else { return [] }
        var end = 0
        var start = 0
        while start < text.count {
            let newline = text[start...].firstIndex(of: 0x0A) ?? text.count
            let line = text[start..<newline].drop { $0 == 0x20 || $0 == 0x09 }
            guard line.isEmpty || line.first == UInt8(ascii: "#") else { break }
            start = newline + 1
            if !line.isEmpty { end = min(start, text.count) }
        }
        guard end > 0 else { return [] }
        var kept = Array(text[..<end])
        if kept.last != 0x0A { kept.append(0x0A) }
        return kept
    }

    // MARK: - Links

    /// Records that `table` follows its file, which holds `bytes` now.
    func follow(_ table: String, bytes: [UInt8], path: String) {
        let conflicts = links[table]?.conflicts ?? []
        links[table] = Link(
            table: table, path: path, state: .following, synced: bytes,
            signature: FileContents.signature(path),
            conflicts: conflicts)
        saveIfChanged()
    }

    /// Marks `table`'s file as one that cannot be applied, for `problem`.
    func markInvalid(_ table: String, path: String, problem: String) {
        var link = links[table] ?? Link(table: table, path: path, state: .invalid(problem))
        link.state = .invalid(problem)
        link.signature = FileContents.signature(path)
        links[table] = link
        saveIfChanged()
    }

    /// Whether `table`'s file is as it was when last synced (same identity).
    func isUnchanged(_ table: String, signature: [Int]?) -> Bool {
        guard let link = links[table], let known = link.signature else { return false }
        return known == signature
    }

    /// The bytes `table`'s file was last known to hold, if it follows it.
    func synced(_ table: String) -> [UInt8]? {
        guard let link = links[table], link.state == .following else { return nil }
        return link.synced
    }

    /// Forgets `table`'s link (its file is gone, or the table became secret).
    func forget(_ table: String) {
        links[table] = nil
        saveIfChanged()
    }

    /// Sets the conflict copies found beside `table`'s file.
    func setConflicts(_ table: String, _ paths: [String]) {
        links[table]?.conflicts = paths
    }

    /// Forgets that `table` was unlinked (its file is gone: a new one is linked again).
    func forgetUnlinked(_ table: String) {
        if unlinked.remove(table) != nil { saveIfChanged() }
    }

    /// `cliptab link`: writes `table` to `file` (nil: its file in the folder) and links it.
    ///
    /// A file outside the folder gets a symbolic link to it in the folder. Refused
    /// (`FileExists`) where either exists; a secret table is never linked.
    public func link(_ table: String, file: String?, tables: TableService) throws -> String {
        let record = try tables.record(of: table)
        if record.isSecret {
            throw CliptabError(
                .notPermitted,
                "table \(Quotation.quoted(table)) is secret: its texts would sit in plain text in a folder that may be synced; it is never linked"
            )
        }
        if let link = links[table] {
            throw CliptabError(
                .invalidArgument, "table \(Quotation.quoted(table)) is already linked to \(link.path)")
        }
        let entry = path(of: table)
        var target = entry
        if let file, !file.isEmpty {
            guard file.hasPrefix("/") else {
                throw CliptabError(
                    .invalidArgument, "the file must be an absolute path, not \(Quotation.quoted(file))")
            }
            let directory = FileContents.directory(of: file)
            let inFolder =
                FileContents.realPath(directory).map { $0 == FileContents.realPath(folder) } ?? false
            if inFolder {
                guard file.hasSuffix("/" + LinkedFileName.fileName(of: table)) else {
                    throw CliptabError(
                        .invalidArgument,
                        "a file in \(folder) is named after its table: \(LinkedFileName.fileName(of: table)), not \(Quotation.quoted(file))"
                    )
                }
            } else {
                target = file
            }
        }
        if FileContents.signature(entry) != nil || Self.isSymbolicLink(entry) {
            throw CliptabError(
                .fileExists,
                "\(entry) exists; cliptab never overwrites it: move it aside (or apply it with cliptab apply) and link again"
            )
        }
        if target != entry && FileContents.signature(target) != nil {
            throw CliptabError(.fileExists, "\(target) exists; cliptab never overwrites it")
        }
        let bytes = Array(try codec.encode(try tables.document(of: table)).utf8)
        do {
            try FileContents.makeDirectories(folder)
            try FileContents.replace(target, with: bytes, exclusive: true)
            if target != entry {
                guard symlink(target, entry) == 0 else { throw SystemCallError.current("symlink \(entry)") }
            }
        } catch let error as CliptabError {
            throw error
        } catch {
            throw CliptabError(.storageFailure, "\(table) could not be written to \(target): \(error)")
        }
        unlinked.remove(table)
        follow(table, bytes: bytes, path: entry)
        Log.line("linked table \(Quotation.quoted(table)) to \(target)")
        return target
    }

    /// `cliptab unlink`: stops following `table`'s file; both stay.
    ///
    /// Remembered while the file is there.
    public func unlink(_ table: String) throws {
        guard let link = links[table] else {
            throw CliptabError(.invalidArgument, "table \(Quotation.quoted(table)) is not linked to a file")
        }
        links[table] = nil
        unlinked.insert(table)
        saveIfChanged()
        Log.line("unlinked table \(Quotation.quoted(table)) from \(link.path); both stay")
    }

    /// The problems to report (`Reload`, `cliptab status`): files that cannot be applied,
    /// files left alone, conflict copies.
    public var problems: [String] {
        var lines: [String] = []
        for table in links.keys.sorted() {
            guard let link = links[table] else { continue }
            if case .invalid(let problem) = link.state { lines.append(problem) }
            for copy in link.conflicts {
                lines.append(
                    "\(copy): a sync conflict copy of \(link.path); compare: diff \(link.path) \(copy)")
            }
        }
        for name in leftAlone.keys.sorted() { lines.append("\(folder)/\(name): \(leftAlone[name] ?? "")") }
        return lines
    }

    private static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    /// Writes the state file when the names linked or unlinked changed.
    private func saveIfChanged() {
        let linked = Set(links.keys)
        guard linked != recordedLinks || unlinked != savedUnlinked, let statePath else { return }
        let lines =
            linked.sorted().map { "linked \($0)" } + unlinked.sorted().map { "unlinked \($0)" }
        do {
            try FileContents.replace(
                statePath, with: Array((lines.joined(separator: "\n") + "\n").utf8), mode: 0o600)
            recordedLinks = linked
            savedUnlinked = unlinked
        } catch {
            Log.line("Failed to save \(statePath): \(error), ignoring", level: .warning)
        }
    }

    private var savedUnlinked: Set<String> = []
}
