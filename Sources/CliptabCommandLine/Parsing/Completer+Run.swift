// SPDX-License-Identifier: MIT
import DBus

extension Completer {
    /// How long a completion waits for the daemon: a shell must not hang on a key press.
    static let daemonTimeoutMilliseconds: Int32 = 1000

    /// Answers `cliptab __complete WORD...` on standard output and returns the exit status.
    ///
    /// The first line says what follows: `words`, then one candidate a line, or `files` for
    /// the shell's own file name completion. The daemon is asked only for table and row
    /// names, with a short deadline; when it cannot answer there are no candidates, and
    /// nothing is printed on standard error (the shell shows no message while completing).
    static func run(_ words: [String]) -> Int32 {
        let completer = Completer(commands: CommandList.all.map { $0.spec }, groups: CommandList.groups)
        var lines: [String]
        switch completer.answer(words) {
        case .files:
            lines = ["files"]
        case .words(let words):
            lines = ["words"] + words
        case .tables(let prefix):
            let names = (try? daemon().daemon { try $0.tables() }) ?? []
            lines = ["words"] + names.filter { $0.hasPrefix(prefix) }
        case .rows(let table, let prefix):
            let names = ((try? daemon().daemon { try $0.rowNames(table) }) ?? []).map(\.name)
            lines = ["words"] + names.filter { $0.hasPrefix(prefix) }
        }
        // A candidate is one line: a name with a line break in it cannot be offered.
        let text = lines.filter { !$0.contains("\n") }.map { $0 + "\n" }.joined()
        writeToStandardOutputOrIgnore(text)
        return ExitStatus.success
    }

    /// A connection to the daemon with the completion's deadline.
    private static func daemon() -> CommandContext {
        var options = GlobalOptions()
        options.timeoutMilliseconds = daemonTimeoutMilliseconds
        return CommandContext(options: options)
    }
}
