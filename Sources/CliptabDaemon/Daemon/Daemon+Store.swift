// SPDX-License-Identifier: MIT
import CliptabContract
import CliptabCore
import CliptabStore
import DBus
import Glibc

/// The store: the data directory's lock, then the SQLite store in it.
extension Daemon {
    /// Takes the data directory's lock, then opens the store in it.
    func openStore(_ configuration: DaemonConfiguration) throws(StartFailure)
        -> (store: SQLiteStore, catalog: Catalog)
    {
        do {
            let directory = try configurator.dataDirectory(of: configuration)
            storeLock = try lockStore(directory, replacing: options.replace)
            let (store, catalog) = try SQLiteStore.open(
                directory: directory, durability: configuration.durability)
            self.store = store
            return (store, catalog)
        } catch let refusal as UnusableStore {
            let path = refusal.path
            throw StartFailure(
                lines: [
                    "Failed to open the store: \(refusal.message)",
                    "stopping with status \(Self.unusableStoreExitStatus), which the unit does not restart on: "
                        + "no start can use \(path) as it is. To start with a new, empty store, move it "
                        + "aside with its -wal and -shm files (for example: mv \(path) \(path).damaged); to "
                        + "keep your tables, put back a copy of the file you saved, or start empty and "
                        + "import the tables you exported (cliptab import). "
                        + "Then: systemctl --user restart cliptabd",
                ], exitStatus: Self.unusableStoreExitStatus)
        } catch {
            throw StartFailure("Failed to open the store: \(error)")
        }
    }

    /// Takes the data directory's lock.
    ///
    /// With `--replace`, first takes the bus name on a connection of its own, so that the
    /// running cliptabd gets NameLost and stops, then waits (at most 10 s) for its lock; that
    /// connection keeps the name until the real one takes it (`replacementClaim`).
    private func lockStore(_ directory: String, replacing: Bool) throws -> StoreLock {
        guard replacing else { return try StoreLock.take(directory: directory) }
        let claim = try? BusConnection.connect()
        _ = try? claim?.requestName(
            CliptabBus.name, replaceExisting: true, allowReplacement: true, doNotQueue: true)
        replacementClaim = claim
        let deadline = clock() + 10_000
        while true {
            do {
                return try StoreLock.take(directory: directory)
            } catch is CliptabError where clock() < deadline {
                // The old daemon frees the lock as it stops; anything else fails at the deadline.
                usleep(50_000)
            }
        }
    }
}
