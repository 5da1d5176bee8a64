// SPDX-License-Identifier: MIT

/// Where committed changes are made durable.
///
/// The store implements it; tests use `MemoryPersistence`.
public protocol Persistence: AnyObject {
    /// Makes `writes` durable as one transaction, or throws `StorageFailure` having changed
    /// nothing.
    func commit(_ writes: [StoreWrite]) throws
}
