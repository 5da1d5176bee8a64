// SPDX-License-Identifier: MIT

/// A value that is missing from a message's values, or of another type than expected.
public struct BusValueMismatch: Error, Equatable, Sendable {
    /// The position of the value.
    public let index: Int
    /// The signature that was expected there.
    public let expected: String

    /// A mismatch of the value at `index`, which should be of signature `expected`.
    public init(index: Int, expected: String) {
        self.index = index
        self.expected = expected
    }
}

// Typed access by position to a message's values, shared by servers reading arguments and
// clients reading replies; each side turns a mismatch into its own error.
extension Array where Element == BusValue {
    private func value(_ index: Int, _ expected: String) throws(BusValueMismatch) -> BusValue {
        guard index >= 0 && index < count else { throw BusValueMismatch(index: index, expected: expected) }
        return self[index]
    }

    private func elements(_ index: Int, _ expected: String) throws(BusValueMismatch) -> [BusValue] {
        guard case .array(_, let items) = try value(index, expected) else {
            throw BusValueMismatch(index: index, expected: expected)
        }
        return items
    }

    /// The `s` at `index`.
    public func string(at index: Int) throws(BusValueMismatch) -> String {
        guard case .string(let text) = try value(index, "s") else {
            throw BusValueMismatch(index: index, expected: "s")
        }
        return text
    }

    /// The `i` at `index`.
    public func int32(at index: Int) throws(BusValueMismatch) -> Int32 {
        guard case .int32(let number) = try value(index, "i") else {
            throw BusValueMismatch(index: index, expected: "i")
        }
        return number
    }

    /// The `u` at `index`.
    public func uint32(at index: Int) throws(BusValueMismatch) -> UInt32 {
        guard case .uint32(let number) = try value(index, "u") else {
            throw BusValueMismatch(index: index, expected: "u")
        }
        return number
    }

    /// The `t` at `index`.
    public func uint64(at index: Int) throws(BusValueMismatch) -> UInt64 {
        guard case .uint64(let number) = try value(index, "t") else {
            throw BusValueMismatch(index: index, expected: "t")
        }
        return number
    }

    /// The `b` at `index`.
    public func boolean(at index: Int) throws(BusValueMismatch) -> Bool {
        guard case .boolean(let flag) = try value(index, "b") else {
            throw BusValueMismatch(index: index, expected: "b")
        }
        return flag
    }

    /// The `as` at `index`.
    public func strings(at index: Int) throws(BusValueMismatch) -> [String] {
        try elements(index, "as").map { element throws(BusValueMismatch) in
            guard case .string(let text) = element else {
                throw BusValueMismatch(index: index, expected: "as")
            }
            return text
        }
    }

    /// The `ai` at `index`.
    public func int32s(at index: Int) throws(BusValueMismatch) -> [Int32] {
        try elements(index, "ai").map { element throws(BusValueMismatch) in
            guard case .int32(let number) = element else {
                throw BusValueMismatch(index: index, expected: "ai")
            }
            return number
        }
    }

    /// The `at` at `index`.
    public func uint64s(at index: Int) throws(BusValueMismatch) -> [UInt64] {
        try elements(index, "at").map { element throws(BusValueMismatch) in
            guard case .uint64(let number) = element else {
                throw BusValueMismatch(index: index, expected: "at")
            }
            return number
        }
    }

    /// The fields of each structure in the array at `index`; `expected` names its signature.
    public func structures(at index: Int, expected: String) throws(BusValueMismatch) -> [[BusValue]] {
        try elements(index, expected).map { element throws(BusValueMismatch) in
            guard case .structure(let fields) = element else {
                throw BusValueMismatch(index: index, expected: expected)
            }
            return fields
        }
    }
}
