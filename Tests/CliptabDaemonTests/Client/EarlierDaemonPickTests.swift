// SPDX-License-Identifier: MIT
import Glibc
import Posix
import TestSupport
import Testing

/// `cliptab pick` against a daemon of API version 1, which has neither `GetSecret`,
/// `GetRowNames` nor `GetRowPreviews`: a GDBus stand-in on a private bus serving only the
/// first API's `GetSections`, `GetRows`, `Locate` and `GetCell`.
///
/// The menu always took such a daemon's tables as not secret, while `pick` failed on the
/// refused `GetSecret`: both now fetch rows, names and secrecy through the same client calls.
@Suite struct EarlierDaemonPickTests {
    /// The stand-in: every table has one section of the rows #7 "first row" and #8 "second
    /// row"; any other method is GDBus's UnknownMethod.
    static let standIn = HelperPrograms.source("earlier_daemon_pick_stand_in.py")

    /// The rows are offered as their text (a table of the first API is not secret), and the
    /// second one chosen is printed.
    @Test func pickTakesTheTablesOfAFirstDaemonAsNotSecret() throws {
        let daemon = try EarlierDaemonStandIn(homePrefix: "cliptab-earlier-pick", script: Self.standIn)
        let home = daemon.home
        // A launcher that keeps the lines it was given and answers with the second.
        let launcher = home.appending("launcher")
        let given = home.appending("given")
        guard let file = fopen(launcher, "w") else { throw FixtureError("cannot write \(launcher)") }
        fputs("#!/bin/sh\ncat > \"$1\"\nsed -n '2p' \"$1\"\n", file)
        fclose(file)
        chmod(launcher, 0o755)
        let result = try daemon.cliptab([
            "pick", "t", "--launcher", "\(launcher) \(given)", "--action", "print",
        ])
        #expect(result.termination == .exited(0), "\(result.errorText)")
        #expect(result.outputText == "second row")
        let lines = try ChildProcess.run("cat", [given]).outputText
        #expect(lines == "1\tfirst row\n2\tsecond row\n")
    }
}
