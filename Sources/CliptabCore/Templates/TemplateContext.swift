// SPDX-License-Identifier: MIT

/// Everything an expansion reads, given by the caller: the expansion does no I/O.
public struct TemplateContext {
    /// The clock: UTC seconds since 1970.
    public var now: Int64
    /// The zone the clock is shown in.
    public var zone: ZoneRules
    /// The clipboard's text, or nil when it was not read: then a `{clipboard}` makes the
    /// result say `needsClipboard` (read it, and expand again).
    public var clipboard: String?
    /// True when the clipboard's text is marked secret (its owner's password-manager hint):
    /// an expansion that fills it in is secret too.
    public var isClipboardSecret = false
    /// The values of `{input:…}`, by label.
    public var inputs: [String: String]
    /// Random bits for `{uuid}`.
    public var random: () -> UInt64
    /// The row a `{snippet:…}` names (table, row name), or nil when there is none.
    public var snippet: (_ table: String, _ name: String) -> TemplateSource?
    /// The bounds.
    public var limits: TemplateLimits
    /// True to look through the template only (its inputs, its cycles): a missing input or
    /// snippet is no error then.
    public var isInspection: Bool
    /// Templates parsed before, by their text (nil: parse each one).
    public var cache: TemplateCache?

    /// Makes a context; the defaults suit a test: UTC, no clipboard, no snippets.
    public init(
        now: Int64, zone: ZoneRules = .utc, clipboard: String? = nil, inputs: [String: String] = [:],
        random: @escaping () -> UInt64 = { UInt64.random(in: .min ... .max) },
        snippet: @escaping (_ table: String, _ name: String) -> TemplateSource? = { _, _ in nil },
        limits: TemplateLimits = .defaults, isInspection: Bool = false
    ) {
        self.now = now
        self.zone = zone
        self.clipboard = clipboard
        self.inputs = inputs
        self.random = random
        self.snippet = snippet
        self.limits = limits
        self.isInspection = isInspection
    }
}
