// SPDX-License-Identifier: MIT
import CliptabCore
import CliptabStore
import TestSupport
import Testing

/// The store's `synchronous` setting, read from its own connection (the setting is per
/// connection: a second connection to the file would not see it).
@Suite("Store durability")
struct DurabilityTests {
    /// SQLite's numbers for the settings.
    static let normal: Int64 = 1
    static let full: Int64 = 2

    /// A new store and a reopened one both commit with synchronous=FULL unless told otherwise,
    /// so that a commit survives power loss.
    @Test func fullByDefault() throws {
        let directory = try TemporaryDirectory(prefix: "cliptab-durability")
        do {
            let (created, _) = try SQLiteStore.open(directory: directory.path)
            defer { created.close() }
            #expect(try created.synchronousLevel() == Self.full, "a new store")
        }
        let (reopened, _) = try SQLiteStore.open(directory: directory.path)
        defer { reopened.close() }
        #expect(try reopened.synchronousLevel() == Self.full, "a reopened store")
    }

    /// Durability `.normal` is the one way to weaken it; `.full` asked for explicitly is FULL.
    @Test func normalOnlyWhenAskedFor() throws {
        let directory = try TemporaryDirectory(prefix: "cliptab-durability")
        do {
            let (store, _) = try SQLiteStore.open(directory: directory.path, durability: .normal)
            defer { store.close() }
            #expect(try store.synchronousLevel() == Self.normal)
        }
        let (store, _) = try SQLiteStore.open(directory: directory.path, durability: .full)
        defer { store.close() }
        #expect(try store.synchronousLevel() == Self.full)
    }
}
