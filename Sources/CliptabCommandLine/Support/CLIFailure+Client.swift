// SPDX-License-Identifier: MIT
import CliptabClient
import DBus

extension CLIFailure {
    /// The CLI's words for a failed call: a refusal exits 1 with the daemon's error, a daemon
    /// (or bus) that is not there or does not answer exits 69 and says how to start it.
    init(_ failure: ClientFailure) {
        switch failure {
        case .noBus(let error) where error.name == BusErrorName.noReply:
            // A bus that takes the socket and never answers: the watchdog's words, since
            // over a `BusCallLink` that silence shows at the first call instead of at connect.
            self = .unreachable(ConnectWatchdog.message.description)
        case .noBus(let error):
            self = .unreachable(
                "cliptab: cannot connect to the session bus: \(error.message) (\(error.name))\n" + startHint)
        case .refused(let error):
            self = .refused(error)
        case .gone(let error):
            self = .unreachable(
                "cliptab: cannot reach cliptabd: \(error.message) (\(error.name))\n" + startHint)
        case .stopped(let error):
            self = .unreachable(
                "cliptab: cliptabd stopped before it answered: \(error.message) (\(error.name))\n" + startHint
            )
        case .timedOut(let error, let timeout):
            self = .unreachable(
                "cliptab: cliptabd did not answer within \(seconds(timeout)) (\(error.name)); "
                    + "it may be busy or hung, so a change asked for may still be made.\n"
                    + "Try again with a longer --timeout, or restart it with "
                    + "'systemctl --user restart cliptabd'.\n")
        case .unsendable(let member, let error):
            self = .local("cannot send \(member): \(error.message)")
        case .unexpectedReply(let member, let mismatch):
            self = .local(
                "cliptabd answered \(member) with an unexpected reply (value \(mismatch.index) should be of type "
                    + "\(mismatch.expected)); is it a different version?")
        }
    }
}

/// "5 s", "0.5 s".
func seconds(_ milliseconds: Int32) -> String {
    let whole = milliseconds / 1000
    let rest = milliseconds % 1000
    guard rest != 0 else { return "\(whole) s" }
    var fraction = String(rest)
    while fraction.count < 3 { fraction = "0" + fraction }
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return "\(whole).\(fraction) s"
}
