// SPDX-License-Identifier: MIT
import Foundation

/// A directory made for one test and removed with everything in it when released.
public final class TemporaryDirectory {
    /// The directory's path.
    public let path: String

    /// Makes a fresh directory under `$TMPDIR` (or `/tmp`).
    public init(prefix: String = "cliptab-test") throws {
        let base = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        var template = Array("\(base)/\(prefix).XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw FixtureError("mkdtemp failed under \(base)")
        }
        path = String(cString: made)
    }

    /// The path of `name` inside the directory.
    public func appending(_ name: String) -> String { "\(path)/\(name)" }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
