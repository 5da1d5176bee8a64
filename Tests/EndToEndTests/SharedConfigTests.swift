// SPDX-License-Identifier: MIT
import DaemonTestSupport
import Glibc
import Posix
import TestSupport
import Testing

/// The same `cliptab.conf` read by its three readers, the built programs.
///
/// `cliptabd --check-config`, `cliptab` (`[cli] notify`) and `cliptab-menu` (`[menu]`):
/// each file means the same to all three, and none waits on a FIFO or reads a huge file.
@Suite(.serialized) struct SharedConfigTests {
    /// One file and what each program makes of it.
    struct Case: CustomStringConvertible {
        /// What the file shows.
        let name: String
        /// The file's text; nil for a FIFO at the path.
        let text: String?
        /// True when cliptabd accepts the file.
        let daemonAccepts: Bool
        /// What cliptabd's report must hold when it refuses the file.
        let daemonSays: String
        /// True when the CLI notifies a failure under the file (`notify` is read).
        let cliNotifies: Bool
        /// What cliptab-menu must print, nil when it must print nothing about the file.
        let menuSays: String?

        var description: String { name }
    }

    /// The `[menu]` line in each good file: a value the popup reports, so that its stderr
    /// shows that it read the section.
    static let menuProblem = "rows must be a whole number from 1 to 200, not \"many\"; using the default"

    static let cases: [Case] = [
        Case(
            name: "quoted values", text: "[cli]\nnotify = \"all\"\n[menu]\nrows = \"many\"\n",
            daemonAccepts: true, daemonSays: "", cliNotifies: true, menuSays: ":4: " + menuProblem),
        Case(
            name: "comments after headers",
            text: "[cli]  # the command line\nnotify = failures\n[menu]  # popup\nrows = many\n",
            daemonAccepts: true, daemonSays: "", cliNotifies: true, menuSays: ":4: " + menuProblem),
        Case(
            name: "CRLF line ends", text: "[cli]\r\nnotify = failures\r\n[menu] ; popup\r\nrows = many\r\n",
            daemonAccepts: true, daemonSays: "", cliNotifies: true, menuSays: ":4: " + menuProblem),
        Case(
            name: "a FIFO", text: nil, daemonAccepts: false,
            daemonSays: "cannot read it: it is a FIFO, not a regular file", cliNotifies: false,
            menuSays: ": it is a FIFO, not a regular file; using the defaults"),
        // The keys first, then 2 MiB: a reader of a prefix would still find them.
        Case(
            name: "a huge file",
            text: "[cli]\nnotify = failures\n[menu]\nrows = many\n"
                + String(repeating: "# " + String(repeating: "x", count: 1021) + "\n", count: 2048),
            daemonAccepts: false, daemonSays: "cannot read it: it is larger than 1 MiB", cliNotifies: false,
            menuSays: ": it is larger than 1 MiB; using the defaults"),
    ]

    /// Every case against the three programs, on one daemon and one notification server.
    @Test func threeReadersAgree() throws {
        let session = try DaemonProcess(config: "", homePrefix: "cliptab-shared-config")
        defer { session.stop() }
        let server = try NotificationService(environment: session.environment)
        defer { server.stop() }
        let guardTime = 20_000
        for (index, test) in Self.cases.enumerated() {
            if let text = test.text {
                try session.rewriteConfig(text)
            } else {
                unlink(session.configPath)
                #expect(mkfifo(session.configPath, 0o600) == 0)
            }

            let daemon = try ChildProcess.run(
                session.executable, ["--check-config"], environment: session.environment,
                timeoutMilliseconds: guardTime)
            #expect(!daemon.timedOut, "\(test): cliptabd waited")
            if test.daemonAccepts {
                #expect(daemon.termination == .exited(0), "\(test): \(daemon.errorText)")
            } else {
                #expect(daemon.termination == .exited(78), "\(test)")
                #expect(
                    daemon.errorText.contains("\(session.configPath): \(test.daemonSays)"),
                    "\(test): \(daemon.errorText)")
            }

            // A refused call: notified under `failures` and `all`, not under `never`. Each is
            // followed by a run that notifies for sure: after a silent run, its notification
            // is the next one the server shows.
            let missing = "missing-\(index)"
            let cli = try runCliptab(
                ["copy", missing, "0:0"], environment: session.environment, timeoutMilliseconds: guardTime)
            #expect(cli.status == 1 && cli.err.contains("NoSuchTable"), "\(test): \(cli)")
            let marker = "marker-\(index)"
            _ = try runCliptab(["--notify", "copy", marker, "0:0"], environment: session.environment)
            let shown = server.next()?.body
            if test.cliNotifies {
                #expect(shown?.contains(missing) == true, "\(test): the CLI did not notify")
                // The marker's, which the next case must not take for its own.
                #expect(server.next()?.body.contains(marker) == true, "\(test)")
            } else {
                #expect(shown?.contains(marker) == true, "\(test): notified \(shown ?? "nothing")")
            }

            // The popup reads its settings before it looks for a display (there is none).
            let menu = try ChildProcess.run(
                BuiltProducts.path(of: "cliptab-menu"), ["--timeout", "2000", "t"],
                environment: session.environment, timeoutMilliseconds: guardTime)
            #expect(!menu.timedOut, "\(test): cliptab-menu waited")
            if let says = test.menuSays {
                #expect(
                    menu.errorText.contains("cliptab menu: \(session.configPath)\(says)")
                        || menu.errorText.contains("cliptab menu: cannot read \(session.configPath)\(says)"),
                    "\(test): \(menu.errorText)")
            }
        }
    }
}
