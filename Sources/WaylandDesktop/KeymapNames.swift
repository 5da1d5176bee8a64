// SPDX-License-Identifier: MIT

/// The names that choose an XKB keymap (rules, model, layout, variant, options), as
/// `setxkbmap` and compositors' configurations spell them.
///
/// A nil or empty name leaves the choice to libxkbcommon, which takes `XKB_DEFAULT_RULES`,
/// `XKB_DEFAULT_MODEL`, `XKB_DEFAULT_LAYOUT`, `XKB_DEFAULT_VARIANT` and `XKB_DEFAULT_OPTIONS`
/// from the environment, and its built-in defaults (evdev, pc105, us) after them.
public struct KeymapNames: Equatable, Sendable, CustomStringConvertible {
    /// The rules file (`evdev`).
    public var rules: String?
    /// The keyboard model (`pc105`).
    public var model: String?
    /// The layouts, comma-separated (`us`, `de,us`).
    public var layout: String?
    /// The variants, one per layout (`nodeadkeys`).
    public var variant: String?
    /// The options (`ctrl:nocaps`).
    public var options: String?

    /// Makes a set of names; nil leaves each to the environment and the defaults.
    public init(
        rules: String? = nil, model: String? = nil, layout: String? = nil, variant: String? = nil,
        options: String? = nil
    ) {
        self.rules = rules
        self.model = model
        self.layout = layout
        self.variant = variant
        self.options = options
    }

    /// `layout=de variant=nodeadkeys`, or `the default` when none is named; the names left
    /// to the environment are those of `XKB_DEFAULT_*` in `environment` where set.
    public func summary(environment: [String: String] = [:]) -> String {
        let fields: [(String, String?, String)] = [
            ("rules", rules, "XKB_DEFAULT_RULES"), ("model", model, "XKB_DEFAULT_MODEL"),
            ("layout", layout, "XKB_DEFAULT_LAYOUT"), ("variant", variant, "XKB_DEFAULT_VARIANT"),
            ("options", options, "XKB_DEFAULT_OPTIONS"),
        ]
        let named = fields.compactMap { field -> String? in
            let value =
                field.1.flatMap { $0.isEmpty ? nil : $0 }
                ?? environment[field.2].flatMap {
                    $0.isEmpty ? nil : $0
                }
            return value.map { "\(field.0)=\($0)" }
        }
        return named.isEmpty ? "the default (evdev pc105 us)" : named.joined(separator: " ")
    }

    /// The names as given (for messages).
    public var description: String { summary() }
}
