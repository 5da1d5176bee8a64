// SPDX-License-Identifier: MIT
import CliptabCore
import Quoting

/// A key of a `[table "NAME"]` section; as with `ConfigKey`, each has a case of its own.
public enum TableKey: String, CaseIterable, Sendable {
    /// `actions`: the allowed context-menu actions.
    case actions
    /// `secret`: whether copies from the table are cleared after a while.
    case secret
    /// `templates`: whether the table's rows are templates, filled in when used.
    case templates

    /// Checks `value` with the key's validator and puts it into `settings`.
    public func apply(_ value: String, to settings: inout TableSettings) throws(ConfigValueError) {
        switch self {
        case .actions: settings.actions = try Self.actions(value)
        case .secret: settings.isSecret = try Self.boolean(value)
        case .templates: settings.isTemplates = try Self.boolean(value)
        }
    }

    /// The value of `secret`: true or false, in the usual spellings.
    public static func boolean(_ value: String) throws(ConfigValueError) -> Bool {
        switch value.lowercased() {
        case "true", "yes", "on", "1": return true
        case "false", "no", "off", "0": return false
        default: throw ConfigValueError("expected true or false, found \(Quotation.quoted(value))")
        }
    }

    /// The value of `actions`: action names, or all, or none.
    public static func actions(_ value: String) throws(ConfigValueError) -> ActionSet {
        let valid = TableAction.allCases.map(\.rawValue).joined(separator: " ")
        let expected = "expected action names from \"\(valid)\", or all, or none"
        let list = ConfigKey.words(value)
        if list == ["all"] { return .all }
        if list == ["none"] { return [] }
        guard !list.isEmpty else { throw ConfigValueError("\(expected), found nothing") }
        var actions: [TableAction] = []
        for word in list {
            guard let action = TableAction(rawValue: word) else {
                throw ConfigValueError("\(expected), found \(Quotation.quoted(word))")
            }
            actions.append(action)
        }
        return ActionSet(actions)
    }
}
