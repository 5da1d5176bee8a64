// SPDX-License-Identifier: MIT
import CliptabCore

/// The clipboard of a daemon without a display: every call says so.
public final class UnavailableClipboard: ClipboardPort {
    private let reason: String
    /// The settings in force, kept for a display that is never used.
    public var settings = ClipboardSettings()

    /// Makes a clipboard that answers `ClipboardUnavailable` with `reason`.
    public init(reason: String) { self.reason = reason }

    /// Throws `ClipboardUnavailable`.
    public func copy(_ text: String, isSecret: Bool) throws {
        throw CliptabError(.clipboardUnavailable, reason)
    }

    /// Does nothing: there is nothing to give up.
    public func clear() {}

    /// Completes with `ClipboardUnavailable`.
    public func read(completion: @escaping (Result<ClipboardText, CliptabError>) -> Void) {
        completion(.failure(CliptabError(.clipboardUnavailable, reason)))
    }

    /// Always false.
    public var isOwned: Bool { false }
}
