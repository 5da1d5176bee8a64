// SPDX-License-Identifier: MIT
import CliptabStore

/// The settings given on the command line; each one given wins over the file, at the start
/// and on every reload.
public struct ConfigurationOverrides: Equatable, Sendable {
    /// `--data-dir`.
    public var dataDirectory: String?
    /// `--durability`.
    public var durability: Durability?
    /// `--clipboard-backend`.
    public var backend: ClipboardBackendChoice?
    /// `--primary`.
    public var ownPrimary: Bool?
    /// `--secret-clear-ms`.
    public var secretClearMilliseconds: Int?
    /// `--paste-timeout-ms`.
    public var pasteTimeoutMilliseconds: Int?

    /// No overrides.
    public init() {}

    /// `configuration` with every override given put in.
    public func applied(to configuration: DaemonConfiguration) -> DaemonConfiguration {
        var result = configuration
        if let dataDirectory { result.dataDirectory = dataDirectory }
        if let durability { result.durability = durability }
        if let backend { result.backend = backend }
        if let ownPrimary { result.ownPrimary = ownPrimary }
        if let secretClearMilliseconds { result.secretClearMilliseconds = secretClearMilliseconds }
        if let pasteTimeoutMilliseconds { result.pasteTimeoutMilliseconds = pasteTimeoutMilliseconds }
        return result
    }
}
