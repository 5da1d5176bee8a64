// SPDX-License-Identifier: MIT

/// The client's version.
enum CLIVersion {
    /// The version number, as `--version` prints it.
    static let number = "0.1.0"
}
