// SPDX-License-Identifier: MIT
import CliptabConfig

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

    /// The policy of `[cli] notify` in the user's `cliptab.conf` (where the daemon finds
    /// it), or `never` when the file or the key is missing, the file cannot be read (a FIFO,
    /// over 1 MiB) or the value is wrong.
    ///
    /// Read only when an outcome may be shown, so that the commands that never notify do
    /// not pay for a file read; the daemon reports a wrong value when it loads the file.
    static func configured() -> NotifyPolicy {
        guard let path = ConfigLocation.defaultPath(), let file = try? ConfigFile.load(path: path) else {
            return .never
        }
        return file.value(of: "notify", in: "cli").flatMap { NotifyPolicy(rawValue: $0) } ?? .never
    }
}
