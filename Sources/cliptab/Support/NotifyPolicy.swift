// SPDX-License-Identifier: MIT
import Glibc

/// When the CLI shows its outcome as a desktop notification: `--notify[=WHEN]`, or
/// `[cli] notify` in `cliptab.conf` when the option is not given.
enum NotifyPolicy: String, CaseIterable, Sendable {
    /// Never (the default): standard error only.
    case never
    /// Failures only (what a bare `--notify` means).
    case failures
    /// Failures, and the successes of the commands a key is bound to (copy, cut, paste, do).
    case all

    /// True when failures are shown.
    var notifiesFailures: Bool { self != .never }

    /// The policy of `--notify=WHEN`; throws for a word that is not one.
    static func parse(_ word: String) throws(UsageError) -> NotifyPolicy {
        guard let policy = NotifyPolicy(rawValue: word) else {
            let words = allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError("--notify takes one of \(words), not \"\(word)\"")
        }
        return policy
    }

    /// The policy of `[cli] notify` in the user's `cliptab.conf` (`$XDG_CONFIG_HOME`, else
    /// `~/.config`), or `never` when the file or the key is missing or the value is wrong.
    ///
    /// Read only when an outcome may be shown, so that the commands that never notify do
    /// not pay for a file read; the daemon reports a wrong value when it loads the file.
    static func configured() -> NotifyPolicy {
        guard let path = configPath(), let bytes = readSmallFile(path) else { return .never }
        return value(in: bytes).flatMap { NotifyPolicy(rawValue: $0) } ?? .never
    }

    /// The configuration file's path, as the daemon finds it.
    private static func configPath() -> String? {
        if let base = environment("XDG_CONFIG_HOME"), base.hasPrefix("/") {
            return base + "/cliptab/cliptab.conf"
        }
        guard let home = environment("HOME"), !home.isEmpty else { return nil }
        return home + "/.config/cliptab/cliptab.conf"
    }

    /// The value of `notify` in `[cli]`, in the file's INI syntax (`#` and `;` comments,
    /// blanks around `=` ignored).
    static func value(in bytes: [UInt8]) -> String? {
        var section = ""
        var found: String?
        for rawLine in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            let line = trimmed(String(decoding: rawLine, as: UTF8.self))
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                section = trimmed(String(line.dropFirst().prefix { $0 != "]" }))
                continue
            }
            guard section == "cli", let equals = line.firstIndex(of: "=") else { continue }
            if trimmed(String(line[..<equals])) == "notify" {
                found = trimmed(String(line[line.index(after: equals)...]))
            }
        }
        return found
    }

    /// `text` without blanks at either end.
    private static func trimmed(_ text: String) -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        return String(text.drop(while: isBlank).reversed().drop(while: isBlank).reversed())
    }

    /// An environment variable, nil when unset.
    private static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// The first 64 KiB of the file at `path`, nil when it cannot be read: a configuration
    /// is small, and a notification is no reason to read a huge file.
    private static func readSmallFile(_ path: String) -> [UInt8]? {
        // Without blocking, and a regular file only: a FIFO at the path would hold every
        // command that may notify until some program wrote to it.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        var bytes = [UInt8](repeating: 0, count: 1 << 16)
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes {
                read(descriptor, $0.baseAddress! + filled, $0.count - filled)
            }
            if count > 0 {
                filled += count
            } else if count == 0 || errno != EINTR {
                break
            }
        }
        return Array(bytes[0..<filled])
    }
}
