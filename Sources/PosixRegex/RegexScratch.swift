// SPDX-License-Identifier: MIT

/// Working memory that `ExtendedRegex.matches` keeps between calls: the matcher of the last
/// expression matched, so that a request matching many rows sets it up once.
public struct RegexScratch: Sendable {
    /// The matcher of the last expression matched.
    var matcher: RegexMatcher?

    /// Empty scratch.
    public init() {}
}
