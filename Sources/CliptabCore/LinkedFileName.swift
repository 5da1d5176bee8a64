// SPDX-License-Identifier: MIT

/// What a file name in the folder of linked tables stands for: a table, a sync tool's
/// conflict copy of one, or nothing cliptab reads.
public enum LinkedFileName: Equatable, Sendable {
    /// `NAME.yaml`: the file of table `NAME`.
    case table(String)
    /// `NAME.sync-conflict-….yaml` (Syncthing's copy of the side that lost): shown, never read.
    case conflictCopy(table: String)
    /// A `.yaml` file whose name is not a valid table name: reported and left alone.
    case invalid(reason: String)
    /// Anything else: hidden files, editors' leftovers, other extensions.
    case ignored

    /// The extension of a linked file.
    public static let fileExtension = ".yaml"
    /// What Syncthing puts between a file's name and its extension in a conflict copy.
    public static let conflictMarker = ".sync-conflict-"

    /// Classifies the file name `name` (no directory part).
    public init(_ name: String) {
        // Hidden files hold sync tools' temporaries (.syncthing.NAME.tmp), ours, and
        // editors' (.#NAME of Emacs, .NAME.swp of vim).
        guard !name.hasPrefix("."), !name.hasSuffix("~"), !name.hasSuffix(".swp"),
            name.hasSuffix(Self.fileExtension), name.utf8.count > Self.fileExtension.utf8.count
        else {
            self = .ignored
            return
        }
        let stem = String(name.dropLast(Self.fileExtension.count))
        if let table = Self.beforeConflictMarker(stem) {
            self = .conflictCopy(table: table)
            return
        }
        do {
            try TableName.validate(stem)
            self = .table(stem)
        } catch {
            self = .invalid(reason: error.message)
        }
    }

    /// The part of `stem` before the first conflict marker, if it has one.
    private static func beforeConflictMarker(_ stem: String) -> String? {
        let bytes = Array(stem.utf8)
        let marker = Array(conflictMarker.utf8)
        guard bytes.count >= marker.count else { return nil }
        for start in 0...(bytes.count - marker.count)
        where bytes[start..<(start + marker.count)].elementsEqual(marker) {
            return String(decoding: bytes[..<start], as: UTF8.self)
        }
        return nil
    }

    /// The file name of table `table`.
    public static func fileName(of table: String) -> String { table + fileExtension }
}
