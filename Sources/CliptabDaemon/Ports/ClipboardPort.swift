// SPDX-License-Identifier: MIT
import CliptabCore

/// What the daemon needs from a clipboard: take it with a text, give it up, read it.
///
/// The X11 adapter implements it; `UnavailableClipboard` stands where there is no display.
public protocol ClipboardPort: AnyObject {
    /// Makes `text` the clipboard's content and returns once it is verifiably owned; throws
    /// `ClipboardUnavailable` when it cannot be taken.
    func copy(_ text: String, isSecret: Bool) throws
    /// Gives up the clipboard if this daemon still owns the copy it made.
    func clear()
    /// Reads the clipboard's text, whoever owns it; `completion` runs later, from the loop.
    func read(completion: @escaping (Result<String, CliptabError>) -> Void)
    /// True while this daemon owns the clipboard.
    var isOwned: Bool { get }
}

/// The clipboard of a daemon without a display: every call says so.
public final class UnavailableClipboard: ClipboardPort {
    private let reason: String

    /// Makes a clipboard that answers `ClipboardUnavailable` with `reason`.
    public init(reason: String) { self.reason = reason }

    /// Throws `ClipboardUnavailable`.
    public func copy(_ text: String, isSecret: Bool) throws {
        throw CliptabError(.clipboardUnavailable, reason)
    }

    /// Does nothing: there is nothing to give up.
    public func clear() {}

    /// Completes with `ClipboardUnavailable`.
    public func read(completion: @escaping (Result<String, CliptabError>) -> Void) {
        completion(.failure(CliptabError(.clipboardUnavailable, reason)))
    }

    /// Always false.
    public var isOwned: Bool { false }
}
