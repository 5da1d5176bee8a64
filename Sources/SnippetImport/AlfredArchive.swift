// SPDX-License-Identifier: MIT
import Archive

/// Alfred's `.alfredsnippets` file: a zip archive of the collection's files.
enum AlfredArchive {
    /// The archive's regular, non-hidden files in name order, unpacked under `maxBytes` in
    /// all; an entry that climbs out (`../`, an absolute path) refuses the whole archive.
    static func files(of archive: SourceFile, _ maxBytes: Int) throws -> [SourceFile] {
        var files: [SourceFile] = []
        do {
            for entry in try ArchiveReader(zip: archive.bytes).entries(maxBytes: maxBytes) {
                let components = entry.path.split(separator: "/", omittingEmptySubsequences: false).map(
                    String.init)
                guard !entry.path.hasPrefix("/"), !components.contains("..") else {
                    throw SourceError(
                        "\(archive.path): the entry \(quoted(entry.path)) climbs out of the archive")
                }
                let parts = components.filter { !$0.isEmpty && $0 != "." }
                guard entry.isFile, !parts.isEmpty,
                    !parts.contains(where: { $0.hasPrefix(".") || $0 == "__MACOSX" })
                else { continue }
                files.append(SourceFile(components: parts, bytes: entry.bytes))
            }
        } catch let error as ArchiveError {
            throw SourceError("\(archive.path): \(error.description)")
        }
        return files.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    }
}
