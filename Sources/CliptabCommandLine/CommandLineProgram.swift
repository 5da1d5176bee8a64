// SPDX-License-Identifier: MIT
import CliptabClient
import DBus
import Glibc

/// The program's arguments, refused as a usage error when one is not UTF-8: argv is bytes,
/// and Swift would otherwise replace bad ones silently, storing text nobody typed.
func programArguments() throws(UsageError) -> [String] {
    var words: [String] = []
    for index in 1..<Int(CommandLine.argc) {
        guard let pointer = CommandLine.unsafeArgv[index], let word = String(validatingCString: pointer)
        else {
            throw UsageError("argument \(index) is not valid UTF-8")
        }
        words.append(word)
    }
    return words
}

/// Runs the program's command line and returns the exit status: what `cliptab`'s `main`
/// does, parsing the command line, running the command and mapping the outcome to a status.
package func runCommandLine() -> Int32 {
    // A reader that goes away is handled where output is written (EPIPE), not by dying.
    signal(SIGPIPE, SIG_IGN)
    // The shells' completion scripts: answered before any parsing the command does not need.
    if CommandLine.argc > 1, let first = CommandLine.unsafeArgv[1], strcmp(first, "__complete") == 0 {
        guard let words = try? programArguments() else { return ExitStatus.success }
        return Completer.run(Array(words.dropFirst()))
    }
    let invocation: Invocation
    do {
        invocation = CommandList.parser.parse(try programArguments())
    } catch {
        invocation = .usageError(error)
    }
    switch invocation {
    case .version:
        writeToStandardOutputOrIgnore("cliptab \(CLIVersion.number)\n")
        return ExitStatus.success
    case .usageError(let error):
        writeToStandardError(error.report)
        if notifyPolicyOfUnparsedLine().notifiesFailures {
            DesktopNotifier.show(
                summary: "cliptab: wrong command line", body: error.message, urgency: .critical, over: nil)
        }
        return ExitStatus.usage
    case .run(let command, let options):
        let context = CommandContext(options: options)
        do {
            try command.run(context)
            try context.output.flush()
            // The configuration is read only for the commands that may report a success.
            if let notice = command.successNotice, (options.notify ?? .configured()) == .all {
                DesktopNotifier.show(summary: notice, body: "", urgency: .low, over: context.openConnection)
            }
            return ExitStatus.success
        } catch {
            let failure: CLIFailure
            switch error {
            case let known as CLIFailure: failure = known
            case let client as ClientFailure: failure = CLIFailure(client)
            case let bus as BusError: failure = .local("\(bus.message) (\(bus.name))")
            default: failure = .local("\(error)")
            }
            // What was printed before the failure still goes out (a partial listing is
            // better than a silent one when the reader is still there).
            if case .outputClosed = failure {} else { try? context.output.flush() }
            writeToStandardError(failure.report)
            if failure.isNotified, (options.notify ?? .configured()).notifiesFailures {
                DesktopNotifier.show(
                    summary: "cliptab \(type(of: command).spec.name) failed", body: failure.notificationBody,
                    urgency: .critical, over: context.openConnection)
            }
            return failure.exitStatus
        }
    }
}

/// The notification policy of a command line that did not parse: its `--notify` word if it
/// has a valid one, else the configuration's.
func notifyPolicyOfUnparsedLine() -> NotifyPolicy {
    let words = (try? programArguments()) ?? []
    for word in words.prefix(while: { $0 != "--" }) where word == "--notify" || word.hasPrefix("--notify=") {
        if let policy = try? NotifyPolicy.parse(ArgumentParser.split(word).value ?? "failures") {
            return policy
        }
    }
    return .configured()
}

/// Writes `text` to standard output, ignoring a closed reader.
func writeToStandardOutputOrIgnore(_ text: String) {
    _ = try? writeAll(Array(text.utf8), to: 1)
}
