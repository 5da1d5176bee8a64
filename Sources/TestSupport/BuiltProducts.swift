// SPDX-License-Identifier: MIT
import Foundation

/// Where SwiftPM put the built executables of this package.
public enum BuiltProducts {
    /// The directory of the running test bundle, which is SwiftPM's bin directory.
    public static var directory: String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        return (executable as NSString).deletingLastPathComponent
    }

    /// The path of the built executable `name` (for example `cliptabd`).
    public static func path(of name: String) -> String { "\(directory)/\(name)" }
}
