// SPDX-License-Identifier: MIT

/// The addresses of the cliptab API on the session bus (`docs/dbus-api.md`).
///
/// This module holds names only, no code: the daemon, the CLI, the benchmark and the tests
/// import it, and the CLI gets the names without linking the model.
public enum CliptabBus {
    /// The well-known bus name.
    public static let name = "io.github.cliptab.Cliptab1"
    /// The object path.
    public static let path = "/io/github/cliptab/Cliptab1"
    /// The interface name.
    public static let interface = "io.github.cliptab.Cliptab1"
    /// The prefix of every cliptab error name.
    public static let errorPrefix = "io.github.cliptab.Cliptab1.Error."
    /// The API version (`ApiVersion` property).
    public static let apiVersion: UInt32 = 4
    /// The match rule for every signal of the interface.
    public static let signalRule = "type='signal',interface='io.github.cliptab.Cliptab1'"

    /// The directory of cliptabd's own sockets in `runtimeDirectory` (`XDG_RUNTIME_DIR`):
    /// this user's alone (mode 0700).
    public static func peerSocketDirectory(runtimeDirectory: String) -> String {
        runtimeDirectory + "/cliptab"
    }

    /// The socket where the cliptabd serving the bus of `busKey` (`BusCallLink.busKey`)
    /// takes the CLI's calls without the bus.
    ///
    /// Not part of the contract: the same object and interface as on the bus, for this
    /// user's own CLI; outside programs use the bus.
    public static func peerSocketPath(runtimeDirectory: String, busKey: String) -> String {
        peerSocketDirectory(runtimeDirectory: runtimeDirectory) + "/bus-" + busKey
    }
}
