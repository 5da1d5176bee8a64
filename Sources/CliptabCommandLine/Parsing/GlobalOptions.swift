// SPDX-License-Identifier: MIT

/// The options every command accepts, before or after its name.
struct GlobalOptions: Equatable, Sendable {
    /// Print listings as JSON.
    var json = false
    /// How long to wait for the daemon, in milliseconds.
    var timeoutMilliseconds: Int32 = GlobalOptions.defaultTimeoutMilliseconds
    /// When to show the outcome as a desktop notification; nil: as `[cli] notify` says.
    var notify: NotifyPolicy?

    /// The timeout when `--timeout` is not given: 5 s.
    static let defaultTimeoutMilliseconds: Int32 = 5000

    /// The longest timeout accepted, in seconds: what fits a D-Bus timeout in milliseconds.
    static let maximumTimeoutSeconds = 2_000_000.0

    /// The global options as help and completion show them.
    static let specs: [OptionSpec] = [
        .flag("--json", help: "print listings as JSON (one document on one line)"),
        .value(
            "--timeout", "SECONDS",
            help: "wait at most this long for the daemon (default 5; fractions allowed)"),
        .flag(
            "--notify",
            help: "show a failure as a desktop notification too (=all: successes too; =never: none)"),
        .flag("--help", short: "-h", help: "show help and exit"),
        .flag("--version", help: "print cliptab's version and exit"),
    ]

    /// The usage line of the command line as a whole.
    static let usage = "cliptab [--json] [--timeout SECONDS] [--notify[=WHEN]] COMMAND [ARGUMENT...]"

    /// Parses a `--timeout` value: seconds, greater than 0, fractions allowed.
    static func timeout(from text: String) throws(UsageError) -> Int32 {
        guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= maximumTimeoutSeconds
        else {
            throw UsageError(
                "--timeout takes a number of seconds greater than 0 (such as 5 or 0.5), not \"\(text)\"")
        }
        return Int32(max(1, (seconds * 1000).rounded(.up)))
    }
}
