// SPDX-License-Identifier: MIT

/// Parsed templates kept by their text, so that a row copied again is not parsed again.
///
/// Bounded: only texts of at most `maxTextBytes` are kept, at most `capacity` of them (all
/// are forgotten when it is full), so the cache holds at most a few MiB. It memoizes a pure
/// function: a result never depends on whether it came from here.
public final class TemplateCache {
    /// The longest text kept, in UTF-8 bytes.
    public static let maxTextBytes = 4096

    /// The most templates kept.
    public let capacity: Int
    private var parsed: [String: Template] = [:]
    private var placeholderLimit = TemplateLimits.defaults.maxPlaceholders

    /// Makes an empty cache of at most `capacity` templates.
    public init(capacity: Int = 512) { self.capacity = capacity }

    /// The template of `text`, parsed under `limits` (or found parsed under the same ones).
    public func template(_ text: String, limits: TemplateLimits) throws(TemplateSyntaxError) -> Template {
        guard text.utf8.count <= Self.maxTextBytes else { return try Template(parsing: text, limits: limits) }
        if limits.maxPlaceholders != placeholderLimit {
            parsed = [:]
            placeholderLimit = limits.maxPlaceholders
        }
        if let found = parsed[text] { return found }
        let template = try Template(parsing: text, limits: limits)
        if parsed.count >= capacity { parsed = [:] }
        parsed[text] = template
        return template
    }
}
