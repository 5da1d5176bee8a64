// SPDX-License-Identifier: MIT

/// A secret copy's clear: when, which ownerships of ours hold it, and its text, to find it
/// again where a clipboard manager took it over.
struct SecretClear {
    /// When the secret leaves the clipboard, fixed at its copy.
    let deadline: UInt64
    /// The ownerships holding it now; a paste that puts it back moves its entry here.
    var stamps: [ClipboardSelection: OwnershipStamp]
    /// The text, compared with what the clipboard serves at the deadline; nil for another
    /// program's marked content put back (only our own ownership of it is cleared).
    let text: String?
}
