// SPDX-License-Identifier: MIT

/// The window that keyboard input goes to, and the client window that names its program.
public struct FocusedWindow: Equatable, Sendable {
    /// The window with the input focus (the one under the pointer when the focus follows
    /// it); often a child or a focus proxy of the client's top-level window.
    public let window: WindowID
    /// The nearest window around it that carries `WM_CLASS`, or `.none` when none does.
    public let client: WindowID
    /// `WM_CLASS`'s instance name (`st-256color`, `gnome-terminal-server`), or empty.
    public let instanceName: String
    /// `WM_CLASS`'s class name (`st-256color`, `Gnome-terminal`), or empty.
    public let className: String

    /// Makes a description of the focus.
    public init(window: WindowID, client: WindowID, instanceName: String, className: String) {
        self.window = window
        self.client = client
        self.instanceName = instanceName
        self.className = className
    }
}
