// SPDX-License-Identifier: MIT
import DBus

/// Typed access to a call's arguments, by the names the method's row declares.
///
/// The dispatcher has already checked the signature, so a mismatch here is a table error,
/// reported as InvalidArgs rather than a crash; so is a name the row does not declare
/// (Failed), which every method's test would meet.
struct CallArguments {
    /// The call's values, in order.
    let values: [BusValue]
    /// The names of the arguments the method declares, in order.
    let names: [String]
    /// The caller's unique bus name.
    let sender: String?

    /// Wraps a call's values, declared as `names`, from `sender`.
    init(_ values: [BusValue], names: [String] = [], sender: String? = nil) {
        self.values = values
        self.names = names
        self.sender = sender
    }

    /// The position of the argument declared as `name`.
    private func index(_ name: String) throws -> Int {
        guard let index = names.firstIndex(of: name) else {
            throw BusError.failed("the method reads an argument \"\(name)\" that it does not declare")
        }
        return index
    }

    /// Reads one value with `read`; a mismatch is InvalidArgs naming the argument.
    private func read<T>(_ read: ([BusValue]) throws(BusValueMismatch) -> T) throws -> T {
        do {
            return try read(values)
        } catch {
            let name = error.index < names.count ? " (\(names[error.index]))" : ""
            throw BusError.invalidArgs("argument \(error.index)\(name) should be of type \(error.expected)")
        }
    }

    /// The string at `i`.
    func string(_ i: Int) throws -> String { try read { v throws(BusValueMismatch) in try v.string(at: i) } }
    /// The int32 at `i`.
    func int32(_ i: Int) throws -> Int32 { try read { v throws(BusValueMismatch) in try v.int32(at: i) } }
    /// The uint32 at `i`.
    func uint32(_ i: Int) throws -> UInt32 { try read { v throws(BusValueMismatch) in try v.uint32(at: i) } }
    /// The uint64 at `i`.
    func uint64(_ i: Int) throws -> UInt64 { try read { v throws(BusValueMismatch) in try v.uint64(at: i) } }
    /// The boolean at `i`.
    func bool(_ i: Int) throws -> Bool { try read { v throws(BusValueMismatch) in try v.boolean(at: i) } }
    /// The string array at `i`.
    func strings(_ i: Int) throws -> [String] {
        try read { v throws(BusValueMismatch) in try v.strings(at: i) }
    }
    /// The string-to-string dictionary (`a{ss}`) at `i`.
    func stringDictionary(_ i: Int) throws -> [String: String] {
        guard i < values.count, case .dictionary(_, _, let entries) = values[i] else {
            throw BusError.invalidArgs("argument \(i) should be of type a{ss}")
        }
        var dictionary: [String: String] = [:]
        for (key, value) in entries {
            guard case .string(let key) = key, case .string(let value) = value else {
                throw BusError.invalidArgs("argument \(i) should be of type a{ss}")
            }
            dictionary[key] = value
        }
        return dictionary
    }
    /// The int32 array at `i`.
    func int32s(_ i: Int) throws -> [Int32] { try read { v throws(BusValueMismatch) in try v.int32s(at: i) } }

    /// The string named `name`.
    func string(_ name: String) throws -> String { try string(index(name)) }
    /// The int32 named `name`.
    func int32(_ name: String) throws -> Int32 { try int32(index(name)) }
    /// The uint32 named `name`.
    func uint32(_ name: String) throws -> UInt32 { try uint32(index(name)) }
    /// The uint64 named `name`.
    func uint64(_ name: String) throws -> UInt64 { try uint64(index(name)) }
    /// The boolean named `name`.
    func bool(_ name: String) throws -> Bool { try bool(index(name)) }
    /// The string array named `name`.
    func strings(_ name: String) throws -> [String] { try strings(index(name)) }
    /// The int32 array named `name`.
    func int32s(_ name: String) throws -> [Int32] { try int32s(index(name)) }
    /// The string-to-string dictionary (`a{ss}`) named `name`.
    func stringDictionary(_ name: String) throws -> [String: String] { try stringDictionary(index(name)) }
}

// The interface tables' shorthands: short, since every row uses them.

/// An argument named `name` of type `signature`.
func arg(_ name: String, _ signature: String) -> BusArgument {
    BusArgument(name: name, signature: signature)
}

/// A string array.
func strings(_ list: [String]) -> BusValue {
    .array(elementSignature: "s", list.map { .string($0) })
}

/// An int32 array.
func int32s(_ list: [Int32]) -> BusValue {
    .array(elementSignature: "i", list.map { .int32($0) })
}
