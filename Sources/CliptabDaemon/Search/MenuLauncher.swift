// SPDX-License-Identifier: MIT
import Glibc
import Posix

/// Opens `cliptab menu` for the search provider's `LaunchSearch`: the `cliptab` installed
/// beside `cliptabd` (else the one on `PATH`), one at a time.
///
/// A menu still open when another is asked for is left as it is: a caller cannot make the
/// daemon start processes without end.
public final class MenuLauncher {
    /// The menu opened last, until it is seen to have ended.
    private var running: ChildProcess?
    /// The program run: `cliptab` beside this executable, else `cliptab` on `PATH`.
    private let program: String

    /// Makes a launcher; `program` names the `cliptab` to run (nil: found as above).
    public init(program: String? = nil) {
        self.program = program ?? Self.besideExecutable("cliptab") ?? "cliptab"
    }

    /// The arguments of `cliptab` for `words` and `table`: `menu [--filter WORDS] [-- TABLE]`.
    public static func arguments(words: [String], table: String?) -> [String] {
        let filter = words.joined(separator: " ")
        var arguments = ["menu"]
        if table != nil && !filter.isEmpty { arguments += ["--filter", filter] }
        if let table { arguments += ["--", table] }
        return arguments
    }

    /// Opens the menu on `table` (nil: the list of tables) filtered by `words`, unless the
    /// last one opened is still open; returns at once.
    public func open(words: [String], table: String?) throws {
        if let running, running.isRunning {
            Log.line("LaunchSearch: a menu opened before is still open; not opening another", level: .debug)
            return
        }
        running = try ChildProcess.spawn(
            program, Self.arguments(words: words, table: table), stdin: .null, stdout: .null, stderr: .inherit
        )
    }

    /// The path of `name` in the directory of the running executable, if it is there.
    static func besideExecutable(_ name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let path = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = path.lastIndex(of: "/") else { return nil }
        let candidate = path[..<slash] + "/" + name
        return access(candidate, X_OK) == 0 ? String(candidate) : nil
    }
}
