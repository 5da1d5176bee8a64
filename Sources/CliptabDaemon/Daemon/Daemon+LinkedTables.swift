// SPDX-License-Identifier: MIT
import Posix
import TableFile

/// The folder of linked tables and its watch.
extension Daemon {
    /// The tables linked to the files of `[tables] dir` (else `$XDG_CONFIG_HOME/cliptab/tables`),
    /// keeping their state in the data directory.
    func linkedTables(_ configuration: DaemonConfiguration) -> LinkedTables {
        let config = environment("XDG_CONFIG_HOME").flatMap { $0.hasPrefix("/") ? $0 : nil }
        let folder =
            configuration.tablesDirectory
            ?? (config ?? (environment("HOME") ?? "") + "/.config") + "/cliptab/tables"
        return LinkedTables(
            folder: folder, codec: TableFileCodec(),
            statePath: (try? configurator.dataDirectory(of: configuration)).map { $0 + "/linked-tables" },
            syncsFiles: configuration.durability == .full)
    }

    /// An inotify instance for the folder of linked tables; nil (the files are read at the
    /// start only) when the system refuses one.
    func watchFolder() -> DirectoryWatch? {
        do {
            return try DirectoryWatch.make()
        } catch {
            Log.line(
                "Failed to start inotify: \(error); linked files are read at the start only", level: .warning)
            return nil
        }
    }
}
