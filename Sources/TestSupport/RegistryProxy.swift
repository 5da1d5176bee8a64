// SPDX-License-Identifier: MIT
import Posix

/// A Wayland socket in a `HeadlessCompositor` session through which the compositor's registry
/// looks different: a small proxy (Python) that passes every message and file descriptor
/// both ways but edits the registry's announcements of one interface.
///
/// Hiding stands in for a compositor without, say, `zwp_virtual_keyboard_manager_v1` (KWin,
/// GNOME, a sandbox that filters globals) while keeping sway's data-control. Renaming stands
/// in for a compositor with another name for the same protocol: `ext_data_control_v1` is
/// `zwlr_data_control_unstable_v1` version 2 standardized, request for request, event for
/// event and argument for argument, and no compositor here offers it under its own name.
public final class RegistryProxy {
    /// The proxy's socket: a `WAYLAND_DISPLAY` (absolute path).
    public let socketPath: String
    /// The proxy process.
    public let process: ChildProcess

    /// Starts the proxy for `sway`, hiding `interface`; returns once it listens.
    public convenience init(_ sway: HeadlessCompositor, hiding interface: String) throws {
        try self.init(sway, socketName: "hiding-\(interface)", arguments: ["hide", interface])
    }

    /// Starts the proxy for `sway`, announcing `interface` as `name` at `version` and binding
    /// the compositor's at `upstreamVersion` when a client binds `name`; returns once it
    /// listens.
    public convenience init(
        _ sway: HeadlessCompositor, renaming interface: String, upstreamVersion: UInt32, as name: String,
        version: UInt32
    ) throws {
        try self.init(
            sway, socketName: "renaming-\(interface)",
            arguments: ["rename", interface, String(upstreamVersion), name, String(version)])
    }

    private init(_ sway: HeadlessCompositor, socketName: String, arguments: [String]) throws {
        socketPath = "\(sway.runtimeDirectory)/\(socketName)"
        process = try sway.spawn(
            "/usr/bin/python3", ["-c", Self.script, sway.socketPath, socketPath] + arguments, stdout: .pipe,
            stderr: .null)
        guard process.readLine(timeoutMilliseconds: 10_000) == "ready" else {
            process.terminate(graceMilliseconds: 500)
            throw FixtureError("the Wayland proxy did not start")
        }
    }

    deinit { process.terminate(graceMilliseconds: 500) }

    /// The proxy: one upstream connection per client; messages are split on their size
    /// field so that a `wl_registry.global` of the interface can be left out or rewritten,
    /// and a `wl_registry.bind` of the new name rewritten back (the registries are the ids
    /// the client gave `wl_display.get_registry`).
    private static let script = HelperPrograms.source("registry_proxy.py")
}
