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
    /// Reads the clipboard's text and its owner's password mark, whoever owns it;
    /// `completion` runs later, from the loop.
    func read(completion: @escaping (Result<ClipboardText, CliptabError>) -> Void)
    /// True while this daemon owns the clipboard.
    var isOwned: Bool { get }
    /// The settings in force; a reload of the configuration puts new ones here.
    var settings: ClipboardSettings { get set }
}
