// SPDX-License-Identifier: MIT

/// The bounds of a template and of its expansion, like every other call's.
public struct TemplateLimits: Equatable, Sendable {
    /// The most placeholders one template may hold (checked when it is stored).
    public var maxPlaceholders: Int
    /// The most placeholders one expansion fills in, nested snippets included.
    public var maxExpandedPlaceholders: Int
    /// The deepest nesting of `{snippet:…}` (a snippet of a snippet is depth 2).
    public var maxDepth: Int
    /// The largest result, in UTF-8 bytes.
    public var maxOutputBytes: Int

    /// The defaults: 1,000 placeholders a template, 10,000 an expansion, 8 levels, 16 MiB.
    public static let defaults = TemplateLimits(
        maxPlaceholders: 1_000, maxExpandedPlaceholders: 10_000, maxDepth: 8, maxOutputBytes: 16 << 20)

    /// Makes a set of bounds.
    public init(maxPlaceholders: Int, maxExpandedPlaceholders: Int, maxDepth: Int, maxOutputBytes: Int) {
        self.maxPlaceholders = maxPlaceholders
        self.maxExpandedPlaceholders = maxExpandedPlaceholders
        self.maxDepth = maxDepth
        self.maxOutputBytes = maxOutputBytes
    }
}
