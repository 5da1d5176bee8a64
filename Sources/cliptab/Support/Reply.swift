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

    /// The error for a value that is missing or of the wrong type.
    private func mismatch(_ index: Int, _ type: String) -> CLIFailure {
        .local(
            "cliptabd answered \(member) with an unexpected reply (value \(index) should be of type \(type)); "
                + "is it a different version?")
    }

    /// The string at `index`.
    func string(_ index: Int) throws -> String {
        guard index < values.count, case .string(let value) = values[index] else {
            throw mismatch(index, "s")
        }
        return value
    }

    /// The `i` at `index`.
    func int32(_ index: Int) throws -> Int32 {
        guard index < values.count, case .int32(let value) = values[index] else { throw mismatch(index, "i") }
        return value
    }

    /// The `u` at `index`.
    func uint32(_ index: Int) throws -> UInt32 {
        guard index < values.count, case .uint32(let value) = values[index] else {
            throw mismatch(index, "u")
        }
        return value
    }

    /// The `t` at `index`.
    func uint64(_ index: Int) throws -> UInt64 {
        guard index < values.count, case .uint64(let value) = values[index] else {
            throw mismatch(index, "t")
        }
        return value
    }

    /// The `as` at `index`.
    func strings(_ index: Int) throws -> [String] {
        guard index < values.count, case .array(_, let items) = values[index] else {
            throw mismatch(index, "as")
        }
        return try items.map {
            guard case .string(let text) = $0 else { throw mismatch(index, "as") }
            return text
        }
    }

    /// The array at `index`, each element's fields (for arrays of structures).
    func structures(_ index: Int, _ type: String) throws -> [[BusValue]] {
        guard index < values.count, case .array(_, let items) = values[index] else {
            throw mismatch(index, type)
        }
        return try items.map {
            guard case .structure(let fields) = $0 else { throw mismatch(index, type) }
            return fields
        }
    }

    /// The `at` at `index`.
    func uint64s(_ index: Int) throws -> [UInt64] {
        guard index < values.count, case .array(_, let items) = values[index] else {
            throw mismatch(index, "at")
        }
        return try items.map {
            guard case .uint64(let value) = $0 else { throw mismatch(index, "at") }
            return value
        }
    }
}
