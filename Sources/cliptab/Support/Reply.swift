// SPDX-License-Identifier: MIT
import DBus

/// The values of a method's reply, read by position and type.
///
/// A reply of the wrong shape means the daemon speaks another version of the API; that is
/// reported (exit 1), never trapped on.
struct Reply {
    /// The method that was called, for messages.
    let member: String
    /// The values.
    let values: [BusValue]

    /// Reads one value with `read`, reporting a mismatch as a different daemon version.
    private func read<T>(_ read: ([BusValue]) throws(BusValueMismatch) -> T) throws -> T {
        do {
            return try read(values)
        } catch {
            throw CLIFailure.local(
                "cliptabd answered \(member) with an unexpected reply (value \(error.index) should be of type "
                    + "\(error.expected)); is it a different version?")
        }
    }

    /// The string at `index`.
    func string(_ index: Int) throws -> String {
        try read { v throws(BusValueMismatch) in try v.string(at: index) }
    }
    /// The `i` at `index`.
    func int32(_ index: Int) throws -> Int32 {
        try read { v throws(BusValueMismatch) in try v.int32(at: index) }
    }
    /// The `b` at `index`.
    func boolean(_ index: Int) throws -> Bool {
        try read { v throws(BusValueMismatch) in try v.boolean(at: index) }
    }
    /// The `u` at `index`.
    func uint32(_ index: Int) throws -> UInt32 {
        try read { v throws(BusValueMismatch) in try v.uint32(at: index) }
    }
    /// The `t` at `index`.
    func uint64(_ index: Int) throws -> UInt64 {
        try read { v throws(BusValueMismatch) in try v.uint64(at: index) }
    }
    /// The `as` at `index`.
    func strings(_ index: Int) throws -> [String] {
        try read { v throws(BusValueMismatch) in try v.strings(at: index) }
    }
    /// The array at `index`, each element's fields (for arrays of structures).
    func structures(_ index: Int, _ type: String) throws -> [[BusValue]] {
        try read { v throws(BusValueMismatch) in try v.structures(at: index, expected: type) }
    }
    /// The `at` at `index`.
    func uint64s(_ index: Int) throws -> [UInt64] {
        try read { v throws(BusValueMismatch) in try v.uint64s(at: index) }
    }
}
