// SPDX-License-Identifier: MIT
import Foundation

/// The checkout the tests run from, found once from this file's place in it
/// (`Sources/TestSupport/Repository.swift`), for the tests that read the project's own files.
public enum Repository {
    /// The repository's root directory.
    public static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The path of the repository file at `relativePath` (`docs/dbus-api.md`).
    public static func path(_ relativePath: String) -> String { "\(root)/\(relativePath)" }

    /// The text of the repository file at `relativePath`.
    public static func text(_ relativePath: String) throws -> String {
        try String(contentsOfFile: path(relativePath), encoding: .utf8)
    }
}
