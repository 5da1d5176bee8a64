// SPDX-License-Identifier: MIT
import DBus

/// The values of a method's reply, read by position and type.
///
/// A reply of the wrong shape means the daemon speaks another version of the API; that is
/// thrown as `ClientFailure.unexpectedReply`, never trapped on.
public struct DaemonReply {
    /// The method that was called, for messages.
    public let member: String
    /// The values.
    public let values: [BusValue]

    /// The reply of `member` carrying `values`.
    public init(member: String, values: [BusValue]) {
        self.member = member
        self.values = values
    }

    /// Reads one value with `read`, reporting a mismatch as a different daemon version.
    private func read<T>(_ read: ([BusValue]) throws(BusValueMismatch) -> T) throws(ClientFailure) -> T {
        do {
            return try read(values)
        } catch {
            throw .unexpectedReply(member: member, error)
        }
    }

    /// The string at `index`.
    public func string(_ index: Int) throws(ClientFailure) -> String {
        try read { v throws(BusValueMismatch) in try v.string(at: index) }
    }
    /// The `i` at `index`.
    public func int32(_ index: Int) throws(ClientFailure) -> Int32 {
        try read { v throws(BusValueMismatch) in try v.int32(at: index) }
    }
    /// The `b` at `index`.
    public func boolean(_ index: Int) throws(ClientFailure) -> Bool {
        try read { v throws(BusValueMismatch) in try v.boolean(at: index) }
    }
    /// The `u` at `index`.
    public func uint32(_ index: Int) throws(ClientFailure) -> UInt32 {
        try read { v throws(BusValueMismatch) in try v.uint32(at: index) }
    }
    /// The `t` at `index`.
    public func uint64(_ index: Int) throws(ClientFailure) -> UInt64 {
        try read { v throws(BusValueMismatch) in try v.uint64(at: index) }
    }
    /// The `as` at `index`.
    public func strings(_ index: Int) throws(ClientFailure) -> [String] {
        try read { v throws(BusValueMismatch) in try v.strings(at: index) }
    }
    /// The array at `index`, each element's fields (for arrays of structures).
    public func structures(_ index: Int, _ type: String) throws(ClientFailure) -> [[BusValue]] {
        try read { v throws(BusValueMismatch) in try v.structures(at: index, expected: type) }
    }
    /// The `at` at `index`.
    public func uint64s(_ index: Int) throws(ClientFailure) -> [UInt64] {
        try read { v throws(BusValueMismatch) in try v.uint64s(at: index) }
    }
}
