// SPDX-License-Identifier: MIT
import Posix
import TestSupport
import Testing

/// `cliptab copy` and `cut` against a daemon of API version 3, which has no
/// `PerformActionWithInputs`: a GDBus stand-in on a private bus serving `Copy`, `Cut` and
/// `GetSecret` only, as a daemon still running from before an upgrade does.
@Suite struct EarlierDaemonCopyTests {
    /// The stand-in: table "vault" is secret; `Copy` and `Cut` answer "copy of TABLE" and
    /// "cut of TABLE"; any other method is GDBus's UnknownMethod.
    static let standIn = HelperPrograms.source("earlier_daemon_copy_stand_in.py")

    /// The text of a table that is not secret is printed, a secret table's is not, and
    /// `--quiet` prints nothing: each command ends 0.
    @Test func copyAndCutFallBackToTheFirstMethods() throws {
        let daemon = try EarlierDaemonStandIn(homePrefix: "cliptab-earlier", script: Self.standIn)
        for (arguments, printed) in [
            (["copy", "t", "0:0"], "copy of t"), (["copy", "vault", "0:0"], ""),
            (["copy", "-q", "t", "0:0"], ""),
            (["cut", "t", "0:0"], "cut of t"), (["cut", "vault", "0:0"], ""),
        ] {
            let result = try daemon.cliptab(arguments)
            #expect(result.termination == .exited(0), "\(arguments): \(result.errorText)")
            #expect(result.outputText == printed, "\(arguments)")
        }
    }
}
