// SPDX-License-Identifier: MIT
import CliptabCore
import DBus

/// The `a{sv}` options argument of the methods of API version 4, read one way for all.
///
/// Each method names the options it knows with their types; an unknown option, or one of
/// another type, is `InvalidArgument`, so that an option a later version adds is never
/// silently ignored by a daemon that does not know it.
struct CallOptions {
    /// A known option: its name and its D-Bus type (`b`, `t` or `s`).
    typealias Known = (name: String, signature: String)

    private let values: [String: BusValue]

    /// Reads `value` (an `a{sv}`) against `known`.
    init(_ value: BusValue, known: [Known]) throws {
        var values: [String: BusValue] = [:]
        if case .dictionary(_, _, let entries) = value {
            for (key, entry) in entries {
                guard case .string(let name) = key else { continue }
                guard case .variant(let inner) = entry, let option = known.first(where: { $0.name == name }),
                    Self.has(inner, signature: option.signature)
                else {
                    let list = known.map { "\($0.name) (\($0.signature))" }.joined(separator: ", ")
                    throw CliptabError(
                        .invalidArgument,
                        "unknown option \"\(name)\" (or not of its type); "
                            + (known.isEmpty ? "this method takes none yet" : "the options are \(list)"))
                }
                values[name] = inner
            }
        }
        self.values = values
    }

    /// The boolean option `name`; false when absent.
    func bool(_ name: String) -> Bool {
        if case .boolean(let on) = values[name] { return on }
        return false
    }

    /// The unsigned option `name`; 0 when absent.
    func uint64(_ name: String) -> UInt64 {
        if case .uint64(let number) = values[name] { return number }
        return 0
    }

    /// The string option `name`; nil when absent.
    func string(_ name: String) -> String? {
        if case .string(let text) = values[name] { return text }
        return nil
    }

    private static func has(_ value: BusValue, signature: String) -> Bool {
        switch (value, signature) {
        case (.boolean, "b"), (.uint64, "t"), (.string, "s"): true
        default: false
        }
    }
}
