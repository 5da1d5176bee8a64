/// One binding of `[keys]` as a binder sees it.
public struct KeyBindingRequest: Sendable, Equatable {
    /// An id stable across reloads, made from the action (`paste-snippets-sig`).
    public let id: String
    /// The keys as `cliptab.conf` names them, normalised (`Super+Alt+I`).
    public let keys: String
    /// What the binding does, in words a desktop's dialog shows.
    public let description: String

    /// Makes a request.
    public init(id: String, keys: String, description: String) {
        self.id = id
        self.keys = keys
        self.description = description
    }
}

/// What became of one binding.
public enum KeyBindingState: Sendable, Equatable {
    /// Grabbed on the X11 root window.
    case grabbed
    /// Bound by the desktop (the GlobalShortcuts portal) to the trigger it describes.
    case boundByDesktop(trigger: String)
    /// Added to sway's bindings through its IPC.
    case boundInSway
    /// Not bound; the reason says why and what to do.
    case notBound(reason: String)
}

/// A key press or release a binder reports, by binding id.
public enum KeyEvent: Sendable, Equatable {
    /// The keys went down (X11 press, portal `Activated`, sway's binding ran).
    case pressed(id: String)
    /// The keys came up (X11 release, portal `Deactivated`).
    case released(id: String)
}

/// A way to own the user's shortcuts on one kind of session. Binders are built with the
/// callback that receives their `KeyEvent`s.
public protocol KeyBinder: AnyObject {
    /// Binds `requests`, replacing what was bound before; answers each one's state by id.
    func bind(_ requests: [KeyBindingRequest]) -> [String: KeyBindingState]
    /// Releases everything bound (at exit and before a reload binds again).
    func unbindAll()
}
