// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabContract
import DBus
import TestSupport

/// What tests read from the calls they make through `CliptabClient`: error names and string
/// arrays.
public enum Cliptab {
    /// The short error name a call fails with (`IndexOutOfRange`, or a full name outside the
    /// contract), or nil when it succeeds.
    public static func errorName(_ connection: BusConnection, _ member: String, _ arguments: [BusValue])
        -> String?
    {
        do {
            try CliptabClient.call(connection, member, arguments)
            return nil
        } catch let error as BusError {
            return short(error.name)
        } catch {
            return "\(error)"
        }
    }

    /// `IndexOutOfRange` for a contract error name; other names unchanged.
    public static func short(_ name: String) -> String {
        name.hasPrefix(CliptabBus.errorPrefix) ? String(name.dropFirst(CliptabBus.errorPrefix.count)) : name
    }

    /// The strings of an `as` value.
    public static func strings(_ value: BusValue?) throws -> [String] {
        guard case .array(_, let items)? = value else {
            throw FixtureError("not an as: \(String(describing: value))")
        }
        return try items.map {
            guard case .string(let text) = $0 else { throw FixtureError("not an s: \($0)") }
            return text
        }
    }
}

/// `.string` shorthand.
public func s(_ text: String) -> BusValue { .string(text) }
/// `.int32` shorthand.
public func i(_ number: Int32) -> BusValue { .int32(number) }
/// `ai` shorthand.
public func ai(_ numbers: [Int32]) -> BusValue { .array(elementSignature: "i", numbers.map { .int32($0) }) }
/// `a{ss}` shorthand, in key order (so that a call is the same every time).
public func inputs(_ values: [String: String]) -> BusValue {
    .dictionary(
        keySignature: "s", valueSignature: "s",
        values.sorted { $0.key < $1.key }.map { (.string($0.key), .string($0.value)) })
}
/// `as` shorthand.
public func strings(_ texts: [String]) -> BusValue {
    .array(elementSignature: "s", texts.map { .string($0) })
}
