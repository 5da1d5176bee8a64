// SPDX-License-Identifier: MIT

/// How the desktop's search (GNOME Shell's search provider, KRunner) offers and uses rows:
/// the `[search]` section of `cliptab.conf`.
public struct SearchSettings: Equatable, Sendable {
    /// What activating a result does.
    public enum Activation: String, Equatable, Sendable, CaseIterable {
        /// Paste into the focused window; copy where the daemon cannot paste.
        case paste
        /// Copy to the clipboard.
        case copy
    }

    /// What activating a result does (`activate`).
    public var activate = Activation.paste
    /// The most results one search returns (`max_results`).
    public var maxResults = 20

    /// The defaults.
    public init() {}

    /// The value of `activate`: paste or copy.
    public static func activation(_ value: String) throws(ConfigValueError) -> Activation {
        guard let activation = Activation(rawValue: value) else {
            throw ConfigValueError("expected paste or copy, found \"\(value)\"")
        }
        return activation
    }

    /// The settings in the debug log's words.
    public var summary: String { "search.activate=\(activate.rawValue) search.max_results=\(maxResults)" }
}
