// SPDX-License-Identifier: MIT
import Posix

/// The folder of linked tables and its watch.
extension Daemon {
    /// The folder of linked tables: `[tables] dir`, else `$XDG_CONFIG_HOME/cliptab/tables`.
    func tablesFolder(_ configuration: DaemonConfiguration) -> String {
        if let directory = configuration.tablesDirectory { return directory }
        let config = environment("XDG_CONFIG_HOME").flatMap { $0.hasPrefix("/") ? $0 : nil }
        return (config ?? (environment("HOME") ?? "") + "/.config") + "/cliptab/tables"
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
