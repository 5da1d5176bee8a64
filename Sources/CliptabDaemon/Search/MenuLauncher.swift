// SPDX-License-Identifier: MIT
import CliptabCore
import Glibc
import Posix

/// Opens `cliptab menu` for the search provider's `LaunchSearch`: the `cliptab` installed
/// beside `cliptabd` (else the one on `PATH`), one at a time, and not again within
/// `reopenPauseMilliseconds` of the user closing the last one.
///
/// A menu still open when another is asked for is left as it is: a caller cannot make the
/// daemon start processes without end. The menu grabs the keyboard while it is open, so a
/// program calling `LaunchSearch` in a loop would give it back the moment the user closed
/// it: the pause gives the user the keyboard back. A poll source: the loop wakes when the
/// menu ends (its pidfd), so the pause counts from then.
public final class MenuLauncher: PollSource {
    /// How long after a menu it opened ends `LaunchSearch` opens none (refusing with
    /// `LimitExceeded`).
    public static let reopenPauseMilliseconds: UInt64 = 1000

    /// The menu opened last, until it is seen to have ended.
    private var running: ChildProcess?
    /// When the last menu was seen to end (the daemon's clock), nil before the first.
    private var closedAt: UInt64?
    /// The daemon's monotonic clock, in milliseconds.
    private let clock: () -> UInt64
    /// Starts `cliptab` with the given arguments.
    private let start: ([String]) throws -> ChildProcess

    /// Makes a launcher on the daemon's `clock` that runs `program` (nil: the `cliptab`
    /// beside this executable, else on `PATH`); `start` stands in for spawning it (tests).
    public init(
        program: String? = nil, clock: @escaping () -> UInt64,
        start: (([String]) throws -> ChildProcess)? = nil
    ) {
        let program = program ?? Self.besideExecutable("cliptab") ?? "cliptab"
        self.clock = clock
        self.start =
            start ?? { arguments in
                try ChildProcess.spawn(program, arguments, stdin: .null, stdout: .null, stderr: .inherit)
            }
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
    ///
    /// Throws `LimitExceeded` within `reopenPauseMilliseconds` of the last menu's end.
    public func open(words: [String], table: String?) throws {
        try open(arguments: Self.arguments(words: words, table: table))
    }

    /// Starts `cliptab` with `arguments` (a key's `menu` or `pick`), as `open(words:table:)`
    /// does: not while the last one started is still running, nor within the pause after it.
    public func open(arguments: [String]) throws {
        let now = clock()
        noticeEnd(now: now)
        if running != nil {
            Log.line(
                "cliptab \(arguments.first ?? ""): one opened before is still open; not opening another",
                level: .debug)
            return
        }
        if let closedAt, now < closedAt + Self.reopenPauseMilliseconds {
            throw CliptabError(
                .limitExceeded,
                "cliptab's menu was closed \(now - closedAt) ms ago; it is opened again "
                    + "\(Self.reopenPauseMilliseconds) ms after it was closed at the earliest, so that the "
                    + "keyboard it grabs goes back to the user")
        }
        running = try start(arguments)
    }

    /// The open menu's pidfd: readable once it ends.
    public var pollDescriptor: Int32? { running?.exitDescriptor }

    /// Notices that the open menu ended.
    public func process(now: UInt64) { noticeEnd(now: now) }

    /// None: the menu's end is an event.
    public func nextDeadline() -> UInt64? { nil }

    /// Reaps the open menu once it has ended, and starts the pause at `now`.
    private func noticeEnd(now: UInt64) {
        guard let running, running.exitStatusIfEnded() != nil else { return }
        self.running = nil
        closedAt = now
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
